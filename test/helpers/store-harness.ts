/**
 * How a store contract (server store, index store: scale-out, one store on two engines)
 * reaches one engine, and the per-case life of its stores: a fresh place before each case,
 * one store opened on it, more on demand (each another server), all closed and the place
 * dropped after the case.
 */
import { afterEach, beforeEach } from "vitest";

/** How a contract reaches one engine. */
export interface StoreHarness<T> {
  /** Makes a fresh, empty place for the next case (an index file, a schema). */
  fresh(): Promise<void>;
  /** Opens a store on the current place; each call a connection (pool) of its own. */
  open(): Promise<T>;
  /** Drops the current place (every store opened on it is closed by then). */
  dispose(): Promise<void>;
}

/** The stores of the running case. */
export interface CaseStores<T> {
  /** The case's first store (valid inside a case). */
  readonly store: T;
  /** Opens another store on the same place (another process, another server). */
  another(): Promise<T>;
}

/**
 * Registers the `beforeEach`/`afterEach` pair that gives every case of the enclosing
 * `describe` a fresh place and its stores; call it inside that `describe`.
 */
export function useCaseStores<T extends { close(): Promise<void> }>(
  harness: StoreHarness<T>,
): CaseStores<T> {
  let first: T | undefined;
  const others: T[] = [];
  beforeEach(async () => {
    await harness.fresh();
    first = await harness.open();
  });
  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await first?.close();
    first = undefined;
    await harness.dispose();
  });
  return {
    get store(): T {
      if (first === undefined) throw new Error("no store outside a case");
      return first;
    },
    async another(): Promise<T> {
      const other = await harness.open();
      others.push(other);
      return other;
    },
  };
}
