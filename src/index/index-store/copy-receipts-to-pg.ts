/**
 * The load receipts' part of `lore db migrate --to postgres://…` (scale-out: "moves a SQLite
 * server database without loss (drafts, counters, users, tokens, receipts…) and verifies
 * the counts after"): the SQLite index's `receipts` and `receipt_hits` (migrations 9 and
 * 12) copied into the index store's tables on PostgreSQL (`pg-index-migrations.ts`,
 * migration 2) on the caller's transaction — each receipt under its row id and public id,
 * so the order, the ids callers were shown and their cursors stay as they were; the
 * receipts' identity then moved past the largest row id — and verified: the rows of both
 * tables the same on both sides.
 */
import type Database from "better-sqlite3";
import { LoreError } from "../../core/errors/lore-error.js";
import { BATCH_ROWS, type CopyClient } from "./copy-counters-to-pg.js";
import type { PG_RECEIPT_TABLES } from "./pg-index-migrations.js";

/** A table's copy: SQLite's select, PostgreSQL's columns and their array types. */
interface TableCopy {
  table: (typeof PG_RECEIPT_TABLES)[number];
  select: string;
  columns: readonly (readonly [string, string])[];
}

const TABLES: readonly TableCopy[] = [
  {
    table: "receipts",
    select: `SELECT receipt_id, public_id, at, user, client, session, query, tool, page_offset,
      page_limit, total FROM receipts`,
    columns: [
      ["receipt_id", "bigint"],
      ["public_id", "text"],
      ["at", "bigint"],
      ["user_name", "text"],
      ["client", "text"],
      ["session", "text"],
      ["query", "text"],
      ["tool", "text"],
      ["page_offset", "int"],
      ["page_limit", "int"],
      ["total", "int"],
    ],
  },
  {
    table: "receipt_hits",
    // SQLite keeps `draft` as 0/1; PostgreSQL as a boolean.
    select: `SELECT receipt_id, rank, repo, entry_id, revision, draft <> 0, score, why
      FROM receipt_hits`,
    columns: [
      ["receipt_id", "bigint"],
      ["rank", "int"],
      ["repo", "text"],
      ["entry_id", "text"],
      ["revision", "text"],
      ["draft", "boolean"],
      ["score", "float8"],
      ["why", "text"],
    ],
  },
];

/**
 * Copies the load receipts of a SQLite index into PostgreSQL on `client`'s open
 * transaction (the target's tables empty and migrated), then compares the rows.
 *
 * @param index - the SQLite index, open (read-only is enough) at migration 12 or later,
 *   inside a read transaction of the caller's (one state of it is copied); `undefined`: no
 *   index, so nothing is copied and both tables are verified empty.
 * @param client - a client inside the target's transaction.
 * @returns each table's rows: `receipts`, then `receipt_hits`.
 * @throws LoreError `migration_mismatch` (a table's rows differ after the copy; data
 *   `{table, source, target}`); the database's errors as thrown.
 */
export async function copyReceiptsToPg(
  index: Database.Database | undefined,
  client: CopyClient,
): Promise<{ table: (typeof PG_RECEIPT_TABLES)[number]; rows: number }[]> {
  const out: { table: (typeof PG_RECEIPT_TABLES)[number]; rows: number }[] = [];
  for (const { table, select, columns } of TABLES) {
    let source = 0;
    if (index !== undefined) {
      let batch: unknown[][] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const params = columns.map((_, i) => batch.map((row) => row[i]));
        const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
        await client.query(
          `INSERT INTO ${table} (${columns.map(([name]) => name).join(", ")})
           SELECT * FROM unnest(${arrays})`,
          params,
        );
        batch = [];
      };
      for (const row of index.prepare(select).raw().iterate()) {
        batch.push(row as unknown[]);
        if (batch.length === BATCH_ROWS) await flush();
      }
      await flush();
      source = (index.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    }
    const target =
      (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n ??
      0;
    if (source !== target) {
      throw new LoreError(
        "migration_mismatch",
        { table, source, target },
        { data: { table, source, target } },
      );
    }
    out.push({ table, rows: source });
  }
  // New receipts are numbered after the copied ones: the listing order goes on.
  const last =
    index === undefined
      ? 0
      : (
          index.prepare("SELECT coalesce(max(receipt_id), 0) AS n FROM receipts").get() as {
            n: number;
          }
        ).n;
  if (last > 0) {
    await client.query(
      "SELECT setval(pg_get_serial_sequence('receipts', 'receipt_id'), $1, true)",
      [last],
    );
  }
  return out;
}
