/**
 * Recall — the main job (DESIGN.md "Flows" 1): the entries, root notes and wiki pages whose
 * contract fires for an agent's query or tool, and the full-text matches, in one list
 * ordered by one score (`core/recall/recall-score.ts`).
 */
import type { MatchReason } from "../../core/recall/contract-match.js";
import { countBits, displayScore, recallScore } from "../../core/recall/recall-score.js";
import type { SearchQuery } from "../../core/recall/search-query.js";
import { rootOfRepo } from "../../core/roots/root-repo-name.js";
import type { ContractHit, ContractInput, FiredMatch } from "../../index/contract-lookup.js";
import type { EntryIndex } from "../../index/entry-index.js";
import { HitLookup } from "../../index/hit-lookup.js";
import type { TextMatch } from "../../index/text-search.js";
import { recordReceipt } from "../receipts/record-receipt.js";
import {
  checkLimit,
  countShown,
  decodeCursor,
  fitPage,
  type HitPage,
  parseOptionalQuery,
  queryKey,
  type RecallHit,
  recallHit,
  requestKey,
} from "./hit-page.js";

/** Most text matches recall ranks exactly (see `index/text-search.ts`); keeps recall ≤ 5 ms. */
export const RECALL_TEXT_BUDGET = 1_000;

/** Most text matches recall counts for `total` before reporting a lower bound. */
export const RECALL_TOTAL_CAP = 1_000;

/** Input of {@link recall}. */
export interface RecallInput {
  /** The agent's question or keywords; see `core/recall/search-query.ts` for the syntax. */
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
  /**
   * Whether the listed entries are counted as shown, queued (`index/counters.ts`). Default
   * `true`; `false` for a client that marks shown itself (MCP `count_shown: false`), and
   * for the team server, which counts durably after the recall.
   */
  countShown?: boolean;
  /**
   * The index repository name of the current project's wiki (`wikiRepoName`): its pages
   * are searched, the stored pages of other projects' wikis are left out. Absent: no wiki
   * page is listed.
   */
  wiki?: string;
  /**
   * Who is asking, for the load receipt (`core/receipts/receipt.ts`): the MCP client's
   * name (`initialize` → `clientInfo.name`), the hook event (`claude-code:UserPromptSubmit`),
   * `cli` or `http`. Default: `unknown`.
   */
  client?: string;
  /** The agent session the recall belongs to (a hook's `session_id`, an MCP session), for receipts. */
  session?: string;
  /**
   * Whether the load receipt is recorded in the index (`services/receipts/record-receipt.ts`).
   * Default `true`; `false` for the team server, which stores it through its `IndexStore`
   * (its SQLite index or PostgreSQL) after the recall.
   */
  receipt?: boolean;
}

/** The answer of {@link recall}. */
export type RecallAnswer = HitPage;

/** One ranked candidate of a recall. */
export interface Candidate {
  fileId: number;
  /** The entry id, when known (contract hits); used to break ties. */
  entryId?: string;
  score: number;
  contract: boolean;
  text: boolean;
}

/**
 * The words a recall counts (recall's "distinct words"): each distinct stem of the query's
 * terms (`SearchQuery.keys`: stop words left out; the tokens of a glued word count one by
 * one, `ai` and `перевод` of `ai-перевод`), at most 31, as bit indices; and each term's mask
 * of those bits.
 */
export interface QueryWords {
  /** Stem → its bit index. */
  bitOf: Map<string, number>;
  /** Per query term, the bits of its stems. */
  termMasks: number[];
}

/** Most distinct words of a query a recall counts (bits of a 32-bit mask, sign bit unused). */
export const MAX_COUNTED_WORDS = 31;

/**
 * The counted words of a parsed query (see {@link QueryWords}).
 *
 * @param query - the parsed query.
 */
export function queryWords(query: SearchQuery): QueryWords {
  const bitOf = new Map<string, number>();
  for (const key of query.keys) {
    if (bitOf.size < MAX_COUNTED_WORDS && !bitOf.has(key)) bitOf.set(key, bitOf.size);
  }
  const termMasks = query.terms.map((term) =>
    term.stems.reduce((mask, stem) => {
      const bit = bitOf.get(stem);
      return bit === undefined ? mask : mask | (1 << bit);
    }, 0),
  );
  return { bitOf, termMasks };
}

/**
 * The contract-lookup input of a parsed query and a tool: each whole stem with its bit
 * (a prefix term's last stem is not a whole word), every stem for phrases, the tool.
 *
 * @param query - the parsed query, absent for a tool-only recall.
 * @param tool - the tool name, absent when none.
 */
export function contractInput(
  query: SearchQuery | undefined,
  tool: string | undefined,
): ContractInput {
  const input: ContractInput = {};
  if (query !== undefined) {
    const { bitOf } = queryWords(query);
    const keys: [string, number][] = [];
    for (const term of query.terms) {
      const whole = term.prefix ? term.stems.slice(0, -1) : term.stems;
      for (const stem of whole) {
        const bit = bitOf.get(stem);
        if (bit !== undefined) keys.push([stem, bit]);
      }
    }
    input.keys = keys;
    input.stems = query.stems;
    // A fired phrase covers each counted word it holds.
    input.terms = [...bitOf.keys()].map((stem) => [stem]);
  }
  if (tool !== undefined) input.tool = tool;
  return input;
}

/**
 * Scores a text match, with the contract hit of the same entry when its contract fired too.
 *
 * @param row - the text match.
 * @param hit - the entry's contract hit, if any.
 * @param asked - the query's words, + 1 when a tool was asked.
 */
export function scoreText(row: TextMatch, hit: FiredMatch | undefined, asked: number): Candidate {
  const tool = hit?.tool ? 1 : 0;
  const matched = countBits(row.mask | (hit?.mask ?? 0)) + tool;
  const contract = hit !== undefined;
  const byContract = hit === undefined ? 0 : Math.max(1, countBits(hit.mask) + tool);
  const score = recallScore({ matched, byContract, asked, relevance: row.relevance });
  return {
    fileId: row.fileId,
    score,
    contract,
    text: row.mask !== 0,
  };
}

/**
 * Scores a contract hit whose entry has no text match.
 *
 * @param hit - the contract hit.
 * @param asked - the query's words, + 1 when a tool was asked.
 */
export function scoreContract(hit: ContractHit, asked: number): Candidate {
  const byContract = Math.max(1, hit.matched);
  const score = recallScore({ matched: hit.matched, byContract, asked, relevance: 0 });
  return { fileId: hit.fileId, entryId: hit.entryId, score, contract: true, text: false };
}

/**
 * Recalls entries, root notes and wiki pages for a query and/or a tool name.
 *
 * Order: one score for every hit (`core/recall/recall-score.ts`): first by how many of the
 * query's distinct words a hit matches, by contract or text; then a hit whose contract
 * fires above one found by text only; then by text relevance; then by entry id. Stop
 * words are left out of the query (`core/recall/search-query.ts`) and a text match must pass the
 * floor (`index/text-search.ts`), so a query with nothing distinctive answers no hit. An
 * entry matching both ways is listed once, with every reason in `why`. Full text lists
 * unreachable entries too (they stay findable by text and by id, seed 004
 * "достижимость"); only their contracts are inert. Hits carry summaries, never bodies;
 * the answer is at most `limit` hits and {@link ANSWER_BYTE_BUDGET} bytes of JSON. The
 * listed entries are counted as shown to `user`, and a load receipt of the page is recorded
 * (`services/receipts/record-receipt.ts`; never fails the recall).
 *
 * Cost: one aggregate query over the fired contracts (in SQLite), the text matches within
 * {@link RECALL_TEXT_BUDGET}, and a limited read of the best fired entries; nothing per
 * fired entry in JavaScript.
 *
 * @param index - the index.
 * @param input - see {@link RecallInput}.
 * @returns `{hits, total, total_exact, next_cursor}`.
 * @throws LoreError `empty_query` (no word and no tool), `invalid_limit`, `invalid_cursor`.
 */
export function recall(index: EntryIndex, input: RecallInput): RecallAnswer {
  const answer = rankedPage(index, input, undefined);
  recordReceipt(index, input, answer);
  return countShown(index, input, answer);
}

/**
 * The one path of every recall, unfiltered ({@link recall}) or over some of the index's
 * sources (`recallWithin`): the same stop words, the same floor on common words (judged
 * on the whole index), the same words searched and the same score, so a recall filtered to
 * some repositories lists exactly the unfiltered recall's hits of those repositories, in the
 * same order with the same scores. The filter is applied in SQL (fired contracts and text
 * matches), so no row of another source reaches the page, `total` or the cursor. Nothing is
 * counted as shown here.
 *
 * @param index - the index.
 * @param input - see {@link RecallInput}.
 * @param repos - the index repository names to keep (sorted, distinct); `undefined` = all.
 *   With a set, hits of a knowledge root carry `root`, and the cursor key names the set.
 * @throws LoreError `empty_query`, `invalid_limit`, `invalid_cursor`.
 */
export function rankedPage(
  index: EntryIndex,
  input: RecallInput,
  repos: readonly string[] | undefined,
): RecallAnswer {
  const limit = checkLimit(input.limit);
  const tool = input.tool === undefined || input.tool === "" ? undefined : input.tool;
  const query = parseOptionalQuery(input.query, tool !== undefined);
  const key = requestKey(
    repos === undefined
      ? ["recall", queryKey(query), tool === undefined ? "" : `tool:${tool}`]
      : // One repository keeps the key of a root's or a `--repo` recall (cursors stay valid).
        [
          "recall-root",
          repos.join("\n"),
          queryKey(query),
          tool === undefined ? "" : `tool:${tool}`,
        ],
  );
  const offset = decodeCursor(input.cursor, key);
  const need = offset + limit;

  const match = contractInput(query, tool);
  const fired = index.contracts.fire(match, repos);
  let text: TextMatch[] = [];
  let textTotal = 0;
  let totalExact = true;
  let complete = true;
  const lookup = hitLookup(index);
  const asked = (query === undefined ? 0 : queryWords(query).bitOf.size) + (tool ? 1 : 0);
  let others: Set<number> | undefined;
  const otherWikis = () => {
    others ??= lookup.wikiFilesExcept(input.wiki);
    return others;
  };
  // With no fired contract and no other project's wiki page to leave out, the order of a
  // one-word query's text matches is their relevance order: only the best are read.
  const topOnly =
    query !== undefined && fired === 0 && repos === undefined && otherWikis().size === 0;
  /** The text matches cut to their best (`top`): whole, they are counted in `textTotal`. */
  let cut = false;
  if (query !== undefined) {
    const options = {
      budget: RECALL_TEXT_BUDGET,
      totalCap: RECALL_TOTAL_CAP,
      need,
      stopWordsOnly: query.stopWordsOnly,
      termMasks: queryWords(query).termMasks,
      ...(repos === undefined ? {} : { repos }),
    };
    let found = index.text.matches(query.terms, topOnly ? { ...options, top: need + 1 } : options);
    // The rows read must hold every match that can reach the page: more are read while the
    // last one read is not clearly below the page's last place (see `bestCoverPage`).
    for (let top = 2 * (need + 1); found.mode === "ranked" && !found.complete; top *= 2) {
      if (bestCoverPage(found.rows, need, asked)) break;
      found = index.text.matches(query.terms, { ...options, top });
    }
    cut = found.mode === "ranked" && !found.complete;
    text = found.rows;
    textTotal = found.total;
    totalExact = found.totalExact;
    complete = found.complete;
  }
  const foreign = text.length === 0 ? new Set<number>() : otherWikis();
  const before = text.length;
  if (foreign.size > 0) text = text.filter((row) => !foreign.has(row.fileId));
  const excluded = before - text.length;

  const textIds = text.map((row) => row.fileId);
  const firedText = fired > 0 ? index.contracts.of(textIds) : new Map<number, FiredMatch>();
  const ranked = text.map((row) => scoreText(row, firedText.get(row.fileId), asked));
  // One past the page: tells whether more contract hits follow it.
  const contractOnly = index.contracts
    .best(need + 1, textIds)
    .map((hit) => scoreContract(hit, asked));
  const order = mergeCandidates(lookup, ranked, contractOnly, need, offset);
  const slice = order.slice(offset, need);

  const records = index.hitRecords(slice.map((c) => c.fileId));
  const reasons = index.contracts.reasons(
    slice.filter((c) => c.contract).map((c) => c.fileId),
    match,
  );
  const hits: RecallHit[] = [];
  for (const candidate of slice) {
    const record = records.get(candidate.fileId);
    if (record === undefined) continue;
    const why: MatchReason[] = [...(reasons.get(candidate.fileId) ?? [])];
    if (candidate.text) why.push({ kind: "text" });
    const hit = recallHit(record, why, displayScore(candidate.score));
    const root = repos === undefined ? undefined : rootOfRepo(record.repo);
    hits.push(root === undefined ? hit : { ...hit, root });
  }
  // The hits are the union of the fired entries and the text matches. Its size is exact
  // when every text match was fetched; else the overlap of the fired entries with the
  // text matches not fetched is unknown, and the larger of the two known parts is a lower
  // bound (never a sum that counts an entry found both ways twice).
  // A cut list (no fired entry, nothing left out) stands for every match of `textTotal`.
  const seen = fired + (cut ? textTotal : text.length) - firedText.size;
  const allText = cut || before === textTotal;
  const total = allText ? seen : Math.max(seen, textTotal - excluded);
  return fitPage(hits, {
    offset,
    total: Math.max(total, offset + hits.length),
    totalExact: totalExact && allText,
    more: order.length > need || (!complete && text.length >= need),
    key,
  });
}

/**
 * Whether the best text matches read (`rows`, by relevance, best first, all holding the
 * same query terms, no contract fired) hold every match that can reach the first `need`
 * places: the last one read scores clearly below the `need`-th. A match not read has a
 * relevance at most the last one's, so a score at most its score but for rounding (a few
 * units in the last place, far below the margin here); a tie with the `need`-th place is
 * read whole, as the full list would order it by entry id.
 *
 * @param rows - the matches read, in relevance order (more than `need`).
 * @param need - the places that must be in order (offset + limit).
 * @param asked - the query's words, as for {@link scoreText}.
 */
export function bestCoverPage(rows: readonly TextMatch[], need: number, asked: number): boolean {
  const place = rows[need - 1];
  const last = rows[rows.length - 1];
  if (place === undefined || last === undefined || rows.length <= need) return false;
  const s = scoreText(place, undefined, asked).score;
  return scoreText(last, undefined, asked).score < s - Math.abs(s) * 1e-9;
}

const lookups = new WeakMap<EntryIndex, HitLookup>();

/** The index's {@link HitLookup}, made once per index. */
export function hitLookup(index: EntryIndex): HitLookup {
  let lookup = lookups.get(index);
  if (lookup === undefined) {
    lookup = index.withDatabase((db) => new HitLookup(db));
    lookups.set(index, lookup);
  }
  return lookup;
}

/**
 * Up to this many tied files are read by primary key for their entry ids; a larger tie group
 * that crosses the page is cut by the entry id index instead (the same hits either way).
 */
const DIRECT_ID_READS = 128;

/**
 * Merges the scored text matches with the contract-only hits (already best first) into
 * one order: score descending, then entry id. Entry ids are read only where they decide
 * the first `need` places: for a tie group on the page, and for the one that crosses its
 * end only the ids of its first places (the rest of that group, and every group after
 * it, stay in no particular order past `need`).
 *
 * @param lookup - the index's lookups (for the ids of tied text matches).
 * @param ranked - scored text matches, any order.
 * @param contractOnly - scored contract hits without a text match, best first.
 * @param need - the places that must be in order (offset + limit); default all.
 * @param offset - places before the page, whose order within a group does not matter.
 * @returns every candidate: the first `need` in order, best first.
 */
export function mergeCandidates(
  lookup: HitLookup,
  ranked: Candidate[],
  contractOnly: readonly Candidate[],
  need = Number.POSITIVE_INFINITY,
  offset = 0,
): Candidate[] {
  const all = [...ranked, ...contractOnly].sort((a, b) => b.score - a.score);
  const out: Candidate[] = [];
  for (let start = 0; start < all.length; ) {
    let end = start + 1;
    while (end < all.length && (all[end] as Candidate).score === (all[start] as Candidate).score)
      end++;
    const group = all.slice(start, end);
    if (group.length > 1 && start < need && end > offset)
      out.push(...orderTied(lookup, group, need - start));
    else out.push(...group);
    start = end;
  }
  return out;
}

/** Orders a tie group by entry id, at least its first `first` places (see {@link mergeCandidates}). */
function orderTied(lookup: HitLookup, group: Candidate[], first: number): Candidate[] {
  const unknown = group.filter((c) => c.entryId === undefined);
  if (unknown.length > 0) {
    const files = unknown.map((c) => c.fileId);
    const cut = group.length > first && unknown.length > DIRECT_ID_READS;
    const ids = cut ? lookup.firstByEntryId(files, first) : lookup.entryIdsOf(files);
    for (const c of unknown) {
      const id = ids.get(c.fileId);
      if (id !== undefined) c.entryId = id;
    }
  }
  // With a cut, the files whose id was not read belong after the first places: they sort
  // last here ("\u{10ffff}" above every id) and their order among themselves does not matter.
  const key = (c: Candidate) => c.entryId ?? "\u{10ffff}";
  return group.sort((a, b) => {
    const ia = key(a);
    const ib = key(b);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  });
}
