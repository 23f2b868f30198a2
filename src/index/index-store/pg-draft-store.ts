/**
 * The drafts' records on PostgreSQL (the `SharedDraftRecords` of the `IndexStore` port;
 * scale-out: several `lore serve` over one database share the drafts; seed 004, "Как знание
 * выходит наружу", "Пределы"). The same fields as SQLite's `drafts` (`index/draft-rows.ts`),
 * in the tables of `pg-index-migrations.ts` (migration 3), answered in the same shape and
 * order.
 *
 * Every change is one transaction that takes the advisory transaction lock
 * `PG_DRAFT_CHANGE_LOCK_KEY` first, then writes the draft and one numbered row of
 * `draft_changes` per draft changed. So changes commit in the order of their numbers (a
 * mirror that has read up to number *n* never misses a smaller one committed later), and
 * a draft's author count and its insert are one step across every server: a draft limit
 * of *L* accepts exactly *L* whichever servers the posts reach.
 */
import type pg from "pg";
import { type DraftDelivery, type DraftRecord, draftFilePath } from "../../core/drafts/draft.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type {
  DraftChanges,
  DraftKey,
  DraftListOptions,
  SharedDraftRecords,
} from "../../ports/draft-store.js";
import { inPgTransaction } from "../pg-transaction.js";
import { PG_DRAFT_CHANGE_LOCK_KEY } from "./pg-index-migrations.js";

interface DraftRow {
  repo: string;
  id: string;
  branch: string;
  author: string;
  created_at: number;
  size: number;
  text: string;
  delivered_branch: string | null;
  delivered_commit: string | null;
  delivered_at: number | null;
  delivered_mr: number | null;
}

const LOCK = `SELECT pg_advisory_xact_lock(${PG_DRAFT_CHANGE_LOCK_KEY})`;
const LOG = "INSERT INTO draft_changes (repo, id) SELECT $1, unnest($2::text[])";

/** {@link SharedDraftRecords} over a `pg` pool (see the module header). */
export class PgDraftStore implements SharedDraftRecords {
  readonly #pool: pg.Pool;
  readonly #fail: (error: unknown) => Error;

  /**
   * @param pool - a pool over a migrated database (`openPgIndexStore`).
   * @param fail - turns an error of `pg` into the error thrown (`pgServerDbError`).
   */
  constructor(pool: pg.Pool, fail: (error: unknown) => Error) {
    this.#pool = pool;
    this.#fail = fail;
  }

  insert(draft: DraftRecord, limit: number): Promise<void> {
    return this.#change(async (client) => {
      const found = await client.query<{ taken: boolean; count: number }>(
        `SELECT EXISTS (SELECT 1 FROM drafts WHERE repo = $1 AND id = $2) AS taken,
           (SELECT count(*) FROM drafts WHERE author = $3) AS count`,
        [draft.repo, draft.id, draft.author],
      );
      const { taken, count } = found.rows[0] as { taken: boolean; count: number };
      if (taken) {
        const data = { id: draft.id, path: draftFilePath(draft.id), repo: draft.repo };
        throw new LoreError("draft_id_taken", data, { data });
      }
      if (count >= limit) {
        const data = { author: draft.author, count, limit };
        throw new LoreError("draft_limit_reached", data, { data });
      }
      await client.query(
        `INSERT INTO drafts (repo, id, branch, author, created_at, size, text)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [draft.repo, draft.id, draft.branch, draft.author, draft.createdAt, draft.size, draft.text],
      );
      await client.query(LOG, [draft.repo, [draft.id]]);
    });
  }

  async get(repo: string, id: string): Promise<DraftRecord | undefined> {
    const [row] = await this.#q<DraftRow>("SELECT * FROM drafts WHERE repo = $1 AND id = $2", [
      repo,
      id,
    ]);
    return row === undefined ? undefined : toDraft(row);
  }

  async list(repos: readonly string[], options: DraftListOptions): Promise<DraftRecord[]> {
    const rows = await this.#q<DraftRow>(
      `SELECT * FROM drafts WHERE repo = ANY($1::text[]) AND id > $2
         AND ($3::text IS NULL OR branch = $3) ORDER BY id, repo LIMIT $4`,
      [[...repos], options.after ?? "", options.branch ?? null, options.limit],
    );
    return rows.map(toDraft);
  }

  async ofBranch(repo: string, branch: string): Promise<DraftRecord[]> {
    const rows = await this.#q<DraftRow>(
      "SELECT * FROM drafts WHERE repo = $1 AND branch = $2 ORDER BY id",
      [repo, branch],
    );
    return rows.map(toDraft);
  }

  async countByAuthor(author: string): Promise<number> {
    const [row] = await this.#q<{ n: number }>(
      "SELECT count(*) AS n FROM drafts WHERE author = $1",
      [author],
    );
    return row?.n ?? 0;
  }

  remove(repo: string, id: string): Promise<boolean> {
    return this.#change(async (client) => {
      const gone = await client.query("DELETE FROM drafts WHERE repo = $1 AND id = $2", [repo, id]);
      if (gone.rowCount === 0) return false;
      await client.query(LOG, [repo, [id]]);
      return true;
    });
  }

  markDelivered(repo: string, ids: readonly string[], delivery: DraftDelivery): Promise<void> {
    return this.#update(
      `UPDATE drafts SET delivered_branch = $3, delivered_commit = $4, delivered_at = $5,
         delivered_mr = $6 WHERE repo = $1 AND id = ANY($2::text[]) RETURNING id`,
      repo,
      ids,
      [delivery.branch, delivery.commit, delivery.at, delivery.mergeRequest ?? null],
    );
  }

  clearDelivered(repo: string, ids: readonly string[]): Promise<void> {
    return this.#update(
      `UPDATE drafts SET delivered_branch = NULL, delivered_commit = NULL, delivered_at = NULL,
         delivered_mr = NULL WHERE repo = $1 AND id = ANY($2::text[]) RETURNING id`,
      repo,
      ids,
      [],
    );
  }

  async count(): Promise<number> {
    const [row] = await this.#q<{ n: number }>("SELECT count(*) AS n FROM drafts");
    return row?.n ?? 0;
  }

  async changes(since?: number): Promise<DraftChanges> {
    if (since !== undefined) {
      // One statement, one snapshot: the changed keys with their drafts as they are now.
      const rows = await this.#q<DraftRow & { seq: number; key_repo: string; key_id: string }>(
        `SELECT c.seq, c.repo AS key_repo, c.id AS key_id, d.* FROM draft_changes c
           LEFT JOIN drafts d ON d.repo = c.repo AND d.id = c.id
          WHERE c.seq > $1 ORDER BY c.seq`,
        [since],
      );
      const latest = new Map<string, (typeof rows)[number]>();
      for (const row of rows) latest.set(`${row.key_repo}\n${row.key_id}`, row);
      const changed: DraftRecord[] = [];
      const removed: DraftKey[] = [];
      for (const row of latest.values()) {
        if (row.id === null) removed.push({ repo: row.key_repo, id: row.key_id });
        else changed.push(toDraft(row));
      }
      return { seq: rows.at(-1)?.seq ?? since, changed, removed, whole: false };
    }
    return inPgTransaction(
      this.#pool,
      async (client) => {
        await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const top = await client.query<{ seq: number | null }>(
          "SELECT max(seq) AS seq FROM draft_changes",
        );
        const rows = await client.query<DraftRow>("SELECT * FROM drafts ORDER BY repo, id");
        return {
          seq: top.rows[0]?.seq ?? 0,
          changed: rows.rows.map(toDraft),
          removed: [],
          whole: true,
        };
      },
      this.#fail,
    );
  }

  async firstChanges(keys: readonly DraftKey[]): Promise<(DraftKey & { seq: number })[]> {
    if (keys.length === 0) return [];
    return this.#q<DraftKey & { seq: number }>(
      `SELECT c.repo, c.id, min(c.seq) AS seq FROM unnest($1::text[], $2::text[]) AS k (repo, id)
         JOIN draft_changes c ON c.repo = k.repo AND c.id = k.id
        GROUP BY c.repo, c.id ORDER BY c.repo, c.id`,
      [keys.map((k) => k.repo), keys.map((k) => k.id)],
    );
  }

  adopt(drafts: readonly DraftRecord[]): Promise<number> {
    if (drafts.length === 0) return Promise.resolve(0);
    return this.#change(async (client) => {
      let stored = 0;
      for (const draft of drafts) {
        const put = await client.query(
          `INSERT INTO drafts (repo, id, branch, author, created_at, size, text,
             delivered_branch, delivered_commit, delivered_at, delivered_mr)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING`,
          draftParams(draft),
        );
        if (put.rowCount === 0) continue;
        await client.query(LOG, [draft.repo, [draft.id]]);
        stored += 1;
      }
      return stored;
    });
  }

  forgetRepo(repo: string): Promise<number> {
    return this.#change(async (client) => {
      const gone = await client.query<{ id: string }>(
        "DELETE FROM drafts WHERE repo = $1 RETURNING id",
        [repo],
      );
      const ids = gone.rows.map((row) => row.id);
      if (ids.length > 0) await client.query(LOG, [repo, ids]);
      return ids.length;
    });
  }

  /** An update of some drafts of one repository, each changed one numbered. */
  #update(sql: string, repo: string, ids: readonly string[], extra: unknown[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.#change(async (client) => {
      const done = await client.query<{ id: string }>(sql, [repo, [...ids], ...extra]);
      const changed = done.rows.map((row) => row.id);
      if (changed.length > 0) await client.query(LOG, [repo, changed]);
    });
  }

  /** One transaction of changes under the change lock (see the module header). */
  #change<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inPgTransaction(
      this.#pool,
      async (client) => {
        await client.query(LOCK);
        return work(client);
      },
      this.#fail,
    );
  }

  async #q<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.#pool.query<R>(sql, params)).rows;
    } catch (error) {
      throw this.#fail(error);
    }
  }
}

/** The parameters of a whole draft row, in the order of the table's columns. */
export function draftParams(draft: DraftRecord): unknown[] {
  return [
    draft.repo,
    draft.id,
    draft.branch,
    draft.author,
    draft.createdAt,
    draft.size,
    draft.text,
    draft.delivered?.branch ?? null,
    draft.delivered?.commit ?? null,
    draft.delivered?.at ?? null,
    draft.delivered?.mergeRequest ?? null,
  ];
}

function toDraft(row: DraftRow): DraftRecord {
  const draft: DraftRecord = {
    id: row.id,
    repo: row.repo,
    branch: row.branch,
    author: row.author,
    createdAt: row.created_at,
    size: row.size,
    text: row.text,
  };
  if (row.delivered_branch !== null && row.delivered_commit !== null) {
    draft.delivered = {
      branch: row.delivered_branch,
      commit: row.delivered_commit,
      at: row.delivered_at ?? 0,
      ...(row.delivered_mr === null ? {} : { mergeRequest: row.delivered_mr }),
    };
  }
  return draft;
}
