/**
 * Full-text search (recall, full text): bm25 over summaries and bodies, no
 * contracts, nothing counted.
 */
import { parseSearchQuery } from "../../core/recall/search-query.js";
import type { EntryIndex } from "../../index/entry-index.js";
import {
  checkLimit,
  decodeCursor,
  fitPage,
  type HitPage,
  queryKey,
  requestKey,
  textHits,
} from "./hit-page.js";

/** Most text matches search ranks exactly (see `index/text-search.ts`); keeps search ≤ 20 ms. */
export const SEARCH_TEXT_BUDGET = 5_000;

/** Most matches search counts for `total` before reporting a lower bound. */
export const SEARCH_TOTAL_CAP = 10_000;

/** Input of {@link search}. */
export interface SearchInput {
  /** Words to find; see `core/recall/search-query.ts` for the syntax. */
  query: string;
  /** Hits per page, 1–50. Default: 10. */
  limit?: number;
  /** `next_cursor` of the previous page of the same query. */
  cursor?: string;
}

/**
 * Searches summaries and bodies of every stored entry, reachable or not, ranked by bm25
 * (summary weighs 3, body 1; see `index/text-search.ts` for queries too broad to rank).
 * Same hit shape as recall, `why: [{kind: "text"}]`; counts nothing.
 *
 * @param index - the index.
 * @param input - see {@link SearchInput}.
 * @returns `{hits, total, total_exact, next_cursor}` under the same byte budget as recall.
 * @throws LoreError `empty_query`, `invalid_limit`, `invalid_cursor`.
 */
export function search(index: EntryIndex, input: SearchInput): HitPage {
  const limit = checkLimit(input.limit);
  const query = parseSearchQuery(input.query);
  const key = requestKey(["search", queryKey(query)]);
  const offset = decodeCursor(input.cursor, key);
  const text = index.text.page(query.terms, {
    offset,
    limit,
    budget: SEARCH_TEXT_BUDGET,
    totalCap: SEARCH_TOTAL_CAP,
    excludeFired: false,
    check: [],
  });
  const records = index.hitRecords(text.rows.map((row) => row.fileId));
  const hits = textHits(records, text.rows);
  const listed = offset + hits.length;
  return fitPage(hits, {
    offset,
    total: text.total,
    totalExact: text.totalExact,
    more: listed < text.total || (!text.totalExact && text.rows.length === limit),
    key,
  });
}
