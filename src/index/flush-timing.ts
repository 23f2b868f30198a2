/**
 * When a queued write of the read path runs (usage counts, `counters.ts`; load receipts,
 * `receipt-rows.ts`): never in the middle of a burst of recalls when it can wait.
 *
 * A write of a quarter second's queue (≈ 100 receipts with 10 hits each) blocks the one
 * thread for 3–10 ms, and a recall arriving meanwhile waits for it: that was the tail of
 * recall over MCP (p99 ≈ 4× p50 with a call every 2–3 ms, the index build benchmark's
 * "recall over MCP"). So the write waits for a pause: {@link FLUSH_TIMING}`.delayMs` after
 * the first item is queued it runs if nothing was queued for `idleMs`; else it looks again
 * once that pause could have come, and runs anyway `maxWaitMs` after the first item (a
 * client that never pauses still has its counts written within seconds, and the queue
 * stays small).
 */

/** Timing of a queued write, ms (see the module header). */
export interface FlushTiming {
  /** The first look, after the first item is queued. */
  delayMs: number;
  /** The pause without a new item that lets the write run. */
  idleMs: number;
  /** The longest an item waits. */
  maxWaitMs: number;
}

/** The timing of the counters' and receipts' writes. */
export const FLUSH_TIMING: FlushTiming = { delayMs: 250, idleMs: 40, maxWaitMs: 2_000 };

/**
 * How long a queued write waits still: 0 = run it now.
 *
 * @param now - the current time, ms (a monotonic clock, e.g. `performance.now()`).
 * @param first - when the oldest queued item was queued, ms (same clock).
 * @param last - when the newest was queued, ms (same clock).
 * @param timing - see {@link FlushTiming}; default {@link FLUSH_TIMING}.
 * @returns ms to wait before looking again (> 0), or 0.
 */
export function flushWait(
  now: number,
  first: number,
  last: number,
  timing: FlushTiming = FLUSH_TIMING,
): number {
  const untilMax = first + timing.maxWaitMs - now;
  if (untilMax <= 0) return 0;
  const untilIdle = last + timing.idleMs - now;
  if (untilIdle <= 0) return 0;
  return Math.min(untilIdle, untilMax);
}
