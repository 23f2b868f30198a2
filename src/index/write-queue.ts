/**
 * The in-memory queue of a write that runs after the answer (usage counts: `counters.ts` on
 * SQLite, `index-store/pg-counter-store.ts` on PostgreSQL): items wait in memory and the
 * write is called when they are due by {@link flushWait} — {@link FLUSH_TIMING}`.delayMs`
 * after the first, at the next pause of the recalls if they keep coming, within
 * `maxWaitMs`. The queue does not write: its owner takes the items and writes them, and
 * puts them back when the write fails. One engine-neutral piece, so that the buffering and
 * its timing are the same on both engines.
 */
import { FLUSH_TIMING, flushWait } from "./flush-timing.js";

/** What a {@link WriteQueue} is made with. */
export interface WriteQueueOptions {
  /** Most items kept; later ones are dropped while it is full (e.g. writes keep failing). */
  max: number;
  /** Called (from a timer) when the items are due; it takes them and writes them. */
  onDue: () => void;
  /** The first look after the first item is queued, ms. Default {@link FLUSH_TIMING}`.delayMs`. */
  delayMs?: number;
}

/** Items waiting for one timed write (see the module header). */
export class WriteQueue<T> {
  readonly #max: number;
  readonly #onDue: () => void;
  readonly #delayMs: number;
  #items: T[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest and the newest queued item were queued (`performance.now()`, ms). */
  #firstAt = 0;
  #lastAt = 0;

  /** @param options - see {@link WriteQueueOptions}. */
  constructor(options: WriteQueueOptions) {
    this.#max = options.max;
    this.#onDue = options.onDue;
    this.#delayMs = options.delayMs ?? FLUSH_TIMING.delayMs;
  }

  /** The number of queued items. */
  get length(): number {
    return this.#items.length;
  }

  /**
   * Queues one item and arms the timer.
   *
   * @returns false when the queue is full (the item is dropped).
   */
  push(item: T): boolean {
    if (this.#items.length >= this.#max) return false;
    const now = performance.now();
    if (this.#items.length === 0) this.#firstAt = now;
    this.#lastAt = now;
    this.#items.push(item);
    this.arm();
    return true;
  }

  /** Takes every queued item, oldest first, and disarms the timer. */
  take(): T[] {
    this.cancel();
    const items = this.#items;
    this.#items = [];
    return items;
  }

  /**
   * Puts back items a failed write took: before the ones queued since, the whole cut to
   * the queue's `max`; arms the timer when any are left, so they are tried again.
   *
   * @param items - what {@link take} answered.
   */
  restore(items: readonly T[]): void {
    if (items.length === 0) return;
    this.#items = items.concat(this.#items).slice(0, this.#max);
    if (this.#items.length > 0) this.arm();
  }

  /**
   * Arms the timer unless it is armed: `onDue` is called `delayMs` later, or later still
   * while the items keep coming (see {@link flushWait}). The timer never keeps the process
   * alive (its owner writes the queue on close).
   *
   * @param delayMs - the wait, ms; default the queue's `delayMs`.
   */
  arm(delayMs: number = this.#delayMs): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // Not in the middle of a burst of recalls (see `flush-timing.ts`).
      const wait = flushWait(performance.now(), this.#firstAt, this.#lastAt);
      if (wait > 0 && this.#items.length > 0) {
        this.arm(wait);
        return;
      }
      this.#onDue();
    }, delayMs);
    this.#timer.unref();
  }

  /** Disarms the timer (the items stay). */
  cancel(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }
}
