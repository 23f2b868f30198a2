/**
 * Recall — the main job (issue 2, section 4; DESIGN.md "Flows" 1): the entries whose
 * contract fires for an agent's query or tool, then the best full-text matches.
 */
import type { MatchReason } from "../core/contract-match.js";
import type { EntryIndex } from "../index/entry-index.js";
import {
  checkLimit,
  countShown,
  decodeCursor,
  fitPage,
  type HitPage,
  parseOptionalQuery,
  queryKey,
  type RecallHit,
  requestKey,
  textHits,
} from "./hit-page.js";

/** Most text matches recall ranks exactly (see `index/text-search.ts`); keeps recall ≤ 5 ms. */
export const RECALL_TEXT_BUDGET = 1_000;

/** Most text matches recall counts for `total` before reporting a lower bound. */
export const RECALL_TOTAL_CAP = 1_000;

/** Input of {@link recall}. */
export interface RecallInput {
  /** The agent's question or keywords; see `core/search-query.ts` for the syntax. */
  query?: string;
  /** The name of the tool about to be called (matched exactly against `on_tool`). */
  tool?: string;
  /** Hits per page, 1–50. Default: 10. */
  limit?: number;
  /** `next_cursor` of the previous page of the same query and tool. */
  cursor?: string;
  /** Who is asking: the listed entries are counted as shown to this user. */
  user: string;
  /** The time of the showing, ms since the epoch. Default: now. */
  now?: number;
}

/** The answer of {@link recall}. */
export type RecallAnswer = HitPage;

/**
 * Recalls entries for a query and/or a tool name.
 *
 * Order: first the entries whose contract fires (unreachable entries never do), most fired
 * triggers first, then by id; then the full-text matches not already listed, by bm25 (see
 * `index/text-search.ts` for queries too broad to rank). An entry matching both is listed
 * once, among the contract hits, with every reason in `why`. Full text lists unreachable
 * entries too (they stay findable by text and by id, seed 004 "достижимость"); only their
 * contracts are inert. Hits carry summaries, never bodies; the answer is at most `limit`
 * hits and {@link ANSWER_BYTE_BUDGET} bytes of JSON. The listed entries are counted as
 * shown to `user`.
 *
 * @param index - the index.
 * @param input - see {@link RecallInput}.
 * @returns `{hits, total, total_exact, next_cursor}`.
 * @throws LoreError `empty_query` (no word and no tool), `invalid_limit`, `invalid_cursor`.
 */
export function recall(index: EntryIndex, input: RecallInput): RecallAnswer {
  const limit = checkLimit(input.limit);
  const tool = input.tool === undefined || input.tool === "" ? undefined : input.tool;
  const query = parseOptionalQuery(input.query, tool !== undefined);
  const key = requestKey(["recall", queryKey(query), tool === undefined ? "" : `tool:${tool}`]);
  const offset = decodeCursor(input.cursor, key);

  const match = {
    ...(query === undefined ? {} : { stems: query.stems }),
    ...(tool === undefined ? {} : { tool }),
  };
  const fired = index.contracts.fire(match);
  const pageContract = index.contracts.page(offset, limit);
  const reasons = index.contracts.reasons(
    pageContract.map((hit) => hit.fileId),
    match,
  );
  const textLimit = limit - pageContract.length;
  let textRows: { fileId: number; score: number }[] = [];
  let textTotal = 0;
  let totalExact = true;
  let alsoText = new Set<number>();
  if (query !== undefined) {
    const text = index.text.page(query.terms, {
      offset: Math.max(0, offset - fired),
      limit: textLimit,
      budget: RECALL_TEXT_BUDGET,
      totalCap: RECALL_TOTAL_CAP,
      excludeFired: fired > 0,
      check: pageContract.map((hit) => hit.fileId),
    });
    textRows = text.rows;
    textTotal = text.total;
    totalExact = text.totalExact;
    alsoText = text.alsoText;
  }

  const records = index.hitRecords([
    ...pageContract.map((hit) => hit.fileId),
    ...textRows.map((row) => row.fileId),
  ]);
  const hits: RecallHit[] = [];
  for (const hit of pageContract) {
    const record = records.get(hit.fileId);
    if (record === undefined) continue;
    const why: MatchReason[] = [...(reasons.get(hit.fileId) ?? [])];
    if (alsoText.has(hit.fileId)) why.push({ kind: "text" });
    const { id, repo, path, summary, origin } = record;
    hits.push({ id, repo, path, summary, origin, why, score: hit.fired });
  }
  hits.push(...textHits(records, textRows));
  const total = fired + textTotal;
  const listed = offset + hits.length;
  const answer = fitPage(hits, {
    offset,
    total,
    totalExact,
    more: listed < total || (!totalExact && textRows.length === textLimit && textLimit > 0),
    key,
  });
  return countShown(index, input, answer);
}
