/**
 * Versioned schema migrations through `PRAGMA user_version` (issue 2, section 3).
 */
import { LoreError } from "../core/lore-error.js";
import { MIGRATION_001 } from "./migrations/001-initial.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/**
 * The migrations in order: migration `i` (0-based) brings the schema from version `i` to
 * `i + 1`. Append only; never edit a shipped one.
 */
export const MIGRATIONS: readonly string[] = [MIGRATION_001];

/** The schema version this build of Lore writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings a database to {@link SCHEMA_VERSION}: runs each missing migration in its own
 * transaction and sets `user_version` with it, so a failure leaves the last good version.
 *
 * @param db - an open database.
 * @returns the version before migrating (0 for a new file).
 * @throws LoreError `index_failed` when the file was written by a newer Lore (its version is
 *   above ours) or a migration fails.
 */
export function migrate(db: SqliteDatabase): number {
  const from = db.pragma("user_version", { simple: true }) as number;
  if (from > SCHEMA_VERSION) {
    throw new LoreError("index_failed", {
      reason: `the index has schema version ${from}, newer than this Lore (${SCHEMA_VERSION}); use a newer Lore or delete the index to rebuild it`,
    });
  }
  for (let version = from; version < SCHEMA_VERSION; version++) {
    const sql = MIGRATIONS[version] as string;
    try {
      db.transaction(() => {
        db.exec(sql);
        db.pragma(`user_version = ${version + 1}`);
      })();
    } catch (error) {
      throw new LoreError(
        "index_failed",
        { reason: `migration to schema version ${version + 1} failed` },
        { cause: error },
      );
    }
  }
  return from;
}
