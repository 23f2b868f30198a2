import type { Readable, Writable } from "node:stream";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Lang } from "../core/errors/localized-text.js";
import { JsonRpcIdScanner } from "./json-rpc-id-scanner.js";
import {
  MAX_MCP_MESSAGE_BYTES,
  requestTooLarge,
  requestTooLargeResponse,
} from "./request-too-large.js";

/** Options of {@link BoundedStdioServerTransport}. */
export interface BoundedStdioOptions {
  /** The longest line read, in bytes without its newline. Default {@link MAX_MCP_MESSAGE_BYTES}. */
  maxMessageBytes?: number;
  /** The language of the refusal and of the log line. Default `en`. */
  lang?: Lang;
  /** Logs one line (to stderr) per refused message. Default: none. */
  log?: (line: string) => void;
  /**
   * Sees each message read (before the server gets it) and each message sent (once stdout
   * took it); `lore mcp` times its start-up refresh by them (`mcp/start-up-gate.ts`).
   */
  observer?: MessageObserver;
}

/** What {@link BoundedStdioOptions.observer} is told; it must not throw. */
export interface MessageObserver {
  received(message: JSONRPCMessage): void;
  sent(message: JSONRPCMessage): void;
}

const NEWLINE = 0x0a;

/**
 * The MCP stdio server transport (newline-delimited JSON-RPC on stdin/stdout, as the SDK's
 * `StdioServerTransport`) with a bounded read: a line over `maxMessageBytes` is refused,
 * not fatal. The SDK's transport closes the whole session when its 10 MiB buffer
 * overflows — `lore mcp` then ended with no word on stderr; here the line is discarded
 * byte by byte up to its newline (never buffered: memory stays at the limit however long
 * the line), answered with the JSON-RPC error of `request_too_large` carrying the
 * request's id when it can be read (else null), logged as one line, and the next message
 * is read as usual.
 *
 * Lines that are not JSON-RPC are reported to `onerror`, as the SDK does.
 */
export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly max: number;
  private readonly lang: Lang;
  private readonly log: (line: string) => void;
  private readonly observer: MessageObserver | undefined;
  /** The pieces of the line being read while it is within the limit. */
  private pieces: Buffer[] = [];
  private bytes = 0;
  /** Resolves at the next `drain` of stdout while a write waits on a full pipe. */
  private drained: Promise<void> | undefined;
  /** Set while an over-limit line is being discarded: finds its id as it passes. */
  private discarding: JsonRpcIdScanner | undefined;
  private started = false;

  /**
   * @param stdin - where messages come from (default `process.stdin`).
   * @param stdout - where answers go (default `process.stdout`).
   * @param options - see {@link BoundedStdioOptions}.
   */
  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    options: BoundedStdioOptions = {},
  ) {
    this.max = options.maxMessageBytes ?? MAX_MCP_MESSAGE_BYTES;
    this.lang = options.lang ?? "en";
    this.log = options.log ?? (() => {});
    this.observer = options.observer;
  }

  /** Starts reading stdin. @throws Error when started twice. */
  async start(): Promise<void> {
    if (this.started) throw new Error("BoundedStdioServerTransport already started");
    this.started = true;
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStreamError);
  }

  /** Writes one message as a line; resolves once stdout took it (after `drain` if full). */
  async send(message: JSONRPCMessage): Promise<void> {
    await this.writeLine(serializeMessage(message));
    this.observer?.sent(message);
  }

  /** Stops reading (pauses stdin when no one else reads it) and calls `onclose`. */
  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStreamError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.pieces = [];
    this.bytes = 0;
    this.discarding = undefined;
    this.onclose?.();
  }

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    while (start <= data.length) {
      const newline = data.indexOf(NEWLINE, start);
      const end = newline === -1 ? data.length : newline;
      if (end > start) this.take(data.subarray(start, end));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  };

  /** A piece of the current line: kept while the line is within the limit, else scanned. */
  private take(piece: Buffer): void {
    if (this.discarding === undefined && this.bytes + piece.length <= this.max) {
      this.pieces.push(piece);
      this.bytes += piece.length;
      return;
    }
    if (this.discarding === undefined) {
      this.discarding = new JsonRpcIdScanner();
      for (const kept of this.pieces) this.discarding.feed(kept);
      this.pieces = [];
    }
    this.discarding.feed(piece);
    this.bytes += piece.length;
  }

  /** The current line ended (a newline came): refuse it or hand its message on. */
  private endLine(): void {
    const scanner = this.discarding;
    const size = this.bytes;
    const pieces = this.pieces;
    this.pieces = [];
    this.bytes = 0;
    this.discarding = undefined;
    if (scanner !== undefined) {
      this.refuse(scanner.id(), size);
      return;
    }
    const line = Buffer.concat(pieces, size).toString("utf8").replace(/\r$/, "");
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.observer?.received(message);
    this.onmessage?.(message);
  }

  private refuse(id: string | number | null, size: number): void {
    const refusal = requestTooLarge(this.max, size);
    const shownId = id === null ? "" : `, id ${JSON.stringify(id)}`;
    this.log(`lore: ${refusal.text[this.lang]} (request_too_large${shownId})`);
    // `id` may be null (JSON-RPC 2.0 §5), which the SDK's message type does not allow.
    const response = requestTooLargeResponse(refusal, id, this.lang);
    this.writeLine(`${JSON.stringify(response)}\n`).catch((error: unknown) => {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
  }

  private writeLine(line: string): Promise<void> {
    if (this.stdout.write(line)) return Promise.resolve();
    // One drain listener however many answers wait on a full pipe (one each would pass
    // the emitter's listener limit and warn).
    this.drained ??= new Promise<void>((resolve) => {
      this.stdout.once("drain", () => {
        this.drained = undefined;
        resolve();
      });
    });
    return this.drained;
  }
}
