/**
 * The team server's durable counting (seed 004 "Интерфейс": «Чтение счётчиков всегда
 * точное, даже сразу после отметки показа»; an answer of 200 means the count is stored):
 * the one way `POST …/knowledge/shown`, `POST …/knowledge/entries/{id}/read` and recall and
 * open over `/mcp` count for the token's user.
 *
 * Each count is one committed transaction (`EntryIndex.recordShown`/`recordRead`) written
 * before the answer. While another connection holds the index's write lock (a heal of a
 * pushed repository runs in one long transaction, awaiting git in between), the write is
 * tried again every {@link RECORD_POLL_MS} instead of waiting in SQLite's busy handler: that
 * one blocks the thread, and a heal in the same process could then not go on to release
 * the lock.
 */
import { BUSY_POLL_MS, type CountKey, whenFree } from "../../index/counters.js";
import type { EntryIndex } from "../../index/entry-index.js";

/** How long a count waits for the write lock before it gives up, ms. */
export const RECORD_WAIT_MS = 30_000;

/** How often a count waiting for the lock tries again, ms. */
export const RECORD_POLL_MS = BUSY_POLL_MS;

/**
 * Counts one showing of each id to a user, committed when it resolves.
 *
 * @param index - the index.
 * @param user - who was shown them.
 * @param entries - the entries by repository (source) and id (each counts once per occurrence).
 * @param now - when, ms since the epoch.
 * @param waitMs - the longest wait for the write lock. Default {@link RECORD_WAIT_MS}.
 * @throws the SQLite error (`SQLITE_BUSY` after the wait): nothing is counted.
 */
export function recordShownDurably(
  index: EntryIndex,
  user: string,
  entries: readonly CountKey[],
  now: number,
  waitMs: number = RECORD_WAIT_MS,
): Promise<void> {
  return whenFree(() => index.recordShown(user, entries, now, { wait: false }), waitMs);
}

/**
 * Counts one read of an entry by a user, committed when it resolves.
 *
 * @param index - the index.
 * @param user - who opened it.
 * @param entry - the entry, by repository (source) and id.
 * @param now - when, ms since the epoch.
 * @param waitMs - the longest wait for the write lock. Default {@link RECORD_WAIT_MS}.
 * @throws the SQLite error (`SQLITE_BUSY` after the wait): nothing is counted.
 */
export function recordReadDurably(
  index: EntryIndex,
  user: string,
  entry: CountKey,
  now: number,
  waitMs: number = RECORD_WAIT_MS,
): Promise<void> {
  return whenFree(() => index.recordRead(user, entry, now, { wait: false }), waitMs);
}
