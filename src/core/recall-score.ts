/**
 * The one score that orders a recall answer (recall "one scale, and a full match beats a
 * half one"): contract hits and full-text hits of entries, root notes and wiki pages on
 * one scale.
 *
 *     score = matched + 0.5 · contract + 0.5 · r / (r + 1)
 *
 * - `matched`: how many of the query's distinct words (its terms after stop words are
 *   left out, `core/search-query.ts`) the hit matches, by its contract (`on_query` words)
 *   or by its text, each word counted once; plus 1 when its `on_tool` name is the tool
 *   asked. A whole number, it dominates: a hit matching more words ranks above one
 *   matching fewer, however they matched.
 * - `contract`: 1 when the hit's contract fires (an `on_query` word or the `on_tool`
 *   name), else 0: of two hits matching as many words, the one whose contract fires ranks
 *   above one found by text only.
 * - `r`: the full-text relevance, `-bm25` (summary weighs 3, body 1; 0 when the text does
 *   not match or the query is too broad to rank, `index/text-search.ts`). `r / (r + 1)`
 *   is below 1, so text relevance orders hits within the same `matched` and `contract`
 *   and never lifts one over the next step.
 *
 * Ties are broken by entry id. Pure.
 */

/** What {@link recallScore} weighs for one hit. */
export interface ScoreParts {
  /** Distinct query words matched by contract or text, + 1 when the tool fired. */
  matched: number;
  /** Whether the hit's contract fired. */
  contract: boolean;
  /** `-bm25` of its text match, ≥ 0 (0: no text match or not ranked). */
  relevance: number;
}

/** What a firing contract adds: half a word (see the module header). */
export const CONTRACT_WEIGHT = 0.5;

/** The most text relevance adds (reached only in the limit). */
export const TEXT_WEIGHT = 0.5;

/**
 * The score of one hit (the formula in the module header).
 *
 * @param parts - see {@link ScoreParts}.
 * @returns the score, ≥ 0; higher ranks first.
 */
export function recallScore(parts: ScoreParts): number {
  const r = parts.relevance > 0 && Number.isFinite(parts.relevance) ? parts.relevance : 0;
  return parts.matched + (parts.contract ? CONTRACT_WEIGHT : 0) + (TEXT_WEIGHT * r) / (r + 1);
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
