/**
 * Usage counters: how often each entry was shown to and read by each user (DESIGN.md
 * glossary "shown / read"; seed 004, stats).
 *
 * Counts are written after the answer, not during it: `countShown` and `countRead` queue
 * them in memory and one transaction writes the queue {@link FLUSH_DELAY_MS} later, or at
 * the next pause of the recalls if they keep coming, within 2 s (`flush-timing.ts`). A
 * write is a WAL commit whose time depends on the disk (and now and then on a checkpoint):
 * measured at 100k entries on a shared machine, a recall's own counter write took 0.08 ms
 * at the median but 10–15 ms at p99 and up to 77 ms, which was most of the tail of recall
 * over MCP. Reads of the counters (`stats`) and `close` write the queue first, so this
 * process always sees its own counts; another process sees them at most 2 s later. A process killed before the flush loses those counts
 * (usage statistics, never knowledge).
 *
 * The timed write never waits on another writer: while a refresh holds the write lock (a
 * long transaction, see `services/indexing/index-refresh.ts`) it tries with no busy timeout and, if
 * the file is locked, keeps the counts queued and tries again {@link FLUSH_DELAY_MS} later.
 * A read therefore never fails or stalls because the index is being refreshed.
 *
 * The team server does not queue: `record` writes the queued counts and its own in one
 * committed transaction before it returns (seed 004: an answer of 200 to `shown` is
 * durable, «Чтение счётчиков всегда точное»). A commit in WAL mode with `synchronous =
 * NORMAL` survives the process being killed (kill -9); only a power loss before the next
 * checkpoint can undo it.
 */

import { setTimeout as sleep } from "node:timers/promises";
import {
  type CounterRow,
  type CountKey,
  countingRepo,
  readCount,
  shownCounts,
  type UsageCount,
} from "../core/stats/usage-counts.js";
import { type DailyRow, dayOf } from "../core/stats/usage-days.js";
import type { CounterSum } from "../core/stats/usage-sums.js";
import type { SqliteDatabase } from "./sqlite-database.js";
import { WriteQueue } from "./write-queue.js";

export { type CounterRow, type CountKey, countingRepo };

/** How long counts wait in memory before they are written, ms. */
export const FLUSH_DELAY_MS = 250;

/** Most counts kept in memory while writes fail (e.g. a locked file); later ones are dropped. */
export const MAX_PENDING = 100_000;

/** One queued count. */
type PendingCount = UsageCount;

/** One UTC day's counts (migration 10), summed over users. */
export type DayCount = DailyRow;

/** The counters table (and its days, migration 10); statements prepared once. */
export class Counters {
  readonly #db;
  readonly #shown;
  readonly #read;
  readonly #byUser;
  readonly #all;
  readonly #one;
  readonly #shownDay;
  readonly #readDay;
  readonly #days;
  readonly #daysOfEntry;
  readonly #sums;
  readonly #sumsOfUser;
  readonly #queue: WriteQueue<PendingCount>;

  /** @param db - a migrated index database. */
  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#queue = new WriteQueue<PendingCount>({
      max: MAX_PENDING,
      delayMs: FLUSH_DELAY_MS,
      onDue: () => {
        try {
          this.flush({ wait: false });
        } catch {
          // Kept queued (see flush, which puts them back and arms the timer again): a
          // writer holds the lock; tried again a little later.
        }
      },
    });
    this.#shown = db.prepare(
      `INSERT INTO counters (user, repo, entry_id, shown, first_shown_at, last_shown_at)
       VALUES (@user, @repo, @entryId, 1, @now, @now)
       ON CONFLICT (user, repo, entry_id) DO UPDATE SET
         shown = shown + 1,
         first_shown_at = coalesce(first_shown_at, @now),
         last_shown_at = max(coalesce(last_shown_at, @now), @now)`,
    );
    this.#read = db.prepare(
      `INSERT INTO counters (user, repo, entry_id, read, first_read_at, last_read_at)
       VALUES (@user, @repo, @entryId, 1, @now, @now)
       ON CONFLICT (user, repo, entry_id) DO UPDATE SET
         read = read + 1,
         first_read_at = coalesce(first_read_at, @now),
         last_read_at = max(coalesce(last_read_at, @now), @now)`,
    );
    // The same count on its UTC day (migration 10: the daily report).
    this.#shownDay = db.prepare(
      `INSERT INTO usage_days (repo, entry_id, day, user, shown) VALUES (@repo, @entryId, @day, @user, 1)
       ON CONFLICT (repo, entry_id, day, user) DO UPDATE SET shown = shown + 1`,
    );
    this.#readDay = db.prepare(
      `INSERT INTO usage_days (repo, entry_id, day, user, read) VALUES (@repo, @entryId, @day, @user, 1)
       ON CONFLICT (repo, entry_id, day, user) DO UPDATE SET read = read + 1`,
    );
    this.#days = db.prepare(
      `SELECT day, sum(shown) AS shown, sum(read) AS read FROM usage_days
       WHERE repo = ? AND day >= ? AND day <= ? GROUP BY day ORDER BY day`,
    );
    this.#daysOfEntry = db.prepare(
      `SELECT day, sum(shown) AS shown, sum(read) AS read FROM usage_days
       WHERE repo = ? AND entry_id = ? AND day >= ? AND day <= ? GROUP BY day ORDER BY day`,
    );
    // Per entry id of a repository (`counters_by_entry`), or of one user's (primary key);
    // `ids` a JSON array, or NULL for every id.
    const sum = `SELECT entry_id AS entryId, sum(shown) AS shown, sum(read) AS read,
      max(last_shown_at) AS lastShownAt, max(last_read_at) AS lastReadAt FROM counters`;
    const ofIds = "(@ids IS NULL OR entry_id IN (SELECT value FROM json_each(@ids)))";
    this.#sums = db.prepare(
      `${sum} WHERE repo = @repo AND ${ofIds} GROUP BY entry_id ORDER BY entry_id`,
    );
    this.#sumsOfUser = db.prepare(
      `${sum} WHERE user = @user AND repo = @repo AND ${ofIds} GROUP BY entry_id ORDER BY entry_id`,
    );
    const columns = `user, repo, entry_id AS entryId, shown, read, first_shown_at AS firstShownAt,
      last_shown_at AS lastShownAt, first_read_at AS firstReadAt, last_read_at AS lastReadAt`;
    this.#byUser = db.prepare(
      `SELECT ${columns} FROM counters WHERE user = ? ORDER BY repo, entry_id`,
    );
    this.#all = db.prepare(`SELECT ${columns} FROM counters ORDER BY user, repo, entry_id`);
    this.#one = db.prepare(
      `SELECT ${columns} FROM counters WHERE user = ? AND repo = ? AND entry_id = ?`,
    );
  }

  /**
   * Counts one showing of each entry to a user (queued; see the module header).
   *
   * @param user - who was shown them.
   * @param entries - the listed entries, each by its repository (source) and id; a repeated one counts each time.
   * @param now - when, ms since the epoch.
   */
  countShown(user: string, entries: readonly CountKey[], now: number): void {
    for (const count of shownCounts(user, entries, now)) this.#queue.push(count);
  }

  /**
   * Counts one read of an entry by a user (queued; see the module header).
   *
   * @param user - who opened it.
   * @param entry - the entry, by its repository (source) and id.
   * @param now - when, ms since the epoch.
   */
  countRead(user: string, entry: CountKey, now: number): void {
    this.#queue.push(readCount(user, entry, now));
  }

  /**
   * The counters of one user, or of everyone, ordered by user then entry id; queued counts
   * are written first, unless another writer holds the lock (then they stay queued and
   * the stored counts are answered at once).
   *
   * @param user - whose counters; absent = all users.
   * @throws the SQLite error of the write of queued counts other than `SQLITE_BUSY` (they
   *   stay queued).
   */
  stats(user?: string): CounterRow[] {
    try {
      this.flush({ wait: false });
    } catch (error) {
      // Another writer holds the lock (a refresh): the queued counts stay queued and the
      // stored ones are answered; a read never waits on a writer.
      if (!isBusy(error)) throw error;
    }
    return (user === undefined ? this.#all.all() : this.#byUser.all(user)) as CounterRow[];
  }

  /**
   * Writes counts at once, durably: the queued counts and these in one committed `BEGIN
   * IMMEDIATE` transaction (waiting out the busy timeout while another process writes), so
   * when it returns they survive a kill -9 of the process (seed 004: an answer of 200 to
   * `shown` is durable). Inside a caller's transaction they join it instead (durable at its
   * commit).
   *
   * @param kind - `shown` or `read`.
   * @param user - whose counts.
   * @param entries - one count each, by repository (source) and id (a repeated one counts each time).
   * @param now - when, ms since the epoch.
   * @param options - `wait: false` tries once without waiting out the busy timeout
   *   (`SQLITE_BUSY` at once while another connection writes: a caller on the event loop
   *   waits asynchronously instead, see `index-store/sqlite-index-store.ts`).
   * @throws the SQLite error of the write (e.g. `SQLITE_BUSY` past the busy timeout):
   *   nothing of it is written; the queued counts stay queued.
   */
  record(
    kind: "shown" | "read",
    user: string,
    entries: readonly CountKey[],
    now: number,
    options: { wait?: boolean } = {},
  ): void {
    const batch = this.#queue.take();
    const write = () => {
      this.#write(batch);
      for (const { repo, id } of entries) {
        this.#count(kind, { user, repo: countingRepo(repo), entryId: id, now });
      }
    };
    try {
      if (this.#db.inTransaction) write();
      else if (options.wait === false) this.#writeNow(write);
      else this.#db.transaction(write).immediate();
    } catch (error) {
      this.#queue.restore(batch);
      throw error;
    }
  }

  /**
   * One user's stored counts of one entry (queued counts are not looked at: the durable
   * writer, {@link record}, writes them first).
   *
   * @returns the row, or `undefined` when the user was never shown nor read it.
   */
  get(user: string, entry: CountKey): CounterRow | undefined {
    return this.#one.get(user, countingRepo(entry.repo), entry.id) as CounterRow | undefined;
  }

  /**
   * Writes the queued counts in one transaction, in the order they were counted.
   *
   * @param options - `wait: false` tries once without waiting out the busy timeout (the
   *   timed write); default: wait as any writer does.
   * @throws the SQLite error of the write (e.g. `SQLITE_BUSY` past the busy timeout); the
   *   counts stay queued for the next flush.
   */
  flush(options: { wait?: boolean } = {}): void {
    if (this.#queue.length === 0 || !this.#db.open) {
      this.#queue.cancel();
      return;
    }
    const batch = this.#queue.take();
    try {
      const write = () => this.#write(batch);
      // Inside a caller's transaction the counts join it; else they get one of their own.
      if (this.#db.inTransaction) write();
      else if (options.wait === false) this.#writeNow(write);
      else this.#db.transaction(write).immediate();
    } catch (error) {
      // Tried again by the timer (the queue arms it).
      this.#queue.restore(batch);
      throw error;
    }
  }

  /**
   * The shown/read counts per UTC day of a repository (every entry and draft of it), or of
   * one entry of it, summed over users; only the days with a count, oldest first. Queued
   * counts are written first, unless another writer holds the lock (see {@link stats}).
   *
   * @param repo - the repository (a draft source folds into it).
   * @param from - the first day, `YYYY-MM-DD` (UTC), included.
   * @param to - the last day, included.
   * @param entryId - one entry's days only; absent: the whole repository's.
   */
  days(repo: string, from: string, to: string, entryId?: string): DayCount[] {
    try {
      this.flush({ wait: false });
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
    const key = countingRepo(repo);
    return (
      entryId === undefined
        ? this.#days.all(key, from, to)
        : this.#daysOfEntry.all(key, entryId, from, to)
    ) as DayCount[];
  }

  /**
   * Shown and read per entry id of a repository, summed over users or one user's, with the
   * latest times; ordered by entry id. Queued counts are written first, unless another
   * writer holds the lock (see {@link stats}).
   *
   * @param repo - the repository (a draft source folds into it).
   * @param options - `user`: only theirs; `ids`: only these entry ids.
   */
  sums(repo: string, options: { user?: string; ids?: readonly string[] } = {}): CounterSum[] {
    try {
      this.flush({ wait: false });
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
    const params = {
      repo: countingRepo(repo),
      ids: options.ids === undefined ? null : JSON.stringify(options.ids),
    };
    return (
      options.user === undefined
        ? this.#sums.all(params)
        : this.#sumsOfUser.all({ ...params, user: options.user })
    ) as CounterSum[];
  }

  #write(batch: readonly PendingCount[]): void {
    for (const c of batch) {
      this.#count(c.kind, { user: c.user, repo: c.repo, entryId: c.entryId, now: c.now });
    }
  }

  /** One count: on the user's counter and on its UTC day. */
  #count(
    kind: "shown" | "read",
    params: { user: string; repo: string; entryId: string; now: number },
  ): void {
    const day = dayOf(params.now);
    if (kind === "shown") {
      this.#shown.run(params);
      this.#shownDay.run({ ...params, day });
    } else {
      this.#read.run(params);
      this.#readDay.run({ ...params, day });
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
}

/** True for SQLite's "database is locked" (`SQLITE_BUSY`, and its extended codes). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/** How often a write that found the file locked tries again ({@link whenFree}), ms. */
export const BUSY_POLL_MS = 10;

/**
 * Runs a write that fails at once when the file is locked (`wait: false`) again every
 * {@link BUSY_POLL_MS} until it is done or `waitMs` is over. Waiting here, on the event
 * loop, rather than in SQLite's busy handler (which blocks the thread) lets a heal of the
 * same process that holds the lock go on and release it.
 *
 * @param write - the write; throws `SQLITE_BUSY` when locked.
 * @param waitMs - the longest wait, ms.
 * @throws the write's error other than `SQLITE_BUSY`, or `SQLITE_BUSY` after the wait.
 */
export async function whenFree(write: () => void, waitMs: number): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      write();
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= until) throw error;
    }
    await sleep(BUSY_POLL_MS);
  }
}
