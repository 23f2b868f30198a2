/**
 * The auth middleware of the team server (seed 004 "Интерфейс": «Токен нужен всегда, в том
 * числе на публичном репозитории»): every route but `GET /healthz` needs a token, sent as
 * `Authorization: Bearer <token>`, or — for git clients — as the password of HTTP Basic
 * (any user name). A token in the URL is refused (URLs end up in logs). The web view's
 * session cookie stands for a token on the REST API only (see {@link requireToken}).
 */
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { isLoreError, LoreError } from "../core/errors/lore-error.js";
import { TOKEN_PREFIX } from "../services/access/tokens.js";
import {
  CSRF_HEADER,
  csrfMatches,
  WEB_SESSION_COOKIE,
  type WebSession,
} from "../services/web/web-session.js";
import { refusal } from "./error-hook.js";
import { queryHoldsToken } from "./git/git-credentials.js";
import type { HttpEnv, ServerApi } from "./server-api.js";
import { fromOwnOrigin } from "./web/same-origin.js";
import { clearedSessionCookie } from "./web/session-cookie.js";

/**
 * The token secret of an `Authorization` header.
 *
 * @param header - the header's value.
 * @returns the secret, or `undefined` when there is no header.
 * @throws LoreError `token_required` for a scheme other than Bearer or Basic, or an empty
 *   Bearer; `invalid_input` for Basic credentials that are not base64 of `user:password`;
 *   `token_required` for Basic with an empty password.
 */
export function tokenOf(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  const match = /^\s*(\S+)\s*(.*)$/.exec(header);
  const scheme = match?.[1]?.toLowerCase();
  const rest = (match?.[2] ?? "").trim();
  if (scheme === "bearer") {
    if (rest === "") throw new LoreError("token_required");
    return rest;
  }
  if (scheme === "basic") {
    const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(rest)
      ? Buffer.from(rest, "base64").toString("utf8")
      : undefined;
    const colon = decoded?.indexOf(":") ?? -1;
    if (decoded === undefined || colon < 0) {
      throw new LoreError("invalid_input", {
        reason: "the Basic credentials are not base64 of user:password",
        reason_ru: "данные Basic — не base64 от пользователь:пароль",
      });
    }
    const password = decoded.slice(colon + 1);
    if (password === "") throw new LoreError("token_required");
    return password;
  }
  throw new LoreError("token_required");
}

/**
 * Whether the web view's session cookie may authenticate a request to this path: the REST
 * API (`/api/v1/…`) and the web view's own API (`/web/api/…`). Never `/mcp` nor git smart
 * HTTP: agents and git clients send a token, and a cookie a browser adds on its own must
 * not reach a transport that has no anti-forgery check.
 */
export function cookieAccepted(path: string): boolean {
  return path === "/api/v1" || path.startsWith("/api/v1/") || path.startsWith("/web/api/");
}

/**
 * The paths served without a token: `GET /healthz`, the web view's static pages (`/`,
 * `/index.html`, `/assets/…`: they hold no data, the data comes from the API), and the
 * sign-in itself (`POST /web/api/session` checks the token it is given).
 */
function open(method: string, path: string): boolean {
  const read = method === "GET" || method === "HEAD";
  if (read && (path === "/healthz" || path === "/" || path === "/index.html")) return true;
  // One segment: `/assets/x.git/…` is a hosted repository's git (owner `assets`), with a token.
  if (read && /^\/assets\/[^/]+$/.test(path)) return true;
  return method === "POST" && path === "/web/api/session";
}

/** Methods that change nothing: no anti-forgery token asked of them. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The refusals of a cookie-authenticated write that may be forged by another site: an
 * `Origin` other than the server's own (the Host's), a `Sec-Fetch-Site` other than
 * `same-origin`/`none`, or an `X-Lore-CSRF` header missing or other than the session's.
 */
function checkForgery(
  header: (name: string) => string | undefined,
  host: string,
  session: WebSession,
): void {
  if (!fromOwnOrigin(header, host)) throw new LoreError("csrf_failed");
  if (!csrfMatches(header(CSRF_HEADER.toLowerCase()), session.csrf)) {
    throw new LoreError("csrf_failed");
  }
}

/**
 * The middleware: refuses a token in the URL (`?token=`, `?access_token=`, `?private_token=`
 * …, or any value that starts like a Lore token: 400 `token_in_url`, before anything else),
 * no token (401 `token_required`), an unknown or revoked one (401 `token_invalid`), an
 * expired one (401 `token_expired`); sets the `principal` variable otherwise. `GET`/`HEAD
 * /healthz`, the web view's static pages and its sign-in pass without a token.
 *
 * Without an `Authorization` header, on the paths of {@link cookieAccepted}, the web view's
 * `lore_session` cookie stands for the token it was opened with (same user, same scopes):
 * a dead one is 401 `session_expired` (and the cookie is cleared); every write it
 * authenticates (a method other than GET/HEAD/OPTIONS) must carry the session's
 * `X-Lore-CSRF` and come from the server's own origin, else 403 `csrf_failed`. A request
 * with a token needs none of that (no browser adds a token on its own). Sets `webSession`
 * for a cookie-authenticated request.
 *
 * @param api - authenticates secrets and sessions.
 */
export function requireToken(
  api: Pick<ServerApi, "authenticate" | "sessions">,
): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    if (queryHoldsToken(new URL(c.req.url).searchParams, TOKEN_PREFIX)) {
      throw new LoreError("token_in_url");
    }
    c.set("webSession", undefined);
    if (open(c.req.method, c.req.path)) {
      await next();
      return;
    }
    const secret = tokenOf(c.req.header("authorization"));
    if (secret !== undefined) {
      c.set("principal", await api.authenticate(secret));
      await next();
      return;
    }
    const cookie = cookieAccepted(c.req.path) ? getCookie(c, WEB_SESSION_COOKIE) : undefined;
    if (cookie === undefined) throw new LoreError("token_required");
    let session: WebSession;
    try {
      session = await api.sessions.resume(cookie);
    } catch (error) {
      if (!isLoreError(error) || error.code !== "session_expired") throw error;
      // The browser drops a dead cookie, so it stops sending it.
      const answer = refusal(c, error);
      answer.headers.append("set-cookie", clearedSessionCookie(c));
      return answer;
    }
    if (!SAFE_METHODS.has(c.req.method)) {
      const host = c.req.header("host") ?? new URL(c.req.url).host;
      checkForgery((name) => c.req.header(name), host, session);
    }
    c.set("principal", session.principal);
    c.set("webSession", session);
    await next();
  };
}
