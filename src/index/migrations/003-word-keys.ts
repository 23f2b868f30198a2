/**
 * Migration 3: the index re-analysed with the word keys of recall (Russian word forms fold
 * to one key, `core/text/stem.ts`: `деплоя`, `деплоем`, `деплои` and `деплой` are one word).
 *
 * The full text (`entry_text`, its vocabulary `entry_terms`) and the `on_query` lookup
 * table (`contract_words`) hold analysed words, so both are derived data that the new
 * analysis must rebuild: `entry_text` is dropped and refilled from the summaries and
 * bodies kept in `entries` (as migration 2 does), `contract_words` is emptied and refilled
 * from the contracts of the reachable entries. Nothing else changes; counters, files and
 * entries are kept.
 */

import type { ContractClause } from "../../core/entry/entry.js";
import { contractWords } from "../../core/recall/contract-match.js";
import type { SqliteDatabase } from "../sqlite-database.js";
import { MIGRATION_002_SQL, rebuildEntryText } from "./002-fts-delete.js";

/** Entries read per page while rebuilding the contract words. */
const REBUILD_PAGE = 1_000;

/**
 * Refills `contract_words` from the contracts of the reachable entries.
 *
 * @param db - a database in a write transaction.
 */
export function rebuildContractWords(db: SqliteDatabase): void {
  db.exec("DELETE FROM contract_words");
  const page = db
    .prepare(
      `SELECT file_id, id, contract FROM entries
       WHERE reachable = 1 AND file_id > ? ORDER BY file_id LIMIT ?`,
    )
    .raw();
  const insert = db.prepare(
    "INSERT OR IGNORE INTO contract_words (first_stem, file_id, entry_id, word, stems) VALUES (?, ?, ?, ?, ?)",
  );
  for (let after = 0; ; ) {
    const rows = page.all(after, REBUILD_PAGE) as [number, string, string][];
    for (const [fileId, id, contract] of rows) {
      for (const { word, stems } of contractWords(JSON.parse(contract) as ContractClause[])) {
        insert.run(stems[0], fileId, id, word, stems.length > 1 ? stems.join(" ") : null);
      }
    }
    if (rows.length < REBUILD_PAGE) return;
    after = (rows[rows.length - 1] as [number, string, string])[0];
  }
}

/**
 * Migration 3 as a step of `migrate`: the full text and the contract words rebuilt.
 *
 * @param db - a database at schema version 2, in a write transaction.
 */
export function migration003(db: SqliteDatabase): void {
  db.exec(MIGRATION_002_SQL);
  rebuildEntryText(db);
  rebuildContractWords(db);
}
