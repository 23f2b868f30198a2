/**
 * API tokens of the team server (seed 004, "Интерфейс": «Токен нужен всегда»): random,
 * shown once, stored as a hash, optional expiry, scopes.
 *
 * A token is `lore_` + 43 characters of base64url (32 random bytes). The server keeps only
 * the SHA-256 of the whole token (hex), its first {@link TOKEN_PREFIX_LENGTH} characters to
 * tell tokens apart in lists, the scopes, a label and the times. A 256-bit random secret
 * needs no slow password hash: nobody can guess one from its SHA-256.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Scope } from "../../core/access/rights.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { ServerStore, TokenRecord, UserRecord } from "../../ports/server-store.js";
import { requireUser } from "./users.js";

/** What every token starts with (secret scanners can match it). */
export const TOKEN_PREFIX = "lore_";

/** The shape of a token: the prefix and 43 base64url characters (32 bytes). */
export const TOKEN_PATTERN = /^lore_[A-Za-z0-9_-]{43}$/;

/** How many leading characters of a token are kept to show in lists (`lore_AbC1234`). */
export const TOKEN_PREFIX_LENGTH = 12;

/** Longest label of a token, characters. */
export const TOKEN_LABEL_MAX = 200;

/**
 * The stored form of a token: SHA-256 of its UTF-8 text, lower-case hex (64 characters).
 *
 * @param secret - the whole token.
 */
export function hashToken(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** A new token: the secret (shown once, never stored) and its record. */
export interface CreatedToken {
  /** The token itself; print it once, it cannot be read back. */
  secret: string;
  token: TokenRecord;
  user: UserRecord;
}

/**
 * Creates a token for a user.
 *
 * @param store - the server's records.
 * @param request - the user's name, the scopes, the lifetime (ms; omitted = never expires),
 *   a label (`laptop`, `ci`), and `now` (ms since the epoch).
 * @param random - the random source (32 bytes asked); `crypto.randomBytes` by default.
 * @returns the secret and the stored record.
 * @throws LoreError `user_not_found`; `invalid_input` for no scopes or a label over
 *   {@link TOKEN_LABEL_MAX} characters or with control characters.
 */
export async function createToken(
  store: ServerStore,
  request: {
    user: string;
    scopes: readonly Scope[];
    expiresInMs?: number;
    label?: string;
    now: number;
  },
  random: (size: number) => Buffer = randomBytes,
): Promise<CreatedToken> {
  const label = request.label ?? "";
  if (label.length > TOKEN_LABEL_MAX || /\p{Cc}/u.test(label)) {
    throw new LoreError("invalid_input", {
      reason: `a token label is at most ${TOKEN_LABEL_MAX} characters on one line`,
      reason_ru: `метка токена — не больше ${TOKEN_LABEL_MAX} символов в одну строку`,
    });
  }
  if (request.scopes.length === 0) {
    throw new LoreError("invalid_input", {
      reason: "a token needs at least one scope",
      reason_ru: "токену нужно хотя бы одно право",
    });
  }
  const user = await requireUser(store, request.user);
  const secret = TOKEN_PREFIX + random(32).toString("base64url");
  const token = await store.addToken({
    userId: user.id,
    hash: hashToken(secret),
    prefix: secret.slice(0, TOKEN_PREFIX_LENGTH),
    scopes: request.scopes,
    label,
    createdAt: request.now,
    expiresAt: request.expiresInMs === undefined ? null : request.now + request.expiresInMs,
  });
  return { secret, token, user };
}

/** A token as `lore token list` shows it: its record (never the secret) and its user's name. */
export interface ListedToken extends TokenRecord {
  user: string;
}

/**
 * Lists tokens, of one user or of all.
 *
 * @param store - the server's records.
 * @param userName - only this user's tokens; omitted = every user's.
 * @throws LoreError `user_not_found` for an unknown user.
 */
export async function listTokens(store: ServerStore, userName?: string): Promise<ListedToken[]> {
  const users = new Map<number, string>();
  let tokens: TokenRecord[];
  if (userName !== undefined) {
    const user = await requireUser(store, userName);
    users.set(user.id, user.name);
    tokens = await store.listTokens(user.id);
  } else {
    for (const user of await store.listUsers()) users.set(user.id, user.name);
    tokens = await store.listTokens();
  }
  return tokens.map((token) => ({ ...token, user: users.get(token.userId) ?? "" }));
}

/**
 * Revokes (deletes) a token by id; it stops working at once.
 *
 * @throws LoreError `token_not_found`.
 */
export async function revokeToken(store: ServerStore, id: number): Promise<void> {
  if (!(await store.revokeToken(id))) throw new LoreError("token_not_found", { token: String(id) });
}
