/**
 * The load receipts of the index (migration 9; README "Load receipts"): one row per recall
 * and one per surfaced hit. Reached as `EntryIndex.receipts`.
 *
 * Writes stay off recall's read path, the way usage counters do (`counters.ts`): `add`
 * queues a receipt and one transaction writes the queue {@link RECEIPT_FLUSH_DELAY_MS}
 * later, or at the next pause of the recalls within 2 s (`flush-timing.ts`), never waiting
 * on another writer (a refresh holding the lock keeps them queued). `list`, `ofEntry` and
 * `close` write the queue first, so this process always sees its own receipts; when another
 * writer holds the lock, `list` and `ofEntry` answer the queued ones beside the stored,
 * under the ids they will be stored by. In `durable` mode (the team server, the index's
 * sole writer) `add` writes at once in its own transaction, without a busy wait; when the
 * file is locked it falls back to the queue. `write` is that durable write on its own (the
 * `IndexStore` port's `receipts.record` on SQLite, `index-store/sqlite-index-store.ts`; a
 * server with `[server] database` keeps its receipts in PostgreSQL instead). A read-only or
 * broken file never fails a recall: the write error is reported to `onError` and the
 * receipt is dropped.
 *
 * Pruning rides on the writes: at most once per {@link PRUNE_EVERY_MS} (by the receipts'
 * own clock, so an injected `now` prunes too), receipts older than `keepDays` go.
 */

import { randomBytes } from "node:crypto";
import type { MatchReason } from "../core/recall/contract-match.js";
import type {
  NewReceipt,
  ReceiptHit,
  ReceiptQuery,
  ReceiptRecord,
} from "../core/receipts/receipt.js";
import { isBusy } from "./counters.js";
import { flushWait } from "./flush-timing.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/** How long receipts wait in memory before they are written, ms. */
export const RECEIPT_FLUSH_DELAY_MS = 250;

/** Most receipts kept in memory while writes fail (a locked file); later ones are dropped. */
export const MAX_PENDING_RECEIPTS = 10_000;

/** Least time between two prunes of one process, ms (an hour). */
export const PRUNE_EVERY_MS = 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

type Row = Record<string, unknown>;

/** A receipt waiting to be written, with the id it is shown by from the start. */
type Queued = NewReceipt & { id: string };

/** A new receipt's id: 32 random hex digits (`ReceiptRecord.id`). */
function newReceiptId(): string {
  return randomBytes(16).toString("hex");
}

let warned = false;

/** The default {@link ReceiptRows.onError}: one line on stderr per process (a recall never fails for a receipt). */
function warnOnce(error: unknown): void {
  if (warned) return;
  warned = true;
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(`lore: load receipts are not being written: ${reason}\n`);
}

/** The receipts tables of one index; statements prepared once. */
export class ReceiptRows {
  /** Days a receipt is kept (`[receipts] keep_days`); set by the composition. */
  keepDays: number;
  /** True: write each receipt at once (the team server); false: queue (see the module header). */
  durable = false;
  /** Told of a receipt write that failed for another reason than a lock (the receipt is dropped). */
  onError: (error: unknown) => void = warnOnce;
  readonly #db: SqliteDatabase;
  readonly #sql;
  #pending: Queued[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest and the newest queued receipt were queued (`performance.now()`, ms). */
  #firstAt = 0;
  #lastAt = 0;
  #prunedAt = Number.NEGATIVE_INFINITY;

  /**
   * @param db - a migrated index database (version 9 or later).
   * @param keepDays - days a receipt is kept.
   */
  constructor(db: SqliteDatabase, keepDays: number) {
    this.#db = db;
    this.keepDays = keepDays;
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      insert: p(
        `INSERT INTO receipts (public_id, at, user, client, session, query, tool, page_offset, page_limit, total)
         VALUES (@publicId, @at, @user, @client, @session, @query, @tool, @offset, @limit, @total)`,
      ),
      insertHit: p(
        `INSERT INTO receipt_hits (receipt_id, rank, repo, entry_id, revision, draft, score, why)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      hitsOf: p(
        `SELECT receipt_id AS receiptId, rank, repo, entry_id AS id, revision, draft, score, why
         FROM receipt_hits WHERE receipt_id IN (SELECT value FROM json_each(?))
         ORDER BY receipt_id, rank`,
      ),
      ofEntry: p(
        `SELECT receipt_id AS receiptId FROM receipt_hits WHERE repo = ? AND entry_id = ?
         ORDER BY receipt_id DESC LIMIT ?`,
      ).pluck(),
      byIds: p(
        `SELECT receipt_id AS seq, public_id AS id, at, user, client, session, query, tool, page_offset AS "offset",
           page_limit AS "limit", total
         FROM receipts WHERE receipt_id IN (SELECT value FROM json_each(?)) ORDER BY receipt_id DESC`,
      ),
      pruneHits: p(
        "DELETE FROM receipt_hits WHERE receipt_id IN (SELECT receipt_id FROM receipts WHERE at < ?)",
      ),
      prune: p("DELETE FROM receipts WHERE at < ?"),
      forgetUserHits: p(
        "DELETE FROM receipt_hits WHERE receipt_id IN (SELECT receipt_id FROM receipts WHERE user = ?)",
      ),
      forgetUser: p("DELETE FROM receipts WHERE user = ?"),
      forgetRepoHits: p("DELETE FROM receipt_hits WHERE repo = ?"),
      count: p("SELECT count(*) FROM receipts").pluck(),
      revisions: p(
        `SELECT f.repo, f.path, f.blob_sha AS sha FROM json_each(?) j
         JOIN files f ON f.repo = json_extract(j.value, '$[0]') AND f.path = json_extract(j.value, '$[1]')`,
      ),
    };
  }

  /**
   * Records one receipt: queued, or at once in `durable` mode (see the module header).
   * Never throws: a failed write goes to `onError`.
   *
   * @param receipt - the receipt (its hits in rank order).
   */
  add(fields: NewReceipt): void {
    if (this.durable && !this.#db.inTransaction) {
      try {
        this.write(fields);
      } catch (error) {
        this.onError(error);
      }
      return;
    }
    if (this.#pending.length >= MAX_PENDING_RECEIPTS) return;
    const now = performance.now();
    if (this.#pending.length === 0) this.#firstAt = now;
    this.#lastAt = now;
    this.#pending.push({ ...fields, id: newReceiptId() });
    this.#arm();
  }

  /**
   * Writes one receipt at once (with any queued before it) in its own transaction, without
   * a busy wait: the durable way of the team server (the `IndexStore` port's
   * `receipts.record` on SQLite). While another connection holds the write lock (a
   * refresh), or inside a transaction of this connection, it is queued instead and written
   * a little later.
   *
   * @param fields - the receipt (its hits in rank order).
   * @returns its id.
   * @throws the SQLite error of a failed write other than a lock (nothing of it is stored).
   */
  write(fields: NewReceipt): string {
    const receipt: Queued = { ...fields, id: newReceiptId() };
    if (this.#db.inTransaction) {
      this.#pending.push(receipt);
      this.#arm();
      return receipt.id;
    }
    const batch = [...this.#take(), receipt];
    try {
      this.#writeNow(() => this.#write(batch));
    } catch (error) {
      if (!isBusy(error)) throw error;
      // Another connection writes (a refresh): queued, written a little later.
      this.#pending = batch.concat(this.#pending).slice(0, MAX_PENDING_RECEIPTS);
      this.#arm();
    }
    return receipt.id;
  }

  /**
   * Writes the queued receipts in one transaction (and prunes when due).
   *
   * @param options - `wait: false` tries once without waiting out the busy timeout.
   * @throws the SQLite error of the write; the receipts stay queued when it is `SQLITE_BUSY`.
   */
  flush(options: { wait?: boolean } = {}): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#pending.length === 0 || !this.#db.open) return;
    const batch = this.#take();
    try {
      const write = () => this.#write(batch);
      if (this.#db.inTransaction) write();
      else if (options.wait === false) this.#writeNow(write);
      else this.#db.transaction(write).immediate();
    } catch (error) {
      if (isBusy(error)) {
        this.#pending = batch.concat(this.#pending).slice(0, MAX_PENDING_RECEIPTS);
      }
      throw error;
    }
  }

  /**
   * Receipts, newest first, with their hits (queued ones are written first unless another
   * writer holds the lock).
   *
   * @param query - see {@link ReceiptQuery}; with `repos`, only those repositories' hits
   *   are read and a receipt with none of them is not listed.
   */
  list(query: ReceiptQuery): ReceiptRecord[] {
    this.#flushForRead();
    // Receipts still queued (another writer held the lock) are newer than every stored one.
    let queued = this.#queued(query);
    let before = query.before;
    if (before !== undefined) {
      const at = queued.findIndex((r) => r.id === before);
      queued = at < 0 ? [] : queued.slice(at + 1);
      if (at >= 0) before = undefined;
    }
    if (queued.length >= query.limit) return queued.slice(0, query.limit);
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.user !== undefined) {
      where.push("r.user = ?");
      params.push(query.user);
    }
    if (query.session !== undefined) {
      where.push("r.session = ?");
      params.push(query.session);
    }
    if (query.since !== undefined) {
      where.push("r.at >= ?");
      params.push(query.since);
    }
    if (before !== undefined) {
      // A cursor whose receipt was pruned since lists nothing: every older one went with it.
      where.push("r.receipt_id < (SELECT receipt_id FROM receipts WHERE public_id = ?)");
      params.push(before);
    }
    if (query.repos !== undefined) {
      where.push(
        `r.receipt_id IN (SELECT h.receipt_id FROM receipt_hits h
          WHERE h.repo IN (SELECT value FROM json_each(?)))`,
      );
      params.push(JSON.stringify(query.repos));
    }
    const rows = this.#db
      .prepare(
        `SELECT r.receipt_id AS seq, r.public_id AS id, r.at, r.user, r.client, r.session, r.query, r.tool,
           r.page_offset AS "offset", r.page_limit AS "limit", r.total
         FROM receipts r ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}
         ORDER BY r.receipt_id DESC LIMIT ?`,
      )
      .all(...params, query.limit - queued.length) as Row[];
    return [...queued, ...this.#withHits(rows, query.repos ?? query.hitRepos)];
  }

  /**
   * The queued receipts a query lists, newest first, with its repository filter applied to
   * their hits (see {@link list}).
   */
  #queued(query: ReceiptQuery): ReceiptRecord[] {
    const allowed = query.repos ?? query.hitRepos;
    const out: ReceiptRecord[] = [];
    for (let i = this.#pending.length - 1; i >= 0; i--) {
      const receipt = this.#pending[i] as Queued;
      if (query.user !== undefined && receipt.user !== query.user) continue;
      if (query.session !== undefined && receipt.session !== query.session) continue;
      if (query.since !== undefined && receipt.at < query.since) continue;
      const hits =
        allowed === undefined ? receipt.hits : receipt.hits.filter((h) => allowed.includes(h.repo));
      if (query.repos !== undefined && hits.length === 0) continue;
      out.push(this.#queuedRecord(i, hits));
    }
    return out;
  }

  /** The record of the queued receipt at `i`, ordered after every stored one. */
  #queuedRecord(i: number, hits: ReceiptHit[]): ReceiptRecord {
    const { id, ...fields } = this.#pending[i] as Queued;
    return { ...fields, hits, id, seq: Number.MAX_SAFE_INTEGER - this.#pending.length + i };
  }

  /**
   * The receipts in which one entry surfaced, newest first, with all their hits.
   *
   * @param repo - the entry's repository (a draft's folded into it).
   * @param id - the entry id.
   * @param limit - at most this many.
   */
  ofEntry(repo: string, id: string, limit: number): ReceiptRecord[] {
    this.#flushForRead();
    const queued: ReceiptRecord[] = [];
    for (let i = this.#pending.length - 1; i >= 0 && queued.length < limit; i--) {
      const receipt = this.#pending[i] as Queued;
      if (receipt.hits.some((h) => h.repo === repo && h.id === id)) {
        queued.push(this.#queuedRecord(i, receipt.hits));
      }
    }
    if (queued.length >= limit) return queued;
    const ids = this.#sql.ofEntry.all(repo, id, limit - queued.length) as number[];
    if (ids.length === 0) return queued;
    return [...queued, ...this.#withHits(this.#sql.byIds.all(JSON.stringify(ids)) as Row[])];
  }

  /**
   * Drops the receipts older than `keepDays` before `now` (and their hits), in one
   * transaction (queued ones are written first).
   *
   * @param now - the current time, ms since the epoch.
   * @returns the receipts dropped.
   */
  prune(now: number): number {
    this.#flushForRead();
    return this.#db.transaction(() => this.#prune(now)).immediate();
  }

  /**
   * The stored blob shas of files, for a receipt's revisions.
   *
   * @param files - `[source, path]` pairs (a draft's source is `draft:<repo>`).
   * @returns `source\u0000path` → blob sha (files not stored are absent).
   */
  revisions(files: readonly (readonly [string, string])[]): Map<string, string> {
    const out = new Map<string, string>();
    if (files.length === 0) return out;
    for (const row of this.#sql.revisions.all(JSON.stringify(files)) as Row[]) {
      out.set(`${row.repo as string}\u0000${row.path as string}`, row.sha as string);
    }
    return out;
  }

  /**
   * Drops one user's receipts and their hits (`lore user rm`; queued ones are written
   * first). Inside the caller's transaction when there is one.
   *
   * @returns the receipts dropped.
   */
  forgetUser(user: string): number {
    this.flush();
    return this.#inTransaction(() => {
      this.#sql.forgetUserHits.run(user);
      return this.#sql.forgetUser.run(user).changes;
    });
  }

  /**
   * Drops one repository's hits from every receipt (`lore repo rm`; queued ones are
   * written first). Inside the caller's transaction when there is one.
   *
   * @returns the hits dropped.
   */
  forgetRepo(repo: string): number {
    this.flush();
    return this.#inTransaction(() => this.#sql.forgetRepoHits.run(repo).changes);
  }

  /** `work` in the connection's open transaction, or in one of its own. */
  #inTransaction<T>(work: () => T): T {
    return this.#db.inTransaction ? work() : this.#db.transaction(work).immediate();
  }

  /** The number of stored receipts (tests, `lore doctor`). */
  count(): number {
    this.#flushForRead();
    return this.#sql.count.get() as number;
  }

  #withHits(rows: Row[], repos?: readonly string[]): ReceiptRecord[] {
    if (rows.length === 0) return [];
    const allowed = repos === undefined ? undefined : new Set(repos);
    const hits = new Map<number, ReceiptHit[]>();
    for (const row of this.#sql.hitsOf.all(JSON.stringify(rows.map((r) => r.seq))) as Row[]) {
      if (allowed !== undefined && !allowed.has(row.repo as string)) continue;
      const id = row.receiptId as number;
      const list = hits.get(id) ?? [];
      list.push({
        rank: row.rank as number,
        repo: row.repo as string,
        id: row.id as string,
        revision: row.revision as string,
        draft: row.draft === 1,
        score: row.score as number,
        why: JSON.parse(row.why as string) as MatchReason[],
      });
      hits.set(id, list);
    }
    return rows.map((row) => ({
      id: row.id as string,
      seq: row.seq as number,
      at: row.at as number,
      user: row.user as string,
      client: row.client as string,
      session: (row.session as string | null) ?? null,
      query: (row.query as string | null) ?? null,
      tool: (row.tool as string | null) ?? null,
      offset: row.offset as number,
      limit: row.limit as number,
      total: row.total as number,
      hits: hits.get(row.seq as number) ?? [],
    }));
  }

  #write(batch: readonly Queued[]): void {
    let latest = Number.NEGATIVE_INFINITY;
    for (const receipt of batch) {
      const { hits, id: publicId, ...fields } = receipt;
      const id = this.#sql.insert.run({ ...fields, publicId }).lastInsertRowid;
      for (const hit of hits) {
        this.#sql.insertHit.run(
          id,
          hit.rank,
          hit.repo,
          hit.id,
          hit.revision,
          hit.draft ? 1 : 0,
          hit.score,
          JSON.stringify(hit.why),
        );
      }
      latest = Math.max(latest, receipt.at);
    }
    if (latest - this.#prunedAt >= PRUNE_EVERY_MS) this.#prune(latest);
  }

  #prune(now: number): number {
    this.#prunedAt = now;
    const cutoff = now - this.keepDays * DAY_MS;
    this.#sql.pruneHits.run(cutoff);
    return this.#sql.prune.run(cutoff).changes;
  }

  #take(): Queued[] {
    const batch = this.#pending;
    this.#pending = [];
    return batch;
  }

  #flushForRead(): void {
    try {
      this.flush({ wait: false });
    } catch (error) {
      // Locked by another writer: the stored receipts are answered, the queued ones stay
      // queued. Any other failure (a read-only file) drops them, reported.
      if (!isBusy(error)) this.onError(error);
    }
  }

  /** One write transaction with no busy timeout: `SQLITE_BUSY` at once when locked. */
  #writeNow(write: () => void): void {
    const timeout = this.#db.pragma("busy_timeout", { simple: true }) as number;
    this.#db.pragma("busy_timeout = 0");
    try {
      this.#db.transaction(write).immediate();
    } finally {
      this.#db.pragma(`busy_timeout = ${timeout}`);
    }
  }

  #arm(delayMs: number = RECEIPT_FLUSH_DELAY_MS): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // Not in the middle of a burst of recalls (see `flush-timing.ts`).
      const wait = flushWait(performance.now(), this.#firstAt, this.#lastAt);
      if (wait > 0 && this.#pending.length > 0) {
        this.#arm(wait);
        return;
      }
      try {
        this.flush({ wait: false });
      } catch (error) {
        if (isBusy(error)) {
          if (this.#db.open && this.#pending.length > 0) this.#arm();
        } else this.onError(error);
      }
    }, delayMs);
    // Queued receipts never keep a process alive: `close` writes them.
    this.#timer.unref();
  }
}
