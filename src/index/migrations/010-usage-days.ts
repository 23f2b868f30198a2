/**
 * Migration 10: usage per day (seed 004 "Интерфейс", stats; the web view's chart of shown
 * against read over time): one row per repository, entry, UTC day (`YYYY-MM-DD`) and user,
 * with that day's shown and read counts. Keyed like the counters (migration 8): `repo` is
 * the repository the entry belongs to, a draft's `draft:<repo>` folded into `<repo>`, so a
 * draft's days carry over when its file lands. The user is kept so a removed user's days go
 * with their counters (`lore user rm`); the daily report sums over users.
 *
 * No history is made up: the counters kept before this migration have no days, so the days
 * before it read as zeros. `CREATE … IF NOT EXISTS`: the table may already exist in a file a
 * build with another numbering of the migrations wrote.
 */
export const MIGRATION_010 = `
CREATE TABLE IF NOT EXISTS usage_days (
  repo     TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  day      TEXT NOT NULL,
  user     TEXT NOT NULL,
  shown    INTEGER NOT NULL DEFAULT 0,
  read     INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (repo, entry_id, day, user)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS usage_days_by_day ON usage_days (repo, day);
CREATE INDEX IF NOT EXISTS usage_days_by_user ON usage_days (user);
`;
