/**
 * Sign-in sessions of the web view (the team server's browser pages, seed 004 "Интерфейс":
 * the same rights as the API, «Токен нужен всегда»): a Lore token is exchanged once for a
 * random cookie secret; the cookie then stands for the token — its user and its scopes —
 * until the session ends. Only the SHA-256 of the cookie's secret is stored (server store
 * migration 4, `web_sessions`), so a copy of the database opens no session.
 *
 * A session lasts {@link WEB_SESSION_LIFETIME_MS} (12 h) from sign-in, never beyond its
 * token's expiry; revoking the token (or removing its user) ends it at once (the store's
 * `ON DELETE CASCADE`). It is not extended by use: a browser left open signs in again
 * after 12 h.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Principal } from "../../core/access/rights.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { ServerStore, WebSessionRecord } from "../../ports/server-store.js";
import { authenticateToken, TOUCH_INTERVAL_MS } from "../access/authenticate.js";

/** The cookie's name. */
export const WEB_SESSION_COOKIE = "lore_session";

/** The header every cookie-authenticated write carries the session's anti-forgery token in. */
export const CSRF_HEADER = "X-Lore-CSRF";

/** How long a session lasts from sign-in, ms (12 h; never beyond the token's expiry). */
export const WEB_SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** A cookie secret as this module makes it: 32 random bytes, base64url (43 characters). */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** An open session: who, its anti-forgery token and when it ends. */
export interface WebSession {
  principal: Principal;
  /** The anti-forgery token (43 base64url characters). */
  csrf: string;
  /** When the session ends, ms since the epoch. */
  expiresAt: number;
  /** SHA-256 hex of the cookie's secret (the session's key in the store). */
  hash: string;
}

/** A session just opened, with the cookie's secret (shown to the browser once, never stored). */
export interface OpenedWebSession extends WebSession {
  secret: string;
}

/** SHA-256 hex of a cookie secret. */
export function hashSessionSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

function randomSecret(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Opens a session on a token: validates it exactly as a bearer token is validated
 * (`authenticateToken`: unknown, revoked, expired), then stores the hash of a new secret.
 *
 * @param store - the server's records.
 * @param token - the Lore token as the user pasted it (`lore_…`).
 * @param now - ms since the epoch.
 * @param lifetimeMs - the session's length, ms. Default {@link WEB_SESSION_LIFETIME_MS}.
 * @returns the session with its secret (for the cookie).
 * @throws LoreError `token_invalid`, `token_expired`.
 */
export async function openWebSession(
  store: ServerStore,
  token: string,
  now: number,
  lifetimeMs: number = WEB_SESSION_LIFETIME_MS,
): Promise<OpenedWebSession> {
  const principal = await authenticateToken(store, token.trim(), now);
  const record = (await store.listTokens(principal.userId)).find((t) => t.id === principal.tokenId);
  const tokenEnds = record?.expiresAt ?? null;
  const expiresAt = tokenEnds === null ? now + lifetimeMs : Math.min(now + lifetimeMs, tokenEnds);
  const secret = randomSecret();
  const session: WebSessionRecord = {
    hash: hashSessionSecret(secret),
    tokenId: principal.tokenId,
    csrf: randomSecret(),
    createdAt: now,
    expiresAt,
  };
  await store.addWebSession(session);
  return { principal, csrf: session.csrf, expiresAt, hash: session.hash, secret };
}

/**
 * The session of a cookie's secret, with the caller its token stands for (the token's user
 * and scopes as they are now).
 *
 * @param store - the server's records.
 * @param secret - the cookie's value.
 * @param now - ms since the epoch.
 * @throws LoreError `session_expired` when no live session has this secret (never was,
 *   ended, signed out, its token revoked or its user removed: one answer for all).
 */
export async function resumeWebSession(
  store: ServerStore,
  secret: string,
  now: number,
): Promise<WebSession> {
  if (!SECRET_PATTERN.test(secret)) throw new LoreError("session_expired");
  const hash = hashSessionSecret(secret);
  const session = await store.findWebSession(hash, now);
  if (session === undefined) throw new LoreError("session_expired");
  // The store finds tokens by hash only; a server has tens of tokens, not millions.
  const token = (await store.listTokens()).find((t) => t.id === session.tokenId);
  const user = token === undefined ? undefined : await store.getUserById(token.userId);
  if (token === undefined || user === undefined) throw new LoreError("session_expired");
  if (token.expiresAt !== null && now >= token.expiresAt) throw new LoreError("session_expired");
  if (token.lastUsedAt === null || now - token.lastUsedAt >= TOUCH_INTERVAL_MS) {
    await store.touchToken(token.id, now);
  }
  return {
    principal: {
      userId: user.id,
      user: user.name,
      siteAdmin: user.siteAdmin,
      scopes: token.scopes,
      tokenId: token.id,
    },
    csrf: session.csrf,
    expiresAt: session.expiresAt,
    hash,
  };
}

/**
 * Ends a session (sign-out).
 *
 * @param store - the server's records.
 * @param session - the session (its hash).
 * @param now - ms since the epoch (expired sessions are dropped with it).
 */
export async function closeWebSession(
  store: ServerStore,
  session: Pick<WebSession, "hash">,
  now: number,
): Promise<void> {
  await store.removeWebSession(session.hash, now);
}

/**
 * Whether a sent anti-forgery token is the session's, in time independent of where they
 * differ (both are hashed first, so their lengths agree).
 *
 * @param sent - the header's value, or `undefined` when absent.
 * @param expected - the session's `csrf`.
 */
export function csrfMatches(sent: string | undefined, expected: string): boolean {
  if (sent === undefined || sent === "") return false;
  const a = createHash("sha256").update(sent, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}
