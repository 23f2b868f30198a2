/**
 * Checks every request passes before any route: the DNS-rebinding checks of the MCP
 * transport spec (Streamable HTTP: servers must validate `Origin`; on a loopback address the
 * `Host` must be a loopback name too), and no dot segment in the path (`..`, `%2e%2e`: the
 * URL parser would fold them away before routing, so they are judged on the raw path).
 */
import type { MiddlewareHandler } from "hono";
import { LoreError } from "../core/errors/lore-error.js";
import type { HttpEnv } from "./server-api.js";

const LOOPBACK_NAMES = new Set(["localhost", "::1", "[::1]"]);

/**
 * Whether a host name or address is loopback: `localhost` (any case), `::1`, or any IPv4
 * address of 127.0.0.0/8 — so binding `127.0.0.2` keeps the Host check, and `LOCALHOST`
 * passes it (host names are case-insensitive).
 *
 * @param host - a name or address, without a port.
 */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  return LOOPBACK_NAMES.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The Host header's name without the port (`[::1]:80` → `[::1]`). */
function hostName(host: string): string {
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : (host.split(":")[0] ?? "");
}

/**
 * Whether an `Origin` may reach the server. No `Origin` (a non-browser client) passes. On a
 * loopback address only loopback origins pass (`http://localhost:3000`, `http://127.0.0.1`,
 * `http://[::1]`); elsewhere only the server's own origin (the same host and port as
 * `Host`). `null` and anything that is not an http(s) URL are refused.
 */
function originAllowed(origin: string | undefined, host: string, loopbackOnly: boolean): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (loopbackOnly) return isLoopback(url.hostname);
  return url.host.toLowerCase() === host.toLowerCase();
}

function forbiddenText(en: string, ru: string): LoreError {
  return new LoreError("forbidden", { missing: en, missing_ru: ru }, { text: { en, ru } });
}

/**
 * The DNS-rebinding guard: on a server bound to a loopback address, a request whose `Host`
 * is not a loopback name gets 403 (`Forbidden: Host is not a loopback name`); a request
 * whose `Origin` is not allowed gets 403 (`Forbidden: Origin is not allowed`), on every path.
 *
 * @param loopbackOnly - the server listens on a loopback address.
 */
export function dnsRebindingGuard(loopbackOnly: boolean): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    // No Host header (HTTP/1.0, `app.request()`): the URL's host.
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    if (loopbackOnly && !isLoopback(hostName(host))) {
      throw forbiddenText(
        "Forbidden: Host is not a loopback name",
        "Запрещено: Host — не имя loopback",
      );
    }
    if (!originAllowed(c.req.header("origin"), host, loopbackOnly)) {
      throw forbiddenText("Forbidden: Origin is not allowed", "Запрещено: Origin не разрешён");
    }
    await next();
  };
}

/**
 * Whether a raw request path (as sent, before the URL parser folds it) holds a dot segment:
 * `.` or `..`, plain or percent-encoded (`%2e%2e`, `.%2E`), or a segment that decodes to a
 * path with one (`..%2f`).
 *
 * @param rawPath - the path of the request line, without the query.
 */
export function hasDotSegment(rawPath: string): boolean {
  for (const segment of rawPath.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      decoded = segment;
    }
    for (const part of decoded.split(/[/\\]/)) if (part === "." || part === "..") return true;
  }
  return false;
}

/**
 * Refuses a request whose raw path holds a dot segment (see {@link hasDotSegment}) with 400
 * `invalid_input`. The raw path is the request line's (`incoming.url` of `@hono/node-server`);
 * without one (`app.request()`), the parsed URL's.
 */
export function dotSegmentGuard(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const raw = c.env?.incoming?.url ?? new URL(c.req.url).pathname;
    const path = raw.split("?")[0] ?? "";
    if (hasDotSegment(path)) {
      throw new LoreError("invalid_input", {
        reason: "the path holds a “..” or “.” segment (also encoded as %2e)",
        reason_ru: "в пути есть сегмент «..» или «.» (в том числе в виде %2e)",
      });
    }
    await next();
  };
}
