/**
 * `lore why <id>` (README "Load receipts"): for one entry, when and why it surfaced — from
 * the load receipts — and, when it did not, why not: unreachable (and which mechanism), no
 * contract, never matched, or outranked (it matched a recall but fell below that page). Pure:
 * the service (`services/receipts/explain-entry.ts`) gathers the entry and the receipts.
 */
import type { ContractClause } from "../entry/entry.js";
import {
  contractTools,
  contractWords,
  type MatchReason,
  matchContract,
} from "../recall/contract-match.js";
import { parseSearchQuery } from "../recall/search-query.js";
import type { ReceiptRecord } from "./receipt.js";

/** The verdict of {@link explainEntry}, first that holds in this order. */
export type WhyVerdict = "surfaced" | "unreachable" | "outranked" | "no_contract" | "never_matched";

/** The entry as {@link explainEntry} looks at it. */
export interface WhyEntry {
  id: string;
  repo: string;
  path: string;
  reachable: boolean;
  unmetMechanisms: readonly string[];
  contract: readonly ContractClause[];
  /** The stems of its summary and body (`analyzeText`): what a text match needs. */
  textStems: ReadonlySet<string>;
}

/** One receipt the entry surfaced in. */
export interface WhySurfaced {
  receipt: string;
  /** ISO 8601. */
  at: string;
  client: string;
  session: string | null;
  query: string | null;
  tool: string | null;
  rank: number;
  score: number;
  why: MatchReason[];
  /** The blob sha (a draft's revision) that was shown. */
  revision: string;
}

/** One receipt whose recall the entry matches but did not surface in. */
export interface WhyOutranked {
  receipt: string;
  at: string;
  client: string;
  query: string | null;
  tool: string | null;
  /** Why it would have matched, by the current entry: contract reasons, `text`. */
  would_match: MatchReason[];
  /** The last place of that page (offset + limit): the entry ranked below it. */
  page_end: number;
  /** The candidates that recall counted. */
  total: number;
}

/** The answer of `lore why` (JSON as printed by `--json`). */
export interface WhyAnswer {
  id: string;
  repo: string;
  path: string;
  verdict: WhyVerdict;
  reachable: boolean;
  /** The mechanisms it needs that this version lacks (why it is unreachable). */
  unmet_mechanisms: string[];
  /** Its contract: `on_query` words and `on_tool` names (empty: no contract). */
  contract: { words: string[]; tools: string[] };
  /** Receipts it surfaced in, newest first. */
  surfaced: WhySurfaced[];
  /** Receipts whose recall it matches but that did not list it, newest first. */
  outranked: WhyOutranked[];
  /** Receipts looked at (the newest of the user's). */
  receipts_checked: number;
}

/**
 * Explains one entry from the receipts.
 *
 * @param entry - the entry as stored now.
 * @param surfacedIn - receipts listing it (any order; its hit is found by repo and id).
 * @param recent - the user's newest receipts (those that list it are skipped here).
 * @returns the facts and the verdict: `surfaced` when a receipt lists it; else `unreachable`
 *   (its contract is inert); else `outranked` when a recall matched it below its page; else
 *   `no_contract` when it has no `on_query`/`on_tool` trigger; else `never_matched`.
 */
export function explainEntry(
  entry: WhyEntry,
  surfacedIn: readonly ReceiptRecord[],
  recent: readonly ReceiptRecord[],
): WhyAnswer {
  const surfaced: WhySurfaced[] = [];
  const seen = new Set<string>();
  for (const receipt of [...surfacedIn].sort((a, b) => b.seq - a.seq)) {
    const hit = receipt.hits.find((h) => h.repo === entry.repo && h.id === entry.id);
    if (hit === undefined) continue;
    seen.add(receipt.id);
    surfaced.push({
      receipt: receipt.id,
      at: new Date(receipt.at).toISOString(),
      client: receipt.client,
      session: receipt.session,
      query: receipt.query,
      tool: receipt.tool,
      rank: hit.rank,
      score: hit.score,
      why: hit.why,
      revision: hit.revision,
    });
  }
  const outranked: WhyOutranked[] = [];
  for (const receipt of recent) {
    if (seen.has(receipt.id)) continue;
    const reasons = wouldMatch(entry, receipt);
    if (reasons.length === 0) continue;
    outranked.push({
      receipt: receipt.id,
      at: new Date(receipt.at).toISOString(),
      client: receipt.client,
      query: receipt.query,
      tool: receipt.tool,
      would_match: reasons,
      page_end: receipt.offset + receipt.limit,
      total: receipt.total,
    });
  }
  const words = contractWords(entry.contract).map((w) => w.word);
  const tools = contractTools(entry.contract);
  const verdict: WhyVerdict =
    surfaced.length > 0
      ? "surfaced"
      : words.length + tools.length === 0 && entry.unmetMechanisms.length === 0
        ? // No trigger at all (the index keeps such an entry as not reachable, with no
          // mechanism missing): say so, not "unreachable".
          "no_contract"
        : !entry.reachable
          ? "unreachable"
          : outranked.length > 0
            ? "outranked"
            : "never_matched";
  return {
    id: entry.id,
    repo: entry.repo,
    path: entry.path,
    verdict,
    reachable: entry.reachable,
    unmet_mechanisms: [...entry.unmetMechanisms],
    contract: { words, tools },
    surfaced,
    outranked,
    receipts_checked: recent.length,
  };
}

/**
 * Why the entry, as it is now, matches a receipt's recall: its contract's reasons (only
 * when reachable: an unreachable contract is inert) and `text` when one of the query's
 * counted words is a stem of its text.
 */
function wouldMatch(entry: WhyEntry, receipt: ReceiptRecord): MatchReason[] {
  let keys: string[] = [];
  let stems: string[] | undefined;
  if (receipt.query !== null) {
    try {
      const parsed = parseSearchQuery(receipt.query);
      keys = parsed.keys;
      stems = parsed.stems;
    } catch {
      // A query of punctuation only (beside a tool): no word to match.
    }
  }
  const input: { queryStems?: readonly string[]; tool?: string } = {};
  if (stems !== undefined) input.queryStems = stems;
  if (receipt.tool !== null) input.tool = receipt.tool;
  const reasons = entry.reachable ? matchContract(entry.contract, input) : [];
  if (keys.some((key) => entry.textStems.has(key))) reasons.push({ kind: "text" });
  return reasons;
}
