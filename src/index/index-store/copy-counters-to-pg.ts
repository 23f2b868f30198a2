/**
 * The usage counters' part of `lore db migrate --to postgres://…` (scale-out: "moves a
 * SQLite server database without loss … counters"): the SQLite index's `counters` and
 * `usage_days` (migrations 8 and 10) copied into the PostgreSQL tables of the index store
 * (`pg-index-migrations.ts`) on the caller's transaction, then verified: rows, and the
 * shown and read totals, the same on both sides. The entries and files stay in the SQLite
 * index (the team server still reads them there; drafts: `copy-drafts-to-pg.ts`).
 */
import type Database from "better-sqlite3";
import { LoreError } from "../../core/errors/lore-error.js";
import { PG_COUNTER_TABLES, PG_INDEX_TABLES } from "./pg-index-migrations.js";

/** A client inside the copy's transaction. */
export interface CopyClient {
  query<R = unknown>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
}

/** Rows per INSERT (arrays, one parameter per column). */
export const BATCH_ROWS = 5_000;

/** Each table's columns, SQLite's name → PostgreSQL's (`user` is reserved there). */
const COLUMNS: Readonly<
  Record<(typeof PG_COUNTER_TABLES)[number], readonly [string, string, string][]>
> = {
  counters: [
    ["user", "user_name", "text"],
    ["repo", "repo", "text"],
    ["entry_id", "entry_id", "text"],
    ["shown", "shown", "bigint"],
    ["read", "read", "bigint"],
    ["first_shown_at", "first_shown_at", "bigint"],
    ["last_shown_at", "last_shown_at", "bigint"],
    ["first_read_at", "first_read_at", "bigint"],
    ["last_read_at", "last_read_at", "bigint"],
  ],
  usage_days: [
    ["repo", "repo", "text"],
    ["entry_id", "entry_id", "text"],
    ["day", "day", "text"],
    ["user", "user_name", "text"],
    ["shown", "shown", "bigint"],
    ["read", "read", "bigint"],
  ],
};

/** Rows and totals of one table. */
interface Totals {
  rows: number;
  shown: number;
  read: number;
}

/**
 * The first of the index store's tables on PostgreSQL (counters, days, load receipts, drafts) that
 * holds a row, if any.
 *
 * @param client - a client on the migrated target.
 */
export async function firstFilledIndexTable(client: CopyClient): Promise<string | undefined> {
  for (const table of PG_INDEX_TABLES) {
    const found = await client.query(`SELECT 1 FROM ${table} LIMIT 1`);
    if (found.rowCount !== 0) return table;
  }
  return undefined;
}

/**
 * Copies the counters and their days of a SQLite index into PostgreSQL on `client`'s open
 * transaction (the target's tables empty and migrated), then compares rows and totals.
 *
 * @param index - the SQLite index, open (read-only is enough) at migration 10 or later,
 *   inside a read transaction of the caller's (one state of it is copied); `undefined`: no
 *   index (nothing counted yet), so nothing is copied and both tables are verified empty.
 * @param client - a client inside the target's transaction.
 * @returns each table's rows, in {@link PG_COUNTER_TABLES} order.
 * @throws LoreError `migration_mismatch` (a table's rows or totals differ after the copy;
 *   data `{table, source, target}`, the rows or, when they agree, the totals); the
 *   database's errors as thrown.
 */
export async function copyCountersToPg(
  index: Database.Database | undefined,
  client: CopyClient,
): Promise<{ table: (typeof PG_COUNTER_TABLES)[number]; rows: number }[]> {
  const out: { table: (typeof PG_COUNTER_TABLES)[number]; rows: number }[] = [];
  for (const table of PG_COUNTER_TABLES) {
    const columns = COLUMNS[table];
    let source: Totals = { rows: 0, shown: 0, read: 0 };
    if (index !== undefined) {
      const names = columns.map(([name]) => `"${name}"`).join(", ");
      const rows = index.prepare(`SELECT ${names} FROM ${table}`).raw().iterate();
      let batch: unknown[][] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const params = columns.map((_, i) => batch.map((row) => row[i]));
        const arrays = columns.map(([, , type], i) => `$${i + 1}::${type}[]`).join(", ");
        await client.query(
          `INSERT INTO ${table} (${columns.map(([, name]) => name).join(", ")})
           SELECT * FROM unnest(${arrays})`,
          params,
        );
        batch = [];
      };
      for (const row of rows) {
        batch.push(row as unknown[]);
        if (batch.length === BATCH_ROWS) await flush();
      }
      await flush();
      source = index
        .prepare(
          `SELECT count(*) AS rows, coalesce(sum(shown), 0) AS shown, coalesce(sum(read), 0) AS read
           FROM ${table}`,
        )
        .get() as Totals;
    }
    const target = (
      await client.query<Totals>(
        `SELECT count(*)::int AS rows, coalesce(sum(shown), 0)::float8 AS shown,
           coalesce(sum(read), 0)::float8 AS read FROM ${table}`,
      )
    ).rows[0] ?? { rows: 0, shown: 0, read: 0 };
    for (const key of ["rows", "shown", "read"] as const) {
      if (source[key] !== target[key]) {
        throw new LoreError(
          "migration_mismatch",
          {
            table: key === "rows" ? table : `${table}.${key}`,
            source: source[key],
            target: target[key],
          },
          { data: { table, source: source[key], target: target[key] } },
        );
      }
    }
    out.push({ table, rows: source.rows });
  }
  return out;
}
