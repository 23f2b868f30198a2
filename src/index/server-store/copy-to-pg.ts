/**
 * `lore db migrate --to postgres://…` (scale-out: from the embedded SQLite server database to
 * PostgreSQL): copies every table of a SQLite server store (`<data>/server.db`) into an
 * EMPTY PostgreSQL database, ids kept and the id sequences moved past the largest id ever
 * given (SQLite's `sqlite_sequence`, so a deleted row's id is still never given again), in
 * ONE transaction: the row counts of every table are compared before it commits, so a copy
 * is whole or not there at all. With the SQLite index file, its usage counters and their
 * days (`index-store/copy-counters-to-pg.ts`: rows and shown/read totals compared) and its
 * load receipts with their hits (`index-store/copy-receipts-to-pg.ts`: ids and order kept,
 * rows compared) and its drafts (`index-store/copy-drafts-to-pg.ts`: rows and bytes
 * compared) go in the same transaction, into the index store's tables the team server
 * counts in, records receipts in and keeps its drafts in on PostgreSQL.
 */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { LoreError } from "../../core/errors/lore-error.js";
import { openIndex } from "../entry-index.js";
import { copyCountersToPg, firstFilledIndexTable } from "../index-store/copy-counters-to-pg.js";
import { copyDraftsToPg } from "../index-store/copy-drafts-to-pg.js";
import { copyReceiptsToPg } from "../index-store/copy-receipts-to-pg.js";
import type { PG_INDEX_TABLES } from "../index-store/pg-index-migrations.js";
import { migratePgIndexSchema } from "../index-store/pg-index-store.js";
import { passwordOf, pgServerDbError, redactDatabaseUrl } from "./pg-db-error.js";
import { PG_MIGRATION_LOCK_KEY, SERVER_TABLES } from "./pg-migrations.js";
import { createPool, openPgServerStore } from "./pg-server-store.js";
import { openSqliteServerStore } from "./sqlite-server-store.js";

/** Rows of one table in the source and in the target after the copy. */
export interface TableCount {
  /**
   * A server store's table, or the index's: the counters' (`counters`, `usage_days`), the
   * load receipts' (`receipts`, `receipt_hits`), the drafts' (`drafts`, `draft_changes`).
   */
  table: (typeof SERVER_TABLES)[number] | (typeof PG_INDEX_TABLES)[number];
  rows: number;
}

/** Columns stored as 0/1 in SQLite and as BOOLEAN in PostgreSQL. */
const BOOLEAN_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  users: ["site_admin"],
  repos: ["public"],
  branch_rules: ["allow_force_push"],
};

/** Tables whose `id` is an identity (AUTOINCREMENT in SQLite). */
const IDENTITY_TABLES = ["users", "groups", "tokens", "ssh_keys", "repos", "merge_requests"];

/** Rows per INSERT (each row ≤ 14 parameters; PostgreSQL allows 65,535 per statement). */
const BATCH_ROWS = 500;

/**
 * Copies a SQLite server store into an empty PostgreSQL database (see the module header).
 * The SQLite file is first brought to the latest schema (as any Lore opening it would), the
 * PostgreSQL schema made or brought up to date, then everything copied in one transaction
 * under the migrations' advisory lock.
 *
 * @param source - the SQLite file (`<data>/server.db`).
 * @param url - the target PostgreSQL URL.
 * @param indexFile - the server's SQLite index (`settings.database`): its counters, usage
 *   days, load receipts and drafts are copied too (a file that does not exist: nothing counted,
 *   none copied). Absent: the server store only.
 * @returns the rows of each table (source = target), in {@link SERVER_TABLES} order, then
 *   `counters`, `usage_days`, `receipts`, `receipt_hits`, `drafts` and `draft_changes` when
 *   `indexFile` is given.
 * @throws LoreError `path_not_found` (no such SQLite file), `migration_target_not_empty`
 *   (409: a table of the target already holds rows; `data.table` names the first),
 *   `migration_mismatch` (500: a table's count differs after the copy; nothing is kept),
 *   `database_unavailable` (503), `index_failed` (either database fails).
 */
export async function copyServerStoreToPg(
  source: string,
  url: string,
  indexFile?: string,
): Promise<TableCount[]> {
  if (!existsSync(source)) throw new LoreError("path_not_found", { path: source });
  await openSqliteServerStore(source).close();
  await (await openPgServerStore(url, { poolSize: 1 })).close();
  // The index brought to the latest schema as any Lore opening it would (counters by
  // repository, their days, receipts' public ids), then read in the same read transaction
  // as the store.
  const withIndex = indexFile !== undefined && existsSync(indexFile);
  if (withIndex) openIndex(indexFile).close();
  const password = passwordOf(url);
  const sqlite = new Database(source, { readonly: true, fileMustExist: true });
  const index = withIndex
    ? new Database(indexFile, { readonly: true, fileMustExist: true })
    : undefined;
  const pool = createPool(url, 1);
  try {
    if (indexFile !== undefined) {
      await migratePgIndexSchema(pool).catch((error: unknown) => {
        throw pgServerDbError(error, password);
      });
    }
    const client = await pool.connect().catch((error: unknown) => {
      throw pgServerDbError(error, password);
    });
    try {
      await client.query("BEGIN");
      try {
        await client.query("SELECT pg_advisory_xact_lock($1)", [PG_MIGRATION_LOCK_KEY]);
        for (const table of SERVER_TABLES) {
          const found = await client.query(`SELECT 1 FROM ${table} LIMIT 1`);
          if (found.rowCount !== 0) {
            throw new LoreError(
              "migration_target_not_empty",
              { target: redactDatabaseUrl(url) },
              { data: { table } },
            );
          }
        }
        const filled = indexFile === undefined ? undefined : await firstFilledIndexTable(client);
        if (filled !== undefined) {
          throw new LoreError(
            "migration_target_not_empty",
            { target: redactDatabaseUrl(url) },
            { data: { table: filled } },
          );
        }
        // The source is read in one read transaction: a lore serve still writing it cannot
        // make the copy half of one state and half of another.
        const counts: TableCount[] = [];
        sqlite.exec("BEGIN");
        index?.exec("BEGIN");
        let indexed: TableCount[] = [];
        try {
          for (const table of SERVER_TABLES) {
            counts.push({ table, rows: await copyTable(sqlite, client, table) });
          }
          await moveSequences(sqlite, client);
          // Verified as they are copied: rows and shown/read totals; receipts' rows; drafts'
          // rows and bytes.
          if (indexFile !== undefined) {
            indexed = [
              ...(await copyCountersToPg(index, client)),
              ...(await copyReceiptsToPg(index, client)),
              ...(await copyDraftsToPg(index, client)),
            ];
          }
        } finally {
          sqlite.exec("COMMIT");
          index?.exec("COMMIT");
        }
        for (const { table, rows } of counts) {
          const copied = await client.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM ${table}`,
          );
          const target = copied.rows[0]?.n ?? 0;
          if (target !== rows) {
            throw new LoreError(
              "migration_mismatch",
              { table, source: rows, target },
              { data: { table, source: rows, target } },
            );
          }
        }
        await client.query("COMMIT");
        return [...counts, ...indexed];
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
    } finally {
      client.release();
    }
  } catch (error) {
    throw pgServerDbError(error, password);
  } finally {
    sqlite.close();
    index?.close();
    await pool.end().catch(() => undefined);
  }
}

/** Copies one table's rows (the SQLite table's columns, same names in PostgreSQL). */
async function copyTable(
  sqlite: Database.Database,
  client: { query(sql: string, params?: unknown[]): Promise<unknown> },
  table: string,
): Promise<number> {
  const columns = (sqlite.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
  const booleans = new Set(BOOLEAN_COLUMNS[table] ?? []);
  const rows = sqlite
    .prepare(`SELECT ${columns.join(", ")} FROM ${table}`)
    .raw()
    .iterate();
  let batch: unknown[][] = [];
  let total = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const params: unknown[] = [];
    const tuples = batch.map((row) => {
      const marks = row.map((value, i) => {
        params.push(booleans.has(columns[i] as string) ? value !== 0 : value);
        return `$${params.length}`;
      });
      return `(${marks.join(", ")})`;
    });
    await client.query(
      `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${tuples.join(", ")}`,
      params,
    );
    total += batch.length;
    batch = [];
  };
  for (const row of rows) {
    batch.push(row as unknown[]);
    if (batch.length === BATCH_ROWS) await flush();
  }
  await flush();
  return total;
}

/**
 * Moves each identity past the largest id the SQLite file ever gave: its `sqlite_sequence`
 * (ids of deleted rows included) or the largest id present, whichever is larger.
 */
async function moveSequences(
  sqlite: Database.Database,
  client: { query(sql: string, params?: unknown[]): Promise<unknown> },
): Promise<void> {
  const sequences = new Map(
    (
      sqlite.prepare("SELECT name, seq FROM sqlite_sequence").all() as {
        name: string;
        seq: number;
      }[]
    ).map((row) => [row.name, row.seq]),
  );
  for (const table of IDENTITY_TABLES) {
    const max = (
      sqlite.prepare(`SELECT coalesce(max(id), 0) AS n FROM ${table}`).get() as { n: number }
    ).n;
    const last = Math.max(max, sequences.get(table) ?? 0);
    if (last > 0) {
      await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), $2, true)`, [
        table,
        last,
      ]);
    }
  }
}
