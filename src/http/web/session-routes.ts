/**
 * The web view's sign-in (the team server's browser pages; seed 004 "Интерфейс": the same
 * token, the same rights as the API): `POST /web/api/session` with `{token}` opens a
 * session and sets the `lore_session` cookie, `GET /web/api/session` tells the page who is
 * signed in, `DELETE /web/api/session` signs out. The cookie's secret is never in a body;
 * the body carries the anti-forgery token the page sends back as `X-Lore-CSRF` on every
 * write (`http/auth.ts`).
 */
import type { Context, Hono } from "hono";
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { SignInLimit } from "../../core/web/sign-in-limit.js";
import type { WebSession } from "../../services/web/web-session.js";
import type { HttpEnv } from "../server-api.js";
import { fromOwnOrigin } from "./same-origin.js";
import { clearSessionCookie, setSessionCookie } from "./session-cookie.js";
import type { WebSessionsApi } from "./web-sessions-api.js";

/** The session's path. */
export const WEB_SESSION_PATH = "/web/api/session";

/** The body of `POST`/`GET /web/api/session`. */
export interface SessionView {
  user: string;
  site_admin: boolean;
  /** The token's scopes: what the session may do. */
  scopes: string[];
  /** The anti-forgery token to send as `X-Lore-CSRF` on every write. */
  csrf: string;
  /** When the session ends (ISO 8601). */
  expires_at: string;
}

function viewOf(session: WebSession): SessionView {
  return {
    user: session.principal.user,
    site_admin: session.principal.siteAdmin,
    scopes: [...session.principal.scopes],
    csrf: session.csrf,
    expires_at: new Date(session.expiresAt).toISOString(),
  };
}

function badBody(): LoreError {
  return new LoreError("invalid_input", {
    reason: 'send {"token": "lore_…"} as JSON',
    reason_ru: 'отправьте {"token": "lore_…"} как JSON',
  });
}

/** The token of a sign-in body: `{token}` and nothing else. */
async function tokenOfBody(c: Context<HttpEnv>): Promise<string> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw badBody();
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badBody();
  const extra = Object.keys(body).find((key) => key !== "token");
  if (extra !== undefined) {
    throw new LoreError(
      "unknown_field",
      { field: extra, hint: "", hint_ru: "" },
      { data: { field: extra } },
    );
  }
  const token = (body as { token?: unknown }).token;
  if (typeof token !== "string" || token.trim() === "") throw badBody();
  return token;
}

/** The client's address, for the sign-in limit. */
function addressOf(c: Context<HttpEnv>): string {
  return c.env?.incoming?.socket?.remoteAddress ?? "unknown";
}

/**
 * Registers the three session routes. `POST` runs without a token (it checks the one it
 * is given; from another site's page, 403 `csrf_failed`; a body that is not
 * `application/json`, 400 `invalid_input`); `GET` and `DELETE` run behind the auth middleware, which resolves the cookie
 * (401 `session_expired` for a dead one) and checks the anti-forgery token of `DELETE`.
 *
 * @param app - the application.
 * @param sessions - opens, resumes and closes sessions.
 * @param limit - the failed sign-ins per address (`SignInLimit`). Default: a new one of
 *   10 a minute.
 */
export function registerSessionRoutes(
  app: Hono<HttpEnv>,
  sessions: WebSessionsApi,
  limit: SignInLimit = new SignInLimit(),
): void {
  app.post(WEB_SESSION_PATH, async (c) => {
    const address = addressOf(c);
    const wait = limit.retryAfter(address, sessions.now());
    if (wait > 0) {
      throw new LoreError(
        "rate_limited",
        {
          route: `POST ${WEB_SESSION_PATH}`,
          route_ru: `POST ${WEB_SESSION_PATH}`,
          limit: limit.limit,
          retry_after: wait,
        },
        { data: { retry_after: wait, limit: limit.limit } },
      );
    }
    // No signing a browser in from another site (into the other site's account), and no
    // plain HTML form: a form cannot send application/json.
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    if (!fromOwnOrigin((name) => c.req.header(name), host)) throw new LoreError("csrf_failed");
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new LoreError("invalid_input", {
        reason: "send the body as JSON with Content-Type: application/json",
        reason_ru: "отправьте тело как JSON с Content-Type: application/json",
      });
    }
    const token = await tokenOfBody(c);
    let session: Awaited<ReturnType<WebSessionsApi["open"]>>;
    try {
      session = await sessions.open(token);
    } catch (error) {
      if (
        isLoreError(error) &&
        (error.code === "token_invalid" || error.code === "token_expired")
      ) {
        limit.fail(address, sessions.now());
      }
      throw error;
    }
    setSessionCookie(c, session.secret, session.expiresAt, sessions.now());
    c.header("Cache-Control", "no-store");
    return c.json(viewOf(session), 200);
  });
  app.get(WEB_SESSION_PATH, (c) => {
    const session = c.get("webSession");
    // A token, not a cookie: there is no session to show.
    if (session === undefined) throw new LoreError("token_required");
    c.header("Cache-Control", "no-store");
    return c.json(viewOf(session), 200);
  });
  app.delete(WEB_SESSION_PATH, async (c) => {
    const session = c.get("webSession");
    if (session === undefined) throw new LoreError("token_required");
    await sessions.close(session);
    clearSessionCookie(c);
    return c.body(null, 204);
  });
}
