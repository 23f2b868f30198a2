/**
 * Usage counters: how often each entry was shown to and read by each user (issue 2,
 * section 4; DESIGN.md glossary "shown / read"; seed 004, stats).
 */
import type { SqliteDatabase } from "./sqlite-database.js";

/** One user's counts for one entry; times are ms since the Unix epoch, `null` when never. */
export interface CounterRow {
  user: string;
  entryId: string;
  shown: number;
  read: number;
  firstShownAt: number | null;
  lastShownAt: number | null;
  firstReadAt: number | null;
  lastReadAt: number | null;
}

/** The counters table; statements prepared once. */
export class Counters {
  readonly #db;
  readonly #shown;
  readonly #read;
  readonly #byUser;
  readonly #all;

  /** @param db - a migrated index database. */
  constructor(db: SqliteDatabase) {
    this.#db = db;
    this.#shown = db.prepare(
      `INSERT INTO counters (user, entry_id, shown, first_shown_at, last_shown_at)
       VALUES (@user, @entryId, 1, @now, @now)
       ON CONFLICT (user, entry_id) DO UPDATE SET
         shown = shown + 1,
         first_shown_at = coalesce(first_shown_at, @now),
         last_shown_at = max(coalesce(last_shown_at, @now), @now)`,
    );
    this.#read = db.prepare(
      `INSERT INTO counters (user, entry_id, read, first_read_at, last_read_at)
       VALUES (@user, @entryId, 1, @now, @now)
       ON CONFLICT (user, entry_id) DO UPDATE SET
         read = read + 1,
         first_read_at = coalesce(first_read_at, @now),
         last_read_at = max(coalesce(last_read_at, @now), @now)`,
    );
    const columns = `user, entry_id AS entryId, shown, read, first_shown_at AS firstShownAt,
      last_shown_at AS lastShownAt, first_read_at AS firstReadAt, last_read_at AS lastReadAt`;
    this.#byUser = db.prepare(`SELECT ${columns} FROM counters WHERE user = ? ORDER BY entry_id`);
    this.#all = db.prepare(`SELECT ${columns} FROM counters ORDER BY user, entry_id`);
  }

  /**
   * Counts one showing of each entry to a user (one transaction).
   *
   * @param user - who was shown them.
   * @param entryIds - the listed entries; a repeated id counts each time.
   * @param now - when, ms since the epoch.
   */
  countShown(user: string, entryIds: readonly string[], now: number): void {
    if (entryIds.length === 0) return;
    this.#db.transaction(() => {
      for (const id of entryIds) this.#shown.run({ user, entryId: id, now });
    })();
  }

  /**
   * Counts one read of an entry by a user.
   *
   * @param user - who opened it.
   * @param entryId - the entry.
   * @param now - when, ms since the epoch.
   */
  countRead(user: string, entryId: string, now: number): void {
    this.#read.run({ user, entryId, now });
  }

  /**
   * The counters of one user, or of everyone, ordered by user then entry id.
   *
   * @param user - whose counters; absent = all users.
   */
  stats(user?: string): CounterRow[] {
    return (user === undefined ? this.#all.all() : this.#byUser.all(user)) as CounterRow[];
  }
}
