/**
 * The web view's session cookie on the wire: `lore_session=<secret>; HttpOnly;
 * SameSite=Strict; Path=/` with `Max-Age` to the session's end, plus `Secure` when the
 * browser reached the server over https — the request's own URL is https, or a reverse
 * proxy in front says so with `X-Forwarded-Proto: https`. That header is believed from
 * anyone: it can only ADD `Secure`, which makes the cookie stricter, never weaker (a client
 * that lies about it just gets a cookie its plain-http browser will not send back).
 */
import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { WEB_SESSION_COOKIE } from "../../services/web/web-session.js";

/** Whether the browser reached the server over https (see the module header). */
export function reachedOverHttps(c: Context): boolean {
  if (new URL(c.req.url).protocol === "https:") return true;
  const forwarded = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https";
}

/**
 * Sets the session cookie on the answer.
 *
 * @param c - the request's context.
 * @param secret - the session's cookie secret.
 * @param expiresAt - when the session ends, ms since the epoch.
 * @param now - ms since the epoch.
 */
export function setSessionCookie(c: Context, secret: string, expiresAt: number, now: number): void {
  setCookie(c, WEB_SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: "Strict",
    path: "/",
    secure: reachedOverHttps(c),
    maxAge: Math.max(0, Math.floor((expiresAt - now) / 1000)),
  });
}

/**
 * The `Set-Cookie` value that clears the session cookie, for an answer made outside the
 * context (a refusal).
 */
export function clearedSessionCookie(c: Context): string {
  const secure = reachedOverHttps(c) ? "; Secure" : "";
  return `${WEB_SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict${secure}`;
}

/** Clears the session cookie on the answer (sign-out). */
export function clearSessionCookie(c: Context): void {
  deleteCookie(c, WEB_SESSION_COOKIE, {
    httpOnly: true,
    sameSite: "Strict",
    path: "/",
    secure: reachedOverHttps(c),
  });
}
