/**
 * Versioned schema migrations through `PRAGMA user_version` (the index).
 */
import { LoreError } from "../core/errors/lore-error.js";
import { MIGRATION_001 } from "./migrations/001-initial.js";
import { migration002 } from "./migrations/002-fts-delete.js";
import { migration003 } from "./migrations/003-word-keys.js";
import { MIGRATION_004 } from "./migrations/004-repositories.js";
import { MIGRATION_005 } from "./migrations/005-body-in-git.js";
import { MIGRATION_006 } from "./migrations/006-drafts.js";
import { migration007 } from "./migrations/007-entry-ages.js";
import { MIGRATION_008 } from "./migrations/008-counters-by-repo.js";
import { MIGRATION_009 } from "./migrations/009-receipts.js";
import { MIGRATION_010 } from "./migrations/010-usage-days.js";
import { migration011 } from "./migrations/011-skipped-and-stems.js";
import { MIGRATION_012 } from "./migrations/012-receipt-public-ids.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/** One migration: SQL to run, or a step that runs statements itself (in the transaction). */
export type Migration = string | ((db: SqliteDatabase) => void);

/**
 * The migrations in order: migration `i` (0-based) brings the schema from version `i` to
 * `i + 1`. Append only; never edit a shipped one.
 */
export const MIGRATIONS: readonly Migration[] = [
  MIGRATION_001,
  migration002,
  migration003,
  MIGRATION_004,
  MIGRATION_005,
  MIGRATION_006,
  (db) => migration007(db),
  MIGRATION_008,
  MIGRATION_009,
  MIGRATION_010,
  migration011,
  MIGRATION_012,
];

/** The schema version this build of Lore writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings a database to {@link SCHEMA_VERSION}: runs each missing migration in its own
 * `BEGIN IMMEDIATE` transaction and sets `user_version` with it, so a failure leaves the
 * last good version. Safe when several processes open the same file at once: each
 * migration takes the write lock first (waiting out the busy timeout) and re-reads
 * `user_version` under it, so a migration another process has just applied is not run
 * again.
 *
 * @param db - an open database (not in a transaction).
 * @returns the version before migrating (0 for a new file).
 * @throws LoreError `index_failed` when the file was written by a newer Lore (its version is
 *   above ours) or a migration fails (including `SQLITE_BUSY` past the busy timeout).
 */
export function migrate(db: SqliteDatabase): number {
  return applyMigrations(db, MIGRATIONS, {
    what: "the index",
    newer: "use a newer Lore or delete the index to rebuild it",
  });
}

/**
 * Runs a list of migrations the way {@link migrate} does for the index, for any SQLite file
 * Lore owns (the team server's database has its own list, `index/server-store/`).
 *
 * @param db - an open database (not in a transaction).
 * @param migrations - migration `i` brings the schema from version `i` to `i + 1`.
 * @param label - how messages name the file (`the index`) and what to do when a newer Lore
 *   wrote it.
 * @returns the version before migrating (0 for a new file).
 * @throws LoreError `index_failed` as {@link migrate}.
 */
export function applyMigrations(
  db: SqliteDatabase,
  migrations: readonly Migration[],
  label: { what: string; newer: string },
): number {
  const latest = migrations.length;
  const from = readVersion(db, latest, label);
  for (let version = from; version < latest; ) {
    const target = version + 1;
    try {
      version = db
        .transaction((): number => {
          const now = readVersion(db, latest, label);
          if (now !== version) return now;
          const migration = migrations[now] as Migration;
          if (typeof migration === "string") db.exec(migration);
          else migration(db);
          db.pragma(`user_version = ${now + 1}`);
          return now + 1;
        })
        .immediate();
    } catch (error) {
      if (error instanceof LoreError) throw error;
      throw new LoreError(
        "index_failed",
        { reason: `migration to schema version ${target} failed` },
        { cause: error },
      );
    }
  }
  return from;
}

/**
 * The file's `user_version`.
 *
 * @throws LoreError `index_failed` when it is above `latest` (a newer Lore wrote the file).
 */
function readVersion(
  db: SqliteDatabase,
  latest: number,
  label: { what: string; newer: string },
): number {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > latest) {
    throw new LoreError("index_failed", {
      reason: `${label.what} has schema version ${version}, newer than this Lore (${latest}); ${label.newer}`,
    });
  }
  return version;
}
