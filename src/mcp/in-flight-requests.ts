/**
 * The requests `lore mcp` has read and not answered yet, so that the end of its input does
 * not drop their answers: a client that writes its requests and closes its end of the pipe
 * (`printf '…' | lore mcp`) still reads stdout, and gets every answer before the process
 * exits. Watches the messages through {@link MessageObserver} (`bounded-stdio-transport.ts`).
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { MessageObserver } from "./bounded-stdio-transport.js";

/** The longest `lore mcp` waits for unanswered requests after its input ended, ms. */
export const ANSWERS_AFTER_END_MS = 30_000;

/** Counts requests in flight; {@link InFlightRequests.settled} waits for none. */
export class InFlightRequests implements MessageObserver {
  /** Ids of requests read and not answered. */
  readonly #ids = new Set<string | number>();
  #waiters: (() => void)[] = [];

  /** A request (a message with a method and an id) is now in flight. */
  received(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) this.#ids.add(message.id);
  }

  /** An answer (a message with an id and no method) ends its request. */
  sent(message: JSONRPCMessage): void {
    if ("method" in message || !("id" in message) || message.id === undefined) return;
    this.#ids.delete(message.id);
    if (this.#ids.size === 0) for (const wake of this.#waiters.splice(0)) wake();
  }

  /** How many requests are unanswered. */
  get size(): number {
    return this.#ids.size;
  }

  /**
   * Resolves once every request read so far is answered, or after `capMs` (a handler that
   * never answers does not keep the process alive); never rejects.
   *
   * @param capMs - the longest wait, ms.
   */
  settled(capMs: number): Promise<void> {
    if (this.#ids.size === 0) return Promise.resolve();
    return new Promise((done) => {
      const timer = setTimeout(done, capMs);
      this.#waiters.push(() => {
        clearTimeout(timer);
        done();
      });
    });
  }
}

/** One observer that tells each of `observers` in turn. */
export function allObservers(...observers: MessageObserver[]): MessageObserver {
  return {
    received(message) {
      for (const o of observers) o.received(message);
    },
    sent(message) {
      for (const o of observers) o.sent(message);
    },
  };
}
