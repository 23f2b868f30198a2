/**
 * Young-generation garbage collection while `lore mcp` is idle, so that it seldom falls
 * inside a request.
 *
 * A recall allocates a few hundred KB (the SDK's validation and the answer serialised twice,
 * the query's analysis, the rows read); V8 collects the young generation (a scavenge, 1–2.5
 * ms with a request's objects alive) whenever it fills, which is every dozen or so calls —
 * the calls that make the tail of recall over MCP (README "Benchmark": p99 within 3× p50). Once every request read has been answered and nothing else waits, a
 * young generation more than {@link IDLE_SCAVENGE_FILL} full is collected at once: with no
 * request alive it holds little that survives, so the collection is short, and the next
 * requests start with room. Agents call seconds apart, so this runs in time nobody waits on.
 *
 * The collector is reached through `--expose-gc`, set at run time (V8 allows it before the
 * first use of `gc`); where that fails the observer does nothing.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { MessageObserver } from "./bounded-stdio-transport.js";

/** How full (0–1) the young generation must be for an idle collection. */
export const IDLE_SCAVENGE_FILL = 0.25;

/** V8's `gc` as `--expose-gc` defines it. */
type GcFunction = (options?: { type?: "minor" | "major"; execution?: "sync" | "async" }) => void;

/** V8's collector function, or `undefined` when it cannot be exposed here. */
function exposedGc(): GcFunction | undefined {
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === "function") return existing as GcFunction;
  try {
    setFlagsFromString("--expose-gc");
    // A fresh context defines `gc` once the flag is on; this one's global never will.
    const gc = runInNewContext("gc") as unknown;
    return typeof gc === "function" ? (gc as GcFunction) : undefined;
  } catch {
    return undefined;
  }
}

/** How full the young generation is, 0–1 (the semi-space objects are allocated in). */
export function youngGenerationFill(): number {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  if (space === undefined) return 0;
  const capacity = space.space_used_size + space.space_available_size;
  return capacity === 0 ? 0 : space.space_used_size / capacity;
}

/**
 * Watches the answers of `lore mcp` (a {@link MessageObserver}) and, after the last answer
 * of a burst, collects the young generation when it is over {@link IDLE_SCAVENGE_FILL} full.
 */
export class IdleScavenge implements MessageObserver {
  readonly #gc: GcFunction | null;
  readonly #busy: () => boolean;
  #scheduled = false;
  /** Idle collections made (for tests and the bench). */
  collections = 0;

  /**
   * @param busy - whether any request read is still unanswered (`InFlightRequests.size > 0`).
   * @param gc - the collector (default: V8's, exposed at run time); `null` = none.
   */
  constructor(busy: () => boolean, gc: GcFunction | null = exposedGc() ?? null) {
    this.#busy = busy;
    this.#gc = gc;
  }

  received(_message: JSONRPCMessage): void {}

  sent(message: JSONRPCMessage): void {
    if (this.#gc === null || this.#scheduled || "method" in message) return;
    this.#scheduled = true;
    // After the answer's write and whatever I/O is already queued: a request that arrived
    // meanwhile is read first, and then the process is not idle.
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#busy() || youngGenerationFill() < IDLE_SCAVENGE_FILL) return;
      this.#gc?.({ type: "minor" });
      this.collections++;
    });
  }
}
