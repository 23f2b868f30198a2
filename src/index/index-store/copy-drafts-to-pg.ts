/**
 * The drafts' part of `lore db migrate --to postgres://…` (scale-out: "moves a SQLite server
 * database without loss (drafts, counters, …) and verifies the counts after"): the SQLite
 * index's `drafts` (migration 6) copied into the index store's `drafts` on PostgreSQL
 * (`pg-index-migrations.ts`, migration 3) on the caller's transaction, each with one row of
 * `draft_changes` (so every server's mirror takes them in at its first refresh), then
 * verified: the rows of both tables and the drafts' bytes the same on both sides. Their
 * entries stay in the SQLite index, where the migrated server's mirror finds them.
 */
import type Database from "better-sqlite3";
import { LoreError } from "../../core/errors/lore-error.js";
import { BATCH_ROWS, type CopyClient } from "./copy-counters-to-pg.js";
import type { PG_DRAFT_TABLES } from "./pg-index-migrations.js";

/** The columns of both tables, in SQLite's select order, with PostgreSQL's array types. */
const COLUMNS: readonly (readonly [string, string])[] = [
  ["repo", "text"],
  ["id", "text"],
  ["branch", "text"],
  ["author", "text"],
  ["created_at", "bigint"],
  ["size", "int"],
  ["text", "text"],
  ["delivered_branch", "text"],
  ["delivered_commit", "text"],
  ["delivered_at", "bigint"],
  ["delivered_mr", "int"],
];

/**
 * Copies the drafts of a SQLite index into PostgreSQL on `client`'s open transaction (the
 * target's tables empty and migrated), then compares rows and bytes.
 *
 * @param index - the SQLite index, open (read-only is enough) at migration 6 or later,
 *   inside a read transaction of the caller's; `undefined`: no index, nothing copied, both
 *   tables verified empty.
 * @param client - a client inside the target's transaction.
 * @returns each table's rows: `drafts`, then `draft_changes` (one per draft).
 * @throws LoreError `migration_mismatch` (rows or bytes differ after the copy; data
 *   `{table, source, target}`); the database's errors as thrown.
 */
export async function copyDraftsToPg(
  index: Database.Database | undefined,
  client: CopyClient,
): Promise<{ table: (typeof PG_DRAFT_TABLES)[number]; rows: number }[]> {
  let source = { rows: 0, bytes: 0 };
  if (index !== undefined) {
    let batch: unknown[][] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const params = COLUMNS.map((_, i) => batch.map((row) => row[i]));
      const arrays = COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
      await client.query(
        `INSERT INTO drafts (${COLUMNS.map(([name]) => name).join(", ")})
         SELECT * FROM unnest(${arrays})`,
        params,
      );
      // Numbered in id order, as they would have been written.
      await client.query(
        "INSERT INTO draft_changes (repo, id) SELECT * FROM unnest($1::text[], $2::text[])",
        [params[0], params[1]],
      );
      batch = [];
    };
    const select = `SELECT ${COLUMNS.map(([name]) => name).join(", ")} FROM drafts ORDER BY id, repo`;
    for (const row of index.prepare(select).raw().iterate()) {
      batch.push(row as unknown[]);
      if (batch.length === BATCH_ROWS) await flush();
    }
    await flush();
    source = index
      .prepare(
        "SELECT count(*) AS rows, coalesce(sum(length(CAST(text AS BLOB))), 0) AS bytes FROM drafts",
      )
      .get() as { rows: number; bytes: number };
  }
  const target = (
    await client.query<{ rows: number; bytes: number; changes: number }>(
      `SELECT (SELECT count(*)::int FROM drafts) AS rows,
         (SELECT coalesce(sum(octet_length(text)), 0)::bigint FROM drafts) AS bytes,
         (SELECT count(*)::int FROM draft_changes) AS changes`,
    )
  ).rows[0] ?? { rows: 0, bytes: 0, changes: 0 };
  const mismatch = (table: string, from: number, to: number) =>
    new LoreError(
      "migration_mismatch",
      { table, source: from, target: to },
      { data: { table, source: from, target: to } },
    );
  if (target.rows !== source.rows) throw mismatch("drafts", source.rows, target.rows);
  if (Number(target.bytes) !== source.bytes) {
    throw mismatch("drafts", source.bytes, Number(target.bytes));
  }
  if (target.changes !== source.rows) {
    throw mismatch("draft_changes", source.rows, target.changes);
  }
  return [
    { table: "drafts", rows: source.rows },
    { table: "draft_changes", rows: source.rows },
  ];
}
