/**
 * Versioned schema migrations on PostgreSQL (scale-out: several `lore serve` over one
 * database), shared by the server store (`server-store/pg-migrations.ts`) and the full text
 * (`pg-text/pg-text-migrations.ts`). Each schema keeps its version in a one-row table of its
 * own and migrates under its own advisory lock key.
 */
import type pg from "pg";
import { LoreError } from "../core/errors/lore-error.js";

/** One schema's migrations and how they are applied. */
export interface PgMigrationPlan {
  /** Migration `i` (SQL) brings the schema from version `i` to `i + 1`. Append only. */
  migrations: readonly string[];
  /** The `pg_advisory_xact_lock` key that serialises migrating this schema. */
  lockKey: number;
  /** The one-row table holding the version (`server_schema`, `text_schema`). */
  versionTable: string;
  /** How messages name the schema: `the server database`, `the full-text tables`. */
  what: string;
  /** Turns the error of one migration step (to `version`) into the error thrown; default: as it is. */
  stepError?: (error: unknown, version: number) => Error;
}

/**
 * Brings a schema to its latest version in ONE transaction under a transaction-level
 * advisory lock: two servers starting at once over one database migrate it once (the
 * second waits for the first's commit, then finds the schema current), and a failed
 * migration leaves the version it started from.
 *
 * @param pool - a pool on the database.
 * @param plan - see {@link PgMigrationPlan}.
 * @returns the version before migrating (0 for an empty database).
 * @throws LoreError `index_failed` when the schema's version is above this Lore's; the
 *   error of a failed step (see `stepError`) or of the connection.
 */
export async function applyPgMigrations(pool: pg.Pool, plan: PgMigrationPlan): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock($1)", [plan.lockKey]);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${plan.versionTable} (version INTEGER NOT NULL)`,
      );
      const found = await client.query<{ version: number }>(
        `SELECT version FROM ${plan.versionTable}`,
      );
      let from = found.rows[0]?.version;
      if (from === undefined) {
        await client.query(`INSERT INTO ${plan.versionTable} (version) VALUES (0)`);
        from = 0;
      }
      const latest = plan.migrations.length;
      if (from > latest) {
        throw new LoreError("index_failed", {
          reason: `${plan.what} has schema version ${from}, newer than this Lore (${latest}); use a newer Lore`,
          reason_ru: `${plan.what}: версия схемы ${from} новее этой версии Lore (${latest}); обновите Lore`,
        });
      }
      for (let version = from; version < latest; version++) {
        try {
          await client.query(plan.migrations[version] as string);
        } catch (error) {
          throw plan.stepError === undefined ? error : plan.stepError(error, version + 1);
        }
      }
      if (from < latest)
        await client.query(`UPDATE ${plan.versionTable} SET version = $1`, [latest]);
      await client.query("COMMIT");
      return from;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
}
