/**
 * Migration 11: what parse on push reads per push, made cheap to read (seed 004, "Разбор
 * при отправке": hook time ≤ 1.5 s for 1,000 files, ≤ 0.5 s for one, at 100k entries).
 *
 * 1. `files.skipped` (1 for a file stored without an entry — a *wrong* file, or a duplicate
 *    id —, else 0) with a partial index on the skipped ones: every indexing run reports the
 *    repository's wrong files again and re-checks its `duplicate_id` files, which meant
 *    walking all of a repository's files against `entries` (tens of ms at 100k, on every
 *    push); now it reads the few skipped rows. Set by `EntryIndex.putFile`, the only writer
 *    of `files`; filled here from the stored rows.
 * 2. `stems (token, stem)`: a lasting memo of `stemToken` (`core/text/stem.ts`) behind the
 *    process's own, written by the index as it analyses text (`EntryIndex.putFile`). A hook is
 *    a fresh process with an empty memo: stemming a push's vocabulary with Snowball (25k
 *    distinct words for 1,000 files of the push bench, about a quarter of `post-receive`'s
 *    CPU) becomes one lookup a word, and
 *    a push of words already seen does not load the stemmer at all. A pure cache: the stems
 *    are the function's own values, so recall answers the same with it, without it, and with
 *    it empty (as this migration leaves it: it fills as entries are stored). A change to the
 *    analysis (already bound to a migration that rebuilds the full-text table, see
 *    `core/entry/index-document.ts`) must empty it in the same migration. Size: one row per
 *    distinct word of the corpus (~30 bytes each), about 1 % of the index at 100k entries (1.6 MB of 207 MB on the bench corpus).
 */
import type { SqliteDatabase } from "../sqlite-database.js";

/**
 * Runs migration 11 inside the caller's transaction. Safe on a file where its tables exist
 * already (a file another build numbering wrote, as migration 10 allows): the column is
 * added only when missing, the flag is recomputed from the stored rows either way.
 *
 * @param db - the index database at schema version 10, in a write transaction.
 * @throws the SQLite error of a failed statement (the caller rolls back).
 */
export function migration011(db: SqliteDatabase): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('files')").pluck().all();
  if (!columns.includes("skipped")) {
    db.exec("ALTER TABLE files ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0");
  }
  db.exec(`
UPDATE files SET skipped = NOT EXISTS (SELECT 1 FROM entries e WHERE e.file_id = files.file_id);
CREATE INDEX IF NOT EXISTS files_skipped ON files (repo, path) WHERE skipped = 1;
CREATE TABLE IF NOT EXISTS stems (
  token TEXT PRIMARY KEY,
  stem  TEXT NOT NULL
) WITHOUT ROWID;
`);
}
