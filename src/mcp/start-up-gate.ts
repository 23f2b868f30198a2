/**
 * When `lore mcp` lets its start-up refresh begin (issue "What users hit first", cold
 * start): the refresh of an already indexed repository starts a few git processes one after
 * another, which on a small machine compete with the client's first answer — and that
 * answer comes from the existing index anyway (correct until the refresh commits). So the
 * refresh waits for whichever comes first:
 *
 * - the answer to the first `tools/call` has been written;
 * - the session has been idle for {@link StartUpGateOptions.idleMs} (no request in flight,
 *   no message read), counted from {@link StartUpGate.arm} — a client that connects and
 *   waits gets a fresh index soon;
 * - {@link StartUpGateOptions.capMs} after `arm`, however busy the session is.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { MessageObserver } from "./bounded-stdio-transport.js";

/** Options of {@link StartUpGate}. */
export interface StartUpGateOptions {
  /** Idle time that opens the gate, ms. Default 200. */
  idleMs?: number;
  /** Longest time from `arm` to the opening, ms. Default 1000. */
  capMs?: number;
}

/** Opens once (see the module header); watches the messages through {@link MessageObserver}. */
export class StartUpGate implements MessageObserver {
  /** Resolves when the gate opens; never rejects. */
  readonly opened: Promise<void>;
  readonly #idleMs: number;
  readonly #capMs: number;
  #open!: () => void;
  #isOpen = false;
  #armed = false;
  #idle: NodeJS.Timeout | undefined;
  #cap: NodeJS.Timeout | undefined;
  /** Requests read and not answered yet (id → method). */
  readonly #inFlight = new Map<string | number, string>();

  /** @param options - see {@link StartUpGateOptions}. */
  constructor(options: StartUpGateOptions = {}) {
    this.#idleMs = options.idleMs ?? 200;
    this.#capMs = options.capMs ?? 1000;
    this.opened = new Promise((done) => {
      this.#open = done;
    });
  }

  /** Starts the clocks (call once the server is connected). Idempotent. */
  arm(): void {
    if (this.#armed || this.#isOpen) return;
    this.#armed = true;
    this.#cap = setTimeout(() => this.open(), this.#capMs);
    this.#restartIdle();
  }

  /** Opens now (also stops the clocks); idempotent. */
  open(): void {
    if (this.#isOpen) return;
    this.#isOpen = true;
    this.#stopClocks();
    this.#open();
  }

  /** Stops the clocks without opening (shutdown): `opened` then never resolves. */
  close(): void {
    this.#isOpen = true;
    this.#stopClocks();
  }

  /** A message was read: a request is in flight until its answer is sent. */
  received(message: JSONRPCMessage): void {
    if (this.#isOpen) return;
    if ("method" in message && "id" in message) this.#inFlight.set(message.id, message.method);
    clearTimeout(this.#idle);
    this.#idle = undefined;
    if (this.#armed && this.#inFlight.size === 0) this.#restartIdle();
  }

  /** A message was written: the answer to the first `tools/call` opens the gate. */
  sent(message: JSONRPCMessage): void {
    if (this.#isOpen || !("id" in message) || "method" in message) return;
    if (message.id === undefined) return;
    const method = this.#inFlight.get(message.id);
    this.#inFlight.delete(message.id);
    if (method === "tools/call") {
      this.open();
      return;
    }
    if (this.#armed && this.#inFlight.size === 0) this.#restartIdle();
  }

  #restartIdle(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.open(), this.#idleMs);
  }

  #stopClocks(): void {
    clearTimeout(this.#idle);
    clearTimeout(this.#cap);
    this.#idle = undefined;
    this.#cap = undefined;
  }
}
