/**
 * Reading a request body no further than a limit (README "Limits": the REST API's 1 MiB, the
 * MCP route's 4 MiB): no token holder can make the server hold a body of any size in memory.
 * The one reader of both routes.
 */

/** A body read within the limit, or how far it went over (`size`: when it was declared). */
export type BoundedBody = { bytes: Buffer } | { tooLarge: true; size?: number };

/** What {@link readBoundedBody} does with a body over the limit. */
export interface BoundedBodyOptions {
  /** The largest body kept, bytes. */
  max: number;
  /**
   * A declared `Content-Length` above this is refused before anything is read. Default
   * `max`: a body declared larger than the limit is never read.
   */
  refuseDeclaredAbove?: number;
  /**
   * Bytes of a refused body read and dropped so the connection stays usable for the
   * client's next request (a longer one is cut when the server closes the connection).
   * Default 0: the rest is left unread (`@hono/node-server` drains it after the answer).
   */
  discardUpTo?: number;
}

/**
 * Reads a request's body up to `options.max` bytes, never holding more: past the limit the
 * chunks read are dropped and the rest is drained up to `options.discardUpTo` bytes, then
 * left.
 *
 * @param request - the request (its body stream is consumed).
 * @param options - see {@link BoundedBodyOptions}.
 * @returns the body's bytes (empty for a request without one), or `tooLarge`.
 */
export async function readBoundedBody(
  request: Request,
  options: BoundedBodyOptions,
): Promise<BoundedBody> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  const size = Number.isFinite(declared) ? { size: declared } : {};
  if (Number.isFinite(declared) && declared > (options.refuseDeclaredAbove ?? options.max)) {
    return { tooLarge: true, ...size };
  }
  const stream = request.body;
  if (stream === null) return { bytes: Buffer.alloc(0) };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > options.max) {
      chunks.length = 0;
      await discardRest(reader, bytes, options.discardUpTo ?? 0);
      return { tooLarge: true, ...size };
    }
    chunks.push(value);
  }
  return { bytes: Buffer.concat(chunks) };
}

/** Reads and drops the rest of a refused body (nothing is kept) up to `limit` bytes in all. */
async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  read: number,
  limit: number,
): Promise<void> {
  let bytes = read;
  while (bytes < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
  }
  reader.releaseLock();
}
