/**
 * Who is calling (seed 004, "Интерфейс": «Токен нужен всегда, в том числе на публичном
 * репозитории»): a token's secret → the {@link Principal} the rights are decided for.
 */
import type { Principal } from "../../core/access/rights.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { ServerStore } from "../../ports/server-store.js";
import { hashToken, TOKEN_PATTERN } from "./tokens.js";

/**
 * How stale a token's `last used` may get before a use writes it again, ms. Writing the
 * database on every request would make each read a write; a minute is as precise as
 * `lore token list` needs.
 */
export const TOUCH_INTERVAL_MS = 60_000;

/**
 * Authenticates a token.
 *
 * @param store - the server's records.
 * @param secret - the token as sent (`lore_…`).
 * @param now - ms since the epoch.
 * @returns the token's user and scopes.
 * @throws LoreError `token_invalid` for a malformed, unknown or revoked token (one message
 *   for all three: nothing tells a revoked token from a made-up one); `token_expired` with
 *   `expired_at` (ISO 8601) in the message and in `data`.
 */
export async function authenticateToken(
  store: ServerStore,
  secret: string,
  now: number,
): Promise<Principal> {
  if (!TOKEN_PATTERN.test(secret)) throw new LoreError("token_invalid");
  const token = await store.findTokenByHash(hashToken(secret));
  if (token === undefined) throw new LoreError("token_invalid");
  if (token.expiresAt !== null && now >= token.expiresAt) {
    const expiredAt = new Date(token.expiresAt).toISOString();
    throw new LoreError(
      "token_expired",
      { expired_at: expiredAt },
      { data: { expired_at: expiredAt } },
    );
  }
  const user = await store.getUserById(token.userId);
  // Deleting a user deletes their tokens; a token without one is a race with that delete.
  if (user === undefined) throw new LoreError("token_invalid");
  if (token.lastUsedAt === null || now - token.lastUsedAt >= TOUCH_INTERVAL_MS) {
    await store.touchToken(token.id, now);
  }
  return {
    userId: user.id,
    user: user.name,
    siteAdmin: user.siteAdmin,
    scopes: token.scopes,
    tokenId: token.id,
  };
}
