/**
 * The body limit of the REST API (seed 004 "Пределы"; README "Limits"): a request body is
 * read up to {@link MAX_API_BODY_BYTES} and no further, so that no token holder can make the
 * server hold a body of any size in memory.
 */
import type { MiddlewareHandler } from "hono";
import { requestTooLarge } from "../mcp/request-too-large.js";
import { readBoundedBody } from "./bounded-body.js";
import type { HttpEnv } from "./server-api.js";

/**
 * The largest request body of the REST API, bytes (1 MiB): room for the largest body a route
 * takes — a 64 KB draft or merge-request body even with every character JSON-escaped.
 */
export const MAX_API_BODY_BYTES = 1024 * 1024;

/** How much of a refused streamed body is read and dropped so the connection stays usable, bytes. */
const DISCARD_BYTES = 16 * 1024 * 1024;

/**
 * A middleware that refuses a body over `max` bytes with 413 `request_too_large` (thrown for
 * the error hook) as soon as it passes the limit; its rest is read and dropped, never kept
 * (a declared `Content-Length` over 16 MiB is refused before anything is read).
 * Unlike `hono/body-limit` it leaves the connection usable: a client still sending sees the
 * 413, and its next request on the same connection is answered, not reset.
 *
 * @param max - the limit, bytes. Default {@link MAX_API_BODY_BYTES}.
 * @throws LoreError `request_too_large` (data: `limit`, `size` when declared).
 */
export function apiBodyLimit(max = MAX_API_BODY_BYTES): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    if (c.req.raw.body === null) return next();
    const body = await readBoundedBody(c.req.raw, {
      max,
      refuseDeclaredAbove: DISCARD_BYTES,
      discardUpTo: DISCARD_BYTES,
    });
    if ("tooLarge" in body) throw requestTooLarge(max, body.size, "api");
    c.req.raw = new Request(c.req.raw, { body: body.bytes });
    return next();
  };
}
