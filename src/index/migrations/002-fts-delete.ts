/**
 * Migration 2: a full-text table whose statistics follow deletes (the index:
 * "deleting the database and re-indexing gives the same answers").
 *
 * Migration 1 made `entry_text` contentless with `contentless_delete = 1`. Such a table
 * removes a row's tokens but never lowers the row count or the total token count bm25
 * reads its averages from (10 inserts, 5 deletes, 1 insert leave it counting 11 rows), so
 * an index kept up to date scored the same query differently from a fresh one.
 *
 * The new `entry_text` is contentless without `contentless_delete`: a row is removed with
 * the FTS5 `delete` command given the row's original column values, which FTS5 uses to
 * take out the tokens and lower the counts exactly. Those values are not stored: they are
 * re-analysed (`entryText` in `core/entry/index-document.ts`, deterministic) from the summary and
 * body kept in `entries`. Chosen over an external-content table because inserts cost the
 * same as before (the build is unchanged) and the analysed text is not stored twice; the
 * price, one analysis of the old text per updated or deleted entry, is paid only on
 * re-index.
 *
 * An existing database is migrated by dropping `entry_text` and its vocabulary
 * `entry_terms` and rebuilding them from `entries` (rowid = `file_id`), in pages of
 * {@link REBUILD_PAGE} entries.
 */
import { entryText } from "../../core/entry/index-document.js";
import type { SqliteDatabase } from "../sqlite-database.js";

/** Entries read per page while rebuilding the full-text table. */
const REBUILD_PAGE = 1_000;

/** The schema change of migration 2 (the rebuild follows it, see {@link migration002}). */
export const MIGRATION_002_SQL = `
DROP TABLE IF EXISTS entry_terms;
DROP TABLE IF EXISTS entry_text;
CREATE VIRTUAL TABLE entry_text USING fts5 (
  summary, body,
  content = '', tokenize = 'ascii'
);
CREATE VIRTUAL TABLE entry_terms USING fts5vocab (entry_text, 'row');
`;

/**
 * Runs migration 2 inside the caller's transaction: recreates `entry_text` and
 * `entry_terms` (see the module header) and fills `entry_text` from every stored entry.
 *
 * @param db - a database at schema version 1, in a write transaction.
 * @throws the SQLite error of a failed statement (the caller rolls back).
 */
export function rebuildEntryText(db: SqliteDatabase): void {
  const page = db
    .prepare(
      "SELECT file_id, summary, body FROM entries WHERE file_id > ? ORDER BY file_id LIMIT ?",
    )
    .raw();
  const insert = db.prepare("INSERT INTO entry_text (rowid, summary, body) VALUES (?, ?, ?)");
  for (let after = 0; ; ) {
    const rows = page.all(after, REBUILD_PAGE) as [number, string, string][];
    for (const [fileId, summary, body] of rows) {
      const text = entryText(summary, body);
      insert.run(fileId, text.summaryText, text.bodyText);
    }
    if (rows.length < REBUILD_PAGE) return;
    after = (rows[rows.length - 1] as [number, string, string])[0];
  }
}

/**
 * Migration 2 as a step of `migrate`: the schema change, then the rebuild.
 *
 * @param db - a database at schema version 1, in a write transaction.
 */
export function migration002(db: SqliteDatabase): void {
  db.exec(MIGRATION_002_SQL);
  rebuildEntryText(db);
}
