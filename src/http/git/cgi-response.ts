import type { Readable } from "node:stream";

/** The header block of a CGI program's output (RFC 3875 §6): status and headers. */
export interface CgiHead {
  /** From `Status: 404 Not Found`; 200 when the program sent none. */
  status: number;
  /** The other headers, in order, names as sent (hop-by-hop ones and `Content-Length` left out). */
  headers: [string, string][];
}

/** Longest CGI header block accepted, bytes; longer output is not a CGI answer. */
export const MAX_CGI_HEAD_BYTES = 64 * 1024;

const DROPPED = new Set([
  "status",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
]);

/**
 * Parses a CGI header block (without the blank line that ends it). Lines end in CRLF or LF.
 *
 * @param block - the bytes before the blank line, as latin1 text.
 * @returns the status and headers; a line without `:` is skipped.
 */
export function parseCgiHead(block: string): CgiHead {
  let status = 200;
  const headers: [string, string][] = [];
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === "status") {
      const code = Number.parseInt(value, 10);
      if (code >= 100 && code <= 599) status = code;
    }
    if (DROPPED.has(name.toLowerCase()) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) continue;
    headers.push([name, value]);
  }
  return { status, headers };
}

/** Finds the end of the header block: the offset of the blank line and its length. */
function headEnd(buffer: Buffer): { at: number; length: number } | undefined {
  const crlf = buffer.indexOf("\r\n\r\n");
  const lf = buffer.indexOf("\n\n");
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { at: crlf, length: 4 };
  if (lf >= 0) return { at: lf, length: 2 };
  return undefined;
}

/**
 * Reads the CGI header block from a program's stdout and leaves the stream paused at the
 * first byte of the body (the rest of the chunk is put back with `unshift`), so the body
 * can then be streamed without ever being held whole.
 *
 * @param stdout - the program's stdout.
 * @returns the parsed head.
 * @throws Error when the stream ends, fails or passes {@link MAX_CGI_HEAD_BYTES} before
 *   the blank line.
 */
export function readCgiHead(stdout: Readable): Promise<CgiHead> {
  return new Promise((resolve, reject) => {
    let seen: Buffer = Buffer.alloc(0);
    const cleanup = (): void => {
      stdout.off("data", onData);
      stdout.off("end", onEnd);
      stdout.off("error", onError);
    };
    const onData = (chunk: Buffer): void => {
      seen = seen.length === 0 ? chunk : Buffer.concat([seen, chunk]);
      const end = headEnd(seen);
      if (end === undefined) {
        if (seen.length > MAX_CGI_HEAD_BYTES) {
          cleanup();
          reject(new Error("the CGI header block is too long"));
        }
        return;
      }
      cleanup();
      stdout.pause();
      const rest = seen.subarray(end.at + end.length);
      if (rest.length > 0) stdout.unshift(rest);
      resolve(parseCgiHead(seen.subarray(0, end.at).toString("latin1")));
    };
    const onEnd = (): void => {
      cleanup();
      reject(new Error("the CGI program ended before its header block"));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    stdout.on("data", onData);
    stdout.on("end", onEnd);
    stdout.on("error", onError);
  });
}

/**
 * A web stream over a Node stream that keeps back-pressure: the Node stream is paused
 * while the web stream's queue (a few chunks) is full, so a slow client holds git back
 * instead of piling its output up in memory.
 *
 * @param source - a paused or flowing Node readable (bytes).
 * @param onCancel - called when the reader cancels (the client went away).
 * @param cleanEnd - asked when the source ends: `true` closes the stream; `false` fails it
 *   (the program was killed), so the client sees a cut transfer; `"cut"` leaves it as it is:
 *   the caller has cut the connection itself, and the reader's cancel follows. Default:
 *   always clean.
 */
export function toWebStream(
  source: Readable,
  onCancel: () => void,
  cleanEnd: () => Promise<boolean | "cut"> = () => Promise.resolve(true),
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true;
        const finish = (how: () => void): void => {
          if (!open) return;
          open = false;
          try {
            how();
          } catch {
            // already cancelled by the reader
          }
        };
        source.on("data", (chunk: Buffer) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once("end", () => {
          cleanEnd().then(
            (clean) => {
              if (clean === "cut") return;
              finish(() =>
                clean
                  ? controller.close()
                  : controller.error(new Error("git was stopped at the time limit")),
              );
            },
            (error: unknown) => finish(() => controller.error(error)),
          );
        });
        source.once("error", (error) => finish(() => controller.error(error)));
        // Closed without an end (the process was killed): fail the answer, so the client
        // sees a cut transfer rather than a complete one.
        source.once("close", () => {
          if (!source.readableEnded) {
            finish(() => controller.error(new Error("git output closed before its end")));
          }
        });
        source.pause();
      },
      pull() {
        source.resume();
      },
      cancel() {
        source.destroy();
        onCancel();
      },
    },
    new CountQueuingStrategy({ highWaterMark: 4 }),
  );
}
