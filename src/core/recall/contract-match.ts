/**
 * When a contract fires (recall; seed 004, "Контракт извлечения"; DESIGN.md
 * glossary "mechanism"):
 * - `on_query`: each element of `params.words` is normalised and stemmed into a token
 *   sequence (`analyzeText`); it fires when that sequence appears contiguously in the
 *   query's stems. A one-token word fires when any query token has its stem, so `откат`
 *   fires on "как откатить" and `deploy` on "deploying"; `развёртывание` fires on
 *   "развертывания"; `pre-receive hook` fires on "the pre-receive hook failed".
 * - `on_tool`: fires when the tool name equals `params.name` exactly (case and all).
 * - Mechanisms this version does not know never fire; an unreachable entry never fires.
 */

import type { ContractClause } from "../entry/entry.js";
import { analyzeText } from "../text/analyze-text.js";

/** Why a hit was listed: the `on_query` word or `on_tool` name that fired, or full text. */
export type MatchReason =
  | { kind: "on_query"; word: string }
  | { kind: "on_tool"; name: string }
  | { kind: "text" };

/** One `on_query` word of a contract, compiled for matching. */
export interface ContractWord {
  /** The word as written in the entry. */
  word: string;
  /** Its stems in order (non-empty: words without a letter or digit never fire and are dropped). */
  stems: string[];
}

/**
 * Compiles the `on_query` words of a contract (all clauses, file order, duplicates kept
 * once by text).
 *
 * @param contract - the entry's clauses; unknown mechanisms and malformed params are ignored.
 * @returns the words with their stem sequences.
 */
export function contractWords(contract: readonly ContractClause[]): ContractWord[] {
  const out: ContractWord[] = [];
  const seen = new Set<string>();
  for (const clause of contract) {
    if (clause.mechanism !== "on_query") continue;
    const words = clause.params.words;
    if (!Array.isArray(words)) continue;
    for (const word of words) {
      if (typeof word !== "string" || seen.has(word)) continue;
      seen.add(word);
      const stems = analyzeText(word);
      if (stems.length > 0) out.push({ word, stems });
    }
  }
  return out;
}

/**
 * The `on_tool` names of a contract, as written, unique, in file order.
 *
 * @param contract - the entry's clauses.
 */
export function contractTools(contract: readonly ContractClause[]): string[] {
  const out = new Set<string>();
  for (const clause of contract) {
    const name = clause.params.name;
    if (clause.mechanism === "on_tool" && typeof name === "string") out.add(name);
  }
  return [...out];
}

/**
 * Tells whether `needle` occurs as a contiguous run in `haystack`.
 *
 * @param haystack - the query's stems.
 * @param needle - a contract word's stems (non-empty).
 */
export function occursIn(haystack: readonly string[], needle: readonly string[]): boolean {
  const first = needle[0];
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (haystack[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Which triggers of a contract fire for a query and a tool name (the rule in this module's
 * header). The index runs the same rule through its lookup tables; this is the reference.
 *
 * @param contract - the entry's clauses.
 * @param input - `queryStems` from `parseSearchQuery(query).stems` (or `analyzeText`), and
 *   the tool name about to be called; either may be absent.
 * @returns the reasons, `on_query` words first (contract order), then `on_tool` names.
 */
export function matchContract(
  contract: readonly ContractClause[],
  input: { queryStems?: readonly string[]; tool?: string },
): MatchReason[] {
  const reasons: MatchReason[] = [];
  if (input.queryStems !== undefined && input.queryStems.length > 0) {
    for (const { word, stems } of contractWords(contract)) {
      if (occursIn(input.queryStems, stems)) reasons.push({ kind: "on_query", word });
    }
  }
  if (input.tool !== undefined) {
    for (const name of contractTools(contract)) {
      if (name === input.tool) reasons.push({ kind: "on_tool", name });
    }
  }
  return reasons;
}
