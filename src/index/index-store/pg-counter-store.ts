/**
 * Usage counters on PostgreSQL (the `CounterStore` of the `IndexStore` port; scale-out:
 * counters exact under concurrent `shown` from several `lore serve`). The same two ways to
 * count as on SQLite (`counters.ts`): queued counts wait in a {@link WriteQueue} (the same
 * timing: 250 ms after the first, at the next pause of the recalls, within 2 s) and one
 * statement writes them; durable counts write the queue and themselves in one committed
 * statement before they resolve.
 *
 * Exactness: a batch is folded into one change per row (`foldCounts`) and written as
 * increments in the database (`INSERT … ON CONFLICT DO UPDATE SET shown = shown + n`), the
 * counters and their days in one statement (its locks held only while PostgreSQL runs it),
 * so any number of servers counting one entry at once add up; rows are written in one byte
 * order, so two transactions never wait on each other in a cycle (a deadlock PostgreSQL
 * still reports is retried, the transaction having changed nothing).
 */
import type pg from "pg";
import {
  type CounterRow,
  type CountKey,
  countingRepo,
  foldCounts,
  readCount,
  shownCounts,
  type UsageCount,
} from "../../core/stats/usage-counts.js";
import type { DailyRow } from "../../core/stats/usage-days.js";
import type { CounterSum } from "../../core/stats/usage-sums.js";
import type { CounterStore } from "../../ports/index-store.js";
import { MAX_PENDING } from "../counters.js";
import { inPgTransaction } from "../pg-transaction.js";
import { WriteQueue } from "../write-queue.js";

/** SQLSTATE of a deadlock and of a serialization failure: the transaction is tried again. */
const RETRIED_STATES = new Set(["40P01", "40001"]);

/** How many times one write is tried when PostgreSQL breaks a deadlock by failing it. */
const WRITE_ATTEMPTS = 5;

const COLUMNS = `user_name AS "user", repo, entry_id AS "entryId", shown, read,
  first_shown_at AS "firstShownAt", last_shown_at AS "lastShownAt",
  first_read_at AS "firstReadAt", last_read_at AS "lastReadAt"`;

/**
 * The counters' and their days' increments of one batch in ONE statement (so one
 * transaction, one round trip): the row locks it takes are let go when PostgreSQL commits
 * it, before the answer travels back. Written as BEGIN, two statements and COMMIT, each
 * step waited for the server's event loop while holding the locks, and under a burst the
 * `shown` calls of one user queued behind each other across servers for more than a pool's
 * wait (503s).
 */
const UPSERT_COUNTS = `
WITH c AS (
  INSERT INTO counters AS c (user_name, repo, entry_id, shown, read,
    first_shown_at, last_shown_at, first_read_at, last_read_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[],
    $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[])
  ON CONFLICT (user_name, repo, entry_id) DO UPDATE SET
    shown = c.shown + excluded.shown,
    read = c.read + excluded.read,
    first_shown_at = coalesce(c.first_shown_at, excluded.first_shown_at),
    last_shown_at = greatest(c.last_shown_at, excluded.last_shown_at),
    first_read_at = coalesce(c.first_read_at, excluded.first_read_at),
    last_read_at = greatest(c.last_read_at, excluded.last_read_at)
), d AS (
  INSERT INTO usage_days AS d (repo, entry_id, day, user_name, shown, read)
  SELECT * FROM unnest($10::text[], $11::text[], $12::text[], $13::text[], $14::bigint[],
    $15::bigint[])
  ON CONFLICT (repo, entry_id, day, user_name) DO UPDATE SET
    shown = d.shown + excluded.shown,
    read = d.read + excluded.read
)
SELECT 1`;

/** Writes a batch of counts in one statement on `pool` (see {@link UPSERT_COUNTS}). */
async function writeCounts(pool: pg.Pool, batch: readonly UsageCount[]): Promise<void> {
  if (batch.length === 0) return;
  const { counters, days } = foldCounts(batch);
  await pool.query(UPSERT_COUNTS, [
    counters.map((r) => r.user),
    counters.map((r) => r.repo),
    counters.map((r) => r.entryId),
    counters.map((r) => r.shown),
    counters.map((r) => r.read),
    counters.map((r) => r.firstShownAt),
    counters.map((r) => r.lastShownAt),
    counters.map((r) => r.firstReadAt),
    counters.map((r) => r.lastReadAt),
    days.map((r) => r.repo),
    days.map((r) => r.entryId),
    days.map((r) => r.day),
    days.map((r) => r.user),
    days.map((r) => r.shown),
    days.map((r) => r.read),
  ]);
}

/** {@link CounterStore} over a `pg` pool (see the module header). */
export class PgCounterStore implements CounterStore {
  readonly #pool: pg.Pool;
  readonly #fail: (error: unknown) => Error;
  readonly #queue: WriteQueue<UsageCount>;
  /** The timed or asked-for write in flight; each flush waits for the one before it. */
  #writing: Promise<void> = Promise.resolve();
  #closed = false;

  /**
   * @param pool - a pool over a migrated database (`openPgIndexStore`).
   * @param fail - turns an error of `pg` into the error thrown (`pgServerDbError`).
   */
  constructor(pool: pg.Pool, fail: (error: unknown) => Error) {
    this.#pool = pool;
    this.#fail = fail;
    this.#queue = new WriteQueue<UsageCount>({
      max: MAX_PENDING,
      onDue: () => {
        // A failed write puts the counts back and arms the timer again (see flush).
        this.flush().catch(() => undefined);
      },
    });
  }

  countShown(user: string, entries: readonly CountKey[], now: number): void {
    for (const count of shownCounts(user, entries, now)) this.#queue.push(count);
  }

  countRead(user: string, entry: CountKey, now: number): void {
    this.#queue.push(readCount(user, entry, now));
  }

  recordShown(user: string, entries: readonly CountKey[], now: number): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    return this.#record(
      entries.map(({ repo, id }) => ({
        kind: "shown",
        user,
        repo: countingRepo(repo),
        entryId: id,
        now,
      })),
    );
  }

  recordRead(user: string, entry: CountKey, now: number): Promise<void> {
    return this.#record([
      { kind: "read", user, repo: countingRepo(entry.repo), entryId: entry.id, now },
    ]);
  }

  /** The queued counts and these in one committed transaction; on failure the queue gets its own back. */
  async #record(counts: readonly UsageCount[]): Promise<void> {
    const batch = this.#queue.take();
    try {
      await this.#write(batch.concat(counts));
    } catch (error) {
      this.#queue.restore(batch);
      throw error;
    }
  }

  flush(): Promise<void> {
    const batch = this.#queue.take();
    // After the write before it: when this resolves, every count queued so far is stored.
    const run = this.#writing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.#write(batch);
      } catch (error) {
        if (!this.#closed) this.#queue.restore(batch);
        throw error;
      }
    });
    this.#writing = run.catch(() => undefined);
    return run;
  }

  /** One statement writing `batch`, tried again when PostgreSQL failed it to break a deadlock. */
  async #write(batch: readonly UsageCount[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await writeCounts(this.#pool, batch);
        return;
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (attempt < WRITE_ATTEMPTS && typeof code === "string" && RETRIED_STATES.has(code)) {
          continue;
        }
        throw this.#fail(error);
      }
    }
  }

  async get(user: string, entry: CountKey): Promise<CounterRow | undefined> {
    const rows = await this.#q<CounterRow>(
      `SELECT ${COLUMNS} FROM counters WHERE user_name = $1 AND repo = $2 AND entry_id = $3`,
      [user, countingRepo(entry.repo), entry.id],
    );
    return rows[0];
  }

  async list(user?: string): Promise<CounterRow[]> {
    await this.flush();
    return user === undefined
      ? this.#q<CounterRow>(`SELECT ${COLUMNS} FROM counters ORDER BY user_name, repo, entry_id`)
      : this.#q<CounterRow>(
          `SELECT ${COLUMNS} FROM counters WHERE user_name = $1 ORDER BY repo, entry_id`,
          [user],
        );
  }

  async sums(
    repo: string,
    options: { user?: string; ids?: readonly string[] } = {},
  ): Promise<CounterSum[]> {
    await this.flush();
    // `$2` NULL: everyone's; `$3` NULL: every id. `counters_by_entry` or the primary key.
    return this.#q<CounterSum>(
      `SELECT entry_id AS "entryId", sum(shown)::bigint AS shown, sum(read)::bigint AS read,
         max(last_shown_at) AS "lastShownAt", max(last_read_at) AS "lastReadAt"
       FROM counters
       WHERE repo = $1 AND ($2::text IS NULL OR user_name = $2)
         AND ($3::text[] IS NULL OR entry_id = ANY($3::text[]))
       GROUP BY entry_id ORDER BY entry_id`,
      [
        countingRepo(repo),
        options.user ?? null,
        options.ids === undefined ? null : [...options.ids],
      ],
    );
  }

  async days(repo: string, from: string, to: string, entryId?: string): Promise<DailyRow[]> {
    await this.flush();
    const sums = `SELECT day, sum(shown)::bigint AS shown, sum(read)::bigint AS read FROM usage_days`;
    return entryId === undefined
      ? this.#q<DailyRow>(
          `${sums} WHERE repo = $1 AND day >= $2 AND day <= $3 GROUP BY day ORDER BY day`,
          [countingRepo(repo), from, to],
        )
      : this.#q<DailyRow>(
          `${sums} WHERE repo = $1 AND entry_id = $2 AND day >= $3 AND day <= $4
           GROUP BY day ORDER BY day`,
          [countingRepo(repo), entryId, from, to],
        );
  }

  forgetUser(user: string): Promise<number> {
    return this.#forget("user_name", user);
  }

  forgetRepo(repo: string): Promise<number> {
    return this.#forget("repo", repo);
  }

  /** Writes the queue, then stops restoring failed writes (the pool is about to end). */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.#closed = true;
      this.#queue.cancel();
    }
  }

  async #forget(column: "user_name" | "repo", value: string): Promise<number> {
    return inPgTransaction(
      this.#pool,
      async (client) => {
        await client.query(`DELETE FROM usage_days WHERE ${column} = $1`, [value]);
        return (await client.query(`DELETE FROM counters WHERE ${column} = $1`, [value]))
          .rowCount as number;
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
