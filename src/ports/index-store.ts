import type { NewReceipt, ReceiptQuery, ReceiptRecord } from "../core/receipts/receipt.js";
import type { CounterRow, CountKey } from "../core/stats/usage-counts.js";
import type { DailyRow } from "../core/stats/usage-days.js";
import type { CounterSum } from "../core/stats/usage-sums.js";
import type { SharedDraftRecords } from "./draft-store.js";

/**
 * The index's records that must be exact across several `lore serve` over one database
 * (scale-out: PostgreSQL as the team server's database), behind one port with two engines:
 * SQLite (`index/index-store/sqlite-index-store.ts`, over the process's `EntryIndex`, the
 * embedded default) and PostgreSQL (`index/index-store/pg-index-store.ts`). One member per
 * concept — counters, locks, load receipts, drafts — so that the next (entries) join as a
 * member of its own without changing these.
 *
 * Every method that reaches the database is async (a PostgreSQL pool answers later). Times
 * are ms since the epoch. Errors of the database are LoreErrors: `database_unavailable`
 * (503: PostgreSQL cannot be reached) or `index_failed`; on SQLite a write that finds the
 * file locked past its wait throws SQLite's `SQLITE_BUSY` as `EntryIndex` does.
 */
export interface IndexStore {
  /** Shown/read counts (DESIGN.md glossary "shown / read"; seed 004, stats). */
  readonly counters: CounterStore;
  /** Locks that serialise work across every process sharing the store. */
  readonly locks: StoreLocks;
  /** Load receipts (README "Load receipts"): what each recall surfaced, for whom and why. */
  readonly receipts: ReceiptStore;
  /**
   * The drafts' records shared by every server on the database (PostgreSQL), each server
   * mirroring them into its own index (`services/drafts/mirrored-draft-store.ts`).
   * Absent on SQLite: the drafts are the index's own (`EntryIndex.drafts`).
   */
  readonly drafts?: SharedDraftRecords;
  /** Writes the queued counts, then lets go of the database (PostgreSQL: ends the pool). Idempotent. */
  close(): Promise<void>;
}

/**
 * Usage counters: per user and entry (by repository and id: a draft's `draft:<repo>` folds
 * into `<repo>`) the number of showings and reads with first and last times, and the same
 * counts per UTC day (the daily report). Two ways to count:
 *
 * - queued (`countShown`, `countRead`: local `lore mcp`): kept in memory and written by
 *   one timed write after the answer (`index/write-queue.ts`: 250 ms after the first, at
 *   the next pause of the recalls, within 2 s); reads of this store and `close` write them
 *   first, so this process always sees its own; another sees them at most ~2 s later;
 * - durable (`recordShown`, `recordRead`: the team server, seed 004 «Чтение счётчиков
 *   всегда точное»): the queued counts and these in one committed transaction before the
 *   promise resolves, so an answer of 200 survives a kill -9.
 *
 * Counts are exact under concurrency: any number of processes counting the same entry at
 * once over one database add up (each count is an increment in the database, never a
 * read-then-write in the process).
 */
export interface CounterStore {
  /** Queues one showing of each entry to a user (a repeated one counts each time). */
  countShown(user: string, entries: readonly CountKey[], now: number): void;
  /** Queues one read of an entry by a user. */
  countRead(user: string, entry: CountKey, now: number): void;
  /**
   * Counts one showing of each entry to a user, committed when it resolves (with the
   * queued counts). Nothing of it is counted when it rejects.
   */
  recordShown(user: string, entries: readonly CountKey[], now: number): Promise<void>;
  /** Counts one read of an entry by a user, committed when it resolves (see {@link recordShown}). */
  recordRead(user: string, entry: CountKey, now: number): Promise<void>;
  /** Writes the queued counts; when it resolves they are stored. */
  flush(): Promise<void>;
  /** One user's stored counts of one entry; `undefined` when never shown nor read. */
  get(user: string, entry: CountKey): Promise<CounterRow | undefined>;
  /**
   * The counters of one user, or of everyone, ordered by user, repository, entry id (byte
   * order); queued counts are written first.
   */
  list(user?: string): Promise<CounterRow[]>;
  /**
   * Shown and read per entry of a repository (its entries and drafts: a draft's counts are
   * kept under its repository), summed over users, or one user's: one sum per entry id that
   * has a counter, with the latest showing and read of the summed rows; ordered by entry id
   * (byte order). Queued counts are written first. The stats reports (`stats/me`,
   * `stats/team`, `stats/dead`) join these with the index's entries (`core/stats/usage-sums.ts`).
   *
   * @param repo - the repository (`owner/name`; a `draft:<repo>` source folds into it).
   * @param options - `user`: only this user's counters; absent: everyone's summed. `ids`:
   *   only these entry ids (compared exactly); absent: every id counted in the repository.
   */
  sums(repo: string, options?: { user?: string; ids?: readonly string[] }): Promise<CounterSum[]>;
  /**
   * Shown and read per UTC day of a repository (its entries and drafts), or of one entry of
   * it, summed over users: only days with a count, oldest first; queued counts are written
   * first.
   *
   * @param from - the first day, `YYYY-MM-DD` UTC, included; `to` the last, included.
   */
  days(repo: string, from: string, to: string, entryId?: string): Promise<DailyRow[]>;
  /** Drops a removed user's counters and days (`lore user rm`); answers the counter rows dropped. */
  forgetUser(user: string): Promise<number>;
  /** Drops a removed repository's counters and days (`lore repo rm`); answers the counter rows dropped. */
  forgetRepo(repo: string): Promise<number>;
}

/**
 * Load receipts (README "Load receipts"; seed 004 "Контракт извлечения"): one receipt per
 * recall with its surfaced hits, in the order they were written (`seq`: the database's own
 * sequence, so receipts written at once by several servers over one database get unique,
 * growing numbers), shown by a random `id` (32 hex digits) that is also the page cursor.
 *
 * The team server's way only — durable: {@link record} resolves once the receipt is
 * stored. The local CLI and `lore mcp` queue theirs in the SQLite index
 * (`EntryIndex.receipts`, `index/receipt-rows.ts`), which this store's SQLite engine reads
 * too. Receipts older than `keep_days` (`[receipts] keep_days`) go: {@link prune}, and at
 * most once an hour per process on a write (by the receipts' own times).
 */
export interface ReceiptStore {
  /**
   * Stores one receipt and answers its id. PostgreSQL: committed when it resolves (one
   * statement: the receipt and its hits or nothing). SQLite: written at once in its own
   * transaction; while another connection of the file holds the write lock (a heal), queued
   * and written by the index within ~2 s, as the server's SQLite index has always done.
   *
   * @param receipt - the receipt, its hits in rank order.
   * @throws the database's error (`database_unavailable`, `index_failed`; SQLite's own):
   *   nothing of the receipt is stored.
   */
  record(receipt: NewReceipt): Promise<string>;
  /**
   * Stored receipts, newest first (by `seq`), with their hits in rank order.
   *
   * @param query - see `ReceiptQuery`: `user`, `session`, `since` (ms, included), `before`
   *   (a receipt id: only older ones; an unknown or pruned id lists nothing), `repos` (only
   *   receipts with a hit of these repositories, and only those hits), `hitRepos` (only
   *   those hits, every receipt listed), `limit`.
   */
  list(query: ReceiptQuery): Promise<ReceiptRecord[]>;
  /**
   * The receipts in which one entry surfaced, newest first, with all their hits.
   *
   * @param repo - the entry's repository (a draft's folded into it).
   * @param id - the entry id.
   * @param limit - at most this many.
   */
  ofEntry(repo: string, id: string, limit: number): Promise<ReceiptRecord[]>;
  /**
   * Drops the receipts older than `keep_days` before `now`, with their hits.
   *
   * @param now - ms since the epoch.
   * @returns the receipts dropped.
   */
  prune(now: number): Promise<number>;
  /** The number of stored receipts (`lore db migrate`'s check, tests). */
  count(): Promise<number>;
  /** Drops a removed user's receipts (`lore user rm`); answers the receipts dropped. */
  forgetUser(user: string): Promise<number>;
  /**
   * Drops a removed repository's hits from every receipt (`lore repo rm`; a receipt left
   * with none is listed by no repository's route); answers the hits dropped.
   */
  forgetRepo(repo: string): Promise<number>;
}

/** Locks shared by every process on the store. */
export interface StoreLocks {
  /**
   * Runs `work` while holding the delivery lock of one branch of one repository (seed 004,
   * delivery: two servers never deliver the same drafts twice). Waits while another holder
   * — in this process or (PostgreSQL) in another server — runs; released when `work`
   * settles, and by the database when the holder's connection dies (a killed server).
   *
   * @returns what `work` resolves to; rejects with its error.
   */
  withDeliveryLock<T>(repo: string, branch: string, work: () => Promise<T>): Promise<T>;
}
