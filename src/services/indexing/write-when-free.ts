/**
 * A write of the index that never blocks the event loop. SQLite's busy handler waits for
 * another connection's write lock by sleeping the thread; on a server, the holder may be a
 * heal of the same process (one long transaction awaiting git in between), which then
 * cannot go on to release it — every request stalls until the busy timeout and the write
 * fails. Here the lock is tried without waiting and, while it is taken, tried again after
 * a pause on the event loop.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { EntryIndex } from "../../index/entry-index.js";

/** How long a write waits for the lock before it gives up, ms. */
export const WRITE_WAIT_MS = 30_000;

/** The pause between tries, ms. */
export const WRITE_POLL_MS = 5;

/**
 * Runs `write` in one write transaction of `index` (its `transaction` calls join it) once
 * the write lock is free: committed when it resolves, rolled back when `write` throws.
 *
 * @param index - the index.
 * @param write - synchronous work (a transaction must not span an await).
 * @param waitMs - the longest wait for the lock, ms. Default {@link WRITE_WAIT_MS}.
 * @returns what `write` returns.
 * @throws what `write` throws; an Error "the index stayed locked" after the wait.
 */
export async function writeWhenFree<T>(
  index: EntryIndex,
  write: () => T,
  waitMs: number = WRITE_WAIT_MS,
): Promise<T> {
  const until = Date.now() + waitMs;
  // A transaction of this same connection that awaits (a refresh) is waited out too.
  while (index.writing || !index.tryBeginWrite()) {
    if (Date.now() >= until) throw new Error("the index stayed locked by another writer");
    await sleep(WRITE_POLL_MS);
  }
  try {
    const result = write();
    index.commitWrite();
    return result;
  } catch (error) {
    index.rollbackWrite();
    throw error;
  }
}
