/**
 * Versioned schema migrations through `PRAGMA user_version` (the index).
 */
import { LoreError } from "../core/errors/lore-error.js";
import { MIGRATION_001 } from "./migrations/001-initial.js";
import { migration002 } from "./migrations/002-fts-delete.js";
import { migration003 } from "./migrations/003-word-keys.js";
import { MIGRATION_004 } from "./migrations/004-repositories.js";
import { MIGRATION_005 } from "./migrations/005-body-in-git.js";
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
  const from = readVersion(db);
  for (let version = from; version < SCHEMA_VERSION; ) {
    const target = version + 1;
    try {
      version = db
        .transaction((): number => {
          const now = readVersion(db);
          if (now !== version) return now;
          const migration = MIGRATIONS[now] as Migration;
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
 * @throws LoreError `index_failed` when it is above {@link SCHEMA_VERSION} (a newer Lore
 *   wrote the file).
 */
function readVersion(db: SqliteDatabase): number {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new LoreError("index_failed", {
      reason: `the index has schema version ${version}, newer than this Lore (${SCHEMA_VERSION}); use a newer Lore or delete the index to rebuild it`,
    });
  }
  return version;
}
