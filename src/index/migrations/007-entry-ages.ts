/**
 * Migration 7: when the index first held each entry id (seed 004 "Интерфейс", the
 * dead-memory report of `GET …/knowledge/stats/dead`: `never_shown` is an entry older than
 * `min_age_days` that nobody was shown).
 *
 * `entry_ages(entry_id, first_seen_at)` (ms since the epoch) gets a row when an entry id is
 * first stored (`EntryIndex.putFile`, drafts included: a draft's id is its file's, so a
 * draft that becomes a file keeps its age). Like `counters` it is usage data keyed by entry
 * id, not derived from git: forgetting a source, a re-index or a re-evaluation never drops
 * it, and a later migration that recreates the derived tables must keep it.
 *
 * The entries already stored are given the earliest time known of them: the migration's
 * own time, or earlier when a counter or a draft says the id existed before.
 */
import type { SqliteDatabase } from "../sqlite-database.js";

/**
 * Creates `entry_ages` and fills it for the stored entries.
 *
 * @param db - the index database, inside the migration's transaction.
 * @param now - the migration's time, ms since the epoch. Default: the current time.
 */
export function migration007(db: SqliteDatabase, now: number = Date.now()): void {
  db.exec(`
CREATE TABLE entry_ages (
  entry_id      TEXT PRIMARY KEY,
  first_seen_at INTEGER NOT NULL
) WITHOUT ROWID;
`);
  db.prepare(
    `INSERT OR IGNORE INTO entry_ages (entry_id, first_seen_at)
     SELECT e.id, min(
         @now,
         coalesce((SELECT min(min(coalesce(c.first_shown_at, @now), coalesce(c.first_read_at, @now)))
                   FROM counters c WHERE c.entry_id = e.id), @now),
         coalesce((SELECT min(d.created_at) FROM drafts d WHERE d.id = e.id), @now))
     FROM entries e GROUP BY e.id`,
  ).run({ now });
}
