/**
 * The one score that orders a recall answer (recall "one scale, and a full match beats a
 * half one"): contract hits and full-text hits of entries, root notes and wiki pages on
 * one scale.
 *
 *     score = matched + contract + text
 *     contract = 0 when no contract fired, else 0.5 + 0.25 · (byContract − 1) / max(1, asked − 1)
 *     text     = 0.25 · r / (r + 1)
 *
 * - `matched`: how many of the query's distinct words (its terms after stop words are
 *   left out, `core/recall/search-query.ts`) the hit matches, by its contract (`on_query` words)
 *   or by its text, each word counted once; plus 1 when its `on_tool` name is the tool
 *   asked. A whole number, and `contract + text` stays below 1: a hit matching more words
 *   ranks above one matching fewer, however they matched.
 * - `contract`: at least 0.5 when the hit's contract fires, so of two hits matching as
 *   many words the one whose contract fires ranks above one found by text only (whose
 *   `text` part is below 0.25); up to 0.75 as its contract covers more of the words asked
 *   (`byContract` of `asked`: the query's words, + 1 for a tool).
 * - `r`: the full-text relevance, `-bm25` (summary weighs 3, body 1; 0 when the text does
 *   not match or the query is too broad to rank, `index/text-search.ts`); `r / (r + 1)`
 *   is below 1, so text relevance orders hits within the same `matched` and `contract`.
 *
 * Ties are broken by entry id. Pure.
 */

/** What {@link recallScore} weighs for one hit. */
export interface ScoreParts {
  /** Distinct query words matched by contract or text, + 1 when the tool fired. */
  matched: number;
  /** Of those, the words its contract covers, + 1 when the tool fired (0: no contract fired). */
  byContract: number;
  /** The query's distinct words, + 1 when a tool was asked. */
  asked: number;
  /** `-bm25` of its text match, ≥ 0 (0: no text match or not ranked). */
  relevance: number;
}

/** The least a firing contract adds (see the module header). */
export const CONTRACT_WEIGHT = 0.5;

/** What a contract covering every word asked adds on top of {@link CONTRACT_WEIGHT}. */
export const CONTRACT_COVER_WEIGHT = 0.25;

/** The most text relevance adds (reached only in the limit). */
export const TEXT_WEIGHT = 0.25;

/**
 * The score of one hit (the formula in the module header).
 *
 * @param parts - see {@link ScoreParts}.
 * @returns the score, ≥ 0; higher ranks first.
 */
export function recallScore(parts: ScoreParts): number {
  const r = parts.relevance > 0 && Number.isFinite(parts.relevance) ? parts.relevance : 0;
  const covered = Math.min(parts.byContract, parts.asked);
  const contract =
    covered > 0
      ? CONTRACT_WEIGHT + (CONTRACT_COVER_WEIGHT * (covered - 1)) / Math.max(1, parts.asked - 1)
      : 0;
  return parts.matched + contract + (TEXT_WEIGHT * r) / (r + 1);
}

/**
 * A score as shown: 4 decimals (ordering uses the full value).
 *
 * @param score - from {@link recallScore}.
 */
export function displayScore(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}

/**
 * The number of bits set in a 32-bit mask (query terms covered).
 *
 * @param mask - a bit mask, bit *i* = term *i*.
 */
export function countBits(mask: number): number {
  let bits = mask >>> 0;
  let count = 0;
  while (bits !== 0) {
    bits &= bits - 1;
    count++;
  }
  return count;
}
