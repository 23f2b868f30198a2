/**
 * The {@link IndexStore} port on SQLite (the embedded default): a view of the process's
 * `EntryIndex` — its counters, with their queue, are the index's own, so counts made
 * through the index (`countShown` of a local recall) and through this store are one queue
 * and one table; its load receipts are the index's `receipts` (`receipt-rows.ts`), so the
 * receipts of a local recall and of this store are one table — and the delivery locks: of
 * this process, and with a lock folder, of every server on the data folder (`file-locks.ts`).
 */
import type { NewReceipt, ReceiptQuery, ReceiptRecord } from "../../core/receipts/receipt.js";
import type { CounterRow, CountKey } from "../../core/stats/usage-counts.js";
import type { DailyRow } from "../../core/stats/usage-days.js";
import type { CounterSum } from "../../core/stats/usage-sums.js";
import type {
  CounterStore,
  IndexStore,
  ReceiptStore,
  StoreLocks,
} from "../../ports/index-store.js";
import { whenFree } from "../counters.js";
import type { EntryIndex } from "../entry-index.js";
import { FileLocks } from "./file-locks.js";
import { deliveryLockName, ProcessLocks } from "./process-locks.js";

/** How long a durable count or a flush waits for the index's write lock, ms. */
export const SQLITE_STORE_WAIT_MS = 30_000;

/** What {@link sqliteIndexStore} is made with. */
export interface SqliteIndexStoreOptions {
  /** The longest wait for the write lock of a durable count or a flush, ms. Default {@link SQLITE_STORE_WAIT_MS}. */
  waitMs?: number;
  /**
   * The folder of the lock files shared by every server on the data folder (`<data>/locks`,
   * see `file-locks.ts`). Absent: the locks hold within this process only.
   */
  lockDir?: string;
}

class SqliteCounterStore implements CounterStore {
  readonly #index: EntryIndex;
  readonly #waitMs: number;

  constructor(index: EntryIndex, waitMs: number) {
    this.#index = index;
    this.#waitMs = waitMs;
  }

  countShown(user: string, entries: readonly CountKey[], now: number): void {
    this.#index.countShown(user, entries, now);
  }

  countRead(user: string, entry: CountKey, now: number): void {
    this.#index.countRead(user, entry, now);
  }

  recordShown(user: string, entries: readonly CountKey[], now: number): Promise<void> {
    // Tried without SQLite's busy handler (it blocks the thread) while another connection
    // writes: see `whenFree`.
    return whenFree(
      () => this.#index.recordShown(user, entries, now, { wait: false }),
      this.#waitMs,
    );
  }

  recordRead(user: string, entry: CountKey, now: number): Promise<void> {
    return whenFree(() => this.#index.recordRead(user, entry, now, { wait: false }), this.#waitMs);
  }

  flush(): Promise<void> {
    return whenFree(() => this.#index.flushCounts({ wait: false }), this.#waitMs);
  }

  async get(user: string, entry: CountKey): Promise<CounterRow | undefined> {
    return this.#index.counter(user, entry.repo, entry.id);
  }

  async list(user?: string): Promise<CounterRow[]> {
    return this.#index.stats(user);
  }

  async sums(
    repo: string,
    options: { user?: string; ids?: readonly string[] } = {},
  ): Promise<CounterSum[]> {
    return this.#index.counterSums(repo, options);
  }

  async days(repo: string, from: string, to: string, entryId?: string): Promise<DailyRow[]> {
    return this.#index.usageDays(repo, from, to, entryId);
  }

  async forgetUser(user: string): Promise<number> {
    return this.#forget("user", user);
  }

  async forgetRepo(repo: string): Promise<number> {
    return this.#forget("repo", repo);
  }

  /** Drops the counter and day rows of one user or repository in one transaction. */
  #forget(column: "user" | "repo", value: string): number {
    return this.#index.withDatabase((db) =>
      db.transaction(() => {
        db.prepare(`DELETE FROM usage_days WHERE ${column} = ?`).run(value);
        return db.prepare(`DELETE FROM counters WHERE ${column} = ?`).run(value).changes;
      })(),
    );
  }
}

/** The index's receipts (`EntryIndex.receipts`) as the port's: its durable write, its reads. */
class SqliteReceiptStore implements ReceiptStore {
  readonly #index: EntryIndex;

  constructor(index: EntryIndex) {
    this.#index = index;
  }

  async record(receipt: NewReceipt): Promise<string> {
    return this.#index.receipts.write(receipt);
  }

  async list(query: ReceiptQuery): Promise<ReceiptRecord[]> {
    return this.#index.receipts.list(query);
  }

  async ofEntry(repo: string, id: string, limit: number): Promise<ReceiptRecord[]> {
    return this.#index.receipts.ofEntry(repo, id, limit);
  }

  async prune(now: number): Promise<number> {
    return this.#index.receipts.prune(now);
  }

  async count(): Promise<number> {
    return this.#index.receipts.count();
  }

  async forgetUser(user: string): Promise<number> {
    return this.#index.receipts.forgetUser(user);
  }

  async forgetRepo(repo: string): Promise<number> {
    return this.#index.receipts.forgetRepo(repo);
  }
}

class SqliteStoreLocks implements StoreLocks {
  readonly #locks = new ProcessLocks();
  readonly #files: FileLocks | undefined;

  constructor(lockDir: string | undefined) {
    this.#files = lockDir === undefined ? undefined : new FileLocks(lockDir);
  }

  withDeliveryLock<T>(repo: string, branch: string, work: () => Promise<T>): Promise<T> {
    const name = deliveryLockName(repo, branch);
    // This process's waiters in order first, then the other processes on the folder.
    const files = this.#files;
    return this.#locks.run(name, files === undefined ? work : () => files.run(name, work));
  }
}

/**
 * The index store over an open `EntryIndex`. It does not own the index: `close` writes the
 * queued counts and leaves the index open (its owner closes it, writing queued receipts).
 * Receipts are kept the index's `receipts.keepDays` (`[receipts] keep_days`).
 *
 * @param index - the process's index.
 * @param options - see {@link SqliteIndexStoreOptions}.
 */
export function sqliteIndexStore(
  index: EntryIndex,
  options: SqliteIndexStoreOptions = {},
): IndexStore {
  const counters = new SqliteCounterStore(index, options.waitMs ?? SQLITE_STORE_WAIT_MS);
  return {
    counters,
    locks: new SqliteStoreLocks(options.lockDir),
    receipts: new SqliteReceiptStore(index),
    async close() {
      // The queued counts only; a locked file leaves them to the index's own close.
      try {
        index.flushCounts({ wait: false });
      } catch {
        // Kept queued: `EntryIndex.close` writes them.
      }
    },
  };
}
