/**
 * Load receipts on PostgreSQL (the `ReceiptStore` of the `IndexStore` port; README "Load
 * receipts"; scale-out: several `lore serve` over one database list one another's
 * receipts). The same rows as SQLite's (`receipt-rows.ts`, migrations 9 and 12), in the
 * tables of `pg-index-migrations.ts` (migration 2), answered in the same shape, order and
 * filters.
 *
 * A receipt is written durably by one statement (the receipt and its hits, or nothing), so
 * it needs no transaction of its own and costs one round trip; its `seq` is the table's
 * identity, unique and growing across every server writing at once. Pruning rides on the
 * writes as on SQLite: at most once per `PRUNE_EVERY_MS` per process (by the receipts' own
 * times), receipts older than `keepDays` go, their hits with them (`ON DELETE CASCADE`).
 */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import type { MatchReason } from "../../core/recall/contract-match.js";
import type {
  NewReceipt,
  ReceiptHit,
  ReceiptQuery,
  ReceiptRecord,
} from "../../core/receipts/receipt.js";
import type { ReceiptStore } from "../../ports/index-store.js";
import { PRUNE_EVERY_MS } from "../receipt-rows.js";

const DAY_MS = 24 * 60 * 60 * 1000;

const INSERT = `
WITH r AS (
  INSERT INTO receipts (public_id, at, user_name, client, session, query, tool,
    page_offset, page_limit, total)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
  RETURNING receipt_id
)
INSERT INTO receipt_hits (receipt_id, rank, repo, entry_id, revision, draft, score, why)
SELECT r.receipt_id, h.* FROM r,
  unnest($11::int[], $12::text[], $13::text[], $14::text[], $15::boolean[], $16::float8[],
    $17::text[]) AS h`;

const COLUMNS = `r.receipt_id AS seq, r.public_id AS id, r.at, r.user_name AS "user", r.client,
  r.session, r.query, r.tool, r.page_offset AS "offset", r.page_limit AS "limit", r.total`;

/** A receipt's row as the listing selects it (its hits are read apart). */
type ReceiptRow = Omit<ReceiptRecord, "hits">;

/** A hit's row: the hit with its receipt's row id, its reasons as stored (JSON text). */
type HitRow = Omit<ReceiptHit, "why"> & { receiptId: number; why: string };

/** {@link ReceiptStore} over a `pg` pool (see the module header). */
export class PgReceiptStore implements ReceiptStore {
  readonly #pool: pg.Pool;
  readonly #fail: (error: unknown) => Error;
  readonly #keepDays: number;
  #prunedAt = Number.NEGATIVE_INFINITY;

  /**
   * @param pool - a pool over a migrated database (`openPgIndexStore`).
   * @param fail - turns an error of `pg` into the error thrown (`pgServerDbError`).
   * @param keepDays - days a receipt is kept (`[receipts] keep_days`).
   */
  constructor(pool: pg.Pool, fail: (error: unknown) => Error, keepDays: number) {
    this.#pool = pool;
    this.#fail = fail;
    this.#keepDays = keepDays;
  }

  async record(receipt: NewReceipt): Promise<string> {
    const id = randomBytes(16).toString("hex");
    const hits = receipt.hits;
    await this.#q(INSERT, [
      id,
      receipt.at,
      receipt.user,
      receipt.client,
      receipt.session,
      receipt.query,
      receipt.tool,
      receipt.offset,
      receipt.limit,
      receipt.total,
      hits.map((h) => h.rank),
      hits.map((h) => h.repo),
      hits.map((h) => h.id),
      hits.map((h) => h.revision),
      hits.map((h) => h.draft),
      hits.map((h) => h.score),
      hits.map((h) => JSON.stringify(h.why)),
    ]);
    if (receipt.at - this.#prunedAt >= PRUNE_EVERY_MS) {
      // The receipt is stored: a prune that fails now is tried by the next write instead.
      await this.prune(receipt.at).catch(() => undefined);
    }
    return id;
  }

  async list(query: ReceiptQuery): Promise<ReceiptRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (query.user !== undefined) where.push(`r.user_name = ${param(query.user)}`);
    if (query.session !== undefined) where.push(`r.session = ${param(query.session)}`);
    if (query.since !== undefined) where.push(`r.at >= ${param(query.since)}::bigint`);
    if (query.before !== undefined) {
      // A cursor whose receipt was pruned since lists nothing: every older one went with it.
      where.push(
        `r.receipt_id < (SELECT receipt_id FROM receipts WHERE public_id = ${param(query.before)})`,
      );
    }
    if (query.repos !== undefined) {
      where.push(
        `r.receipt_id IN (SELECT h.receipt_id FROM receipt_hits h
           WHERE h.repo = ANY(${param([...query.repos])}::text[]))`,
      );
    }
    const rows = await this.#q<ReceiptRow>(
      `SELECT ${COLUMNS} FROM receipts r ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}
       ORDER BY r.receipt_id DESC LIMIT ${param(query.limit)}`,
      params,
    );
    return this.#withHits(rows, query.repos ?? query.hitRepos);
  }

  async ofEntry(repo: string, id: string, limit: number): Promise<ReceiptRecord[]> {
    const rows = await this.#q<ReceiptRow>(
      `SELECT ${COLUMNS} FROM receipts r WHERE r.receipt_id IN (
         SELECT receipt_id FROM receipt_hits WHERE repo = $1 AND entry_id = $2
         ORDER BY receipt_id DESC LIMIT $3)
       ORDER BY r.receipt_id DESC`,
      [repo, id, limit],
    );
    return this.#withHits(rows);
  }

  async prune(now: number): Promise<number> {
    this.#prunedAt = now;
    const cutoff = now - this.#keepDays * DAY_MS;
    try {
      return (await this.#pool.query("DELETE FROM receipts WHERE at < $1", [cutoff]))
        .rowCount as number;
    } catch (error) {
      this.#prunedAt = Number.NEGATIVE_INFINITY;
      throw this.#fail(error);
    }
  }

  async count(): Promise<number> {
    const rows = await this.#q<{ n: number }>("SELECT count(*)::int AS n FROM receipts");
    return rows[0]?.n ?? 0;
  }

  async forgetUser(user: string): Promise<number> {
    return this.#changes("DELETE FROM receipts WHERE user_name = $1", [user]);
  }

  async forgetRepo(repo: string): Promise<number> {
    return this.#changes("DELETE FROM receipt_hits WHERE repo = $1", [repo]);
  }

  /** The receipts of `rows` with their hits, only those of `repos` when given. */
  async #withHits(rows: ReceiptRow[], repos?: readonly string[]): Promise<ReceiptRecord[]> {
    if (rows.length === 0) return [];
    const found = await this.#q<HitRow>(
      `SELECT receipt_id AS "receiptId", rank, repo, entry_id AS id, revision, draft, score, why
       FROM receipt_hits WHERE receipt_id = ANY($1::bigint[])
         AND ($2::text[] IS NULL OR repo = ANY($2::text[]))
       ORDER BY receipt_id, rank`,
      [rows.map((r) => r.seq), repos === undefined ? null : [...repos]],
    );
    const hits = new Map<number, ReceiptHit[]>();
    for (const row of found) {
      const list = hits.get(row.receiptId) ?? [];
      list.push({
        rank: row.rank,
        repo: row.repo,
        id: row.id,
        revision: row.revision,
        draft: row.draft,
        score: row.score,
        why: JSON.parse(row.why) as MatchReason[],
      });
      hits.set(row.receiptId, list);
    }
    return rows.map((row) => ({ ...row, hits: hits.get(row.seq) ?? [] }));
  }

  async #changes(sql: string, params: unknown[]): Promise<number> {
    try {
      return (await this.#pool.query(sql, params)).rowCount as number;
    } catch (error) {
      throw this.#fail(error);
    }
  }

  async #q<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.#pool.query<R>(sql, params)).rows;
    } catch (error) {
      throw this.#fail(error);
    }
  }
}
