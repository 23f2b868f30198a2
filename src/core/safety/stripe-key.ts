import type { SecretSpan } from "./high-entropy-assignment.js";

/**
 * Lore's own rule `lore/stripe-key`: a Stripe live secret or restricted key
 * (`sk_live_…`, `rk_live_…` followed by 24 or more letters and digits, the shape Stripe
 * documents at https://docs.stripe.com/keys). secretlint's recommended preset 12.0.0 has
 * no Stripe rule; test-mode keys (`sk_test_…`) are meant to be shared and are not flagged,
 * nor are publishable keys (`pk_live_…`, public by design).
 */
export const STRIPE_KEY_RULE = "lore/stripe-key";

const STRIPE_LIVE = /(?<![A-Za-z0-9_])(?:sk|rk)_live_[0-9A-Za-z]{24,}(?![A-Za-z0-9_])/g;

/**
 * Finds Stripe live secret and restricted keys in a text. Pure.
 *
 * @param text - any text.
 * @returns the keys' spans in text order.
 */
export function findStripeKeys(text: string): SecretSpan[] {
  return [...text.matchAll(STRIPE_LIVE)].map((match) => ({
    start: match.index ?? 0,
    end: (match.index ?? 0) + match[0].length,
  }));
}
