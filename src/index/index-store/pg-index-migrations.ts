/**
 * Schema of the index's records on PostgreSQL (scale-out: several `lore serve` over one
 * database; the `IndexStore` port). Tables of their own beside the server store's and the
 * full text's in one database; the version lives in `index_schema`. Append only: each
 * concept that moves to the port (drafts, load receipts, entries) adds a migration.
 *
 * - `counters`: one row per user, repository and entry id (SQLite's migration 8): shown and
 *   read counts with first and last times (ms since the epoch). `user_name` because `user`
 *   is a reserved word of PostgreSQL.
 * - `usage_days`: the same counts per UTC day (SQLite's migration 10).
 *
 * Text keys are `COLLATE "C"`: byte order of UTF-8, as SQLite's BINARY orders them, so
 * listings come in the same order on both engines.
 */

/** Migration 1: usage counters and their days. */
export const PG_INDEX_MIGRATION_001 = `
CREATE TABLE counters (
  user_name      TEXT COLLATE "C" NOT NULL,
  repo           TEXT COLLATE "C" NOT NULL,
  entry_id       TEXT COLLATE "C" NOT NULL,
  shown          BIGINT NOT NULL DEFAULT 0,
  read           BIGINT NOT NULL DEFAULT 0,
  first_shown_at BIGINT,
  last_shown_at  BIGINT,
  first_read_at  BIGINT,
  last_read_at   BIGINT,
  PRIMARY KEY (user_name, repo, entry_id)
);
CREATE INDEX counters_by_entry ON counters (repo, entry_id);
CREATE TABLE usage_days (
  repo      TEXT COLLATE "C" NOT NULL,
  entry_id  TEXT COLLATE "C" NOT NULL,
  day       TEXT COLLATE "C" NOT NULL,
  user_name TEXT COLLATE "C" NOT NULL,
  shown     BIGINT NOT NULL DEFAULT 0,
  read      BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (repo, entry_id, day, user_name)
);
CREATE INDEX usage_days_by_day ON usage_days (repo, day);
CREATE INDEX usage_days_by_user ON usage_days (user_name);
`;

/** Every migration of the index's records on PostgreSQL, in order (index *i* = version *i + 1*). */
export const PG_INDEX_MIGRATIONS: readonly string[] = [PG_INDEX_MIGRATION_001];

/** The tables of the index's records on PostgreSQL (besides `index_schema`). */
export const PG_INDEX_TABLES = ["counters", "usage_days"] as const;

/**
 * The key of the transaction-level advisory lock the migrations run under: "lore" in
 * ASCII, then 3 (1 is the server store's, 2 the full text's).
 */
export const PG_INDEX_MIGRATION_LOCK_KEY = 0x6c6f726503;
