/**
 * What the index stores for an entry's text and contract, computed from the parsed entry
 * alone (pure, so an indexing run may compute it off the main thread).
 */

import { type ContractWord, contractTools, contractWords } from "../recall/contract-match.js";
import { analyzeJoined, type LineAnalysisMemo } from "../text/line-analysis-memo.js";
import type { ParsedEntry } from "./entry.js";

/** The analysed form of one entry (the index and recall). */
export interface IndexDocument {
  /** The summary's stems joined by single spaces (the FTS `summary` column). */
  summaryText: string;
  /** The body's stems joined by single spaces (the FTS `body` column). */
  bodyText: string;
  /** The compiled `on_query` words (empty when the entry is unreachable). */
  words: ContractWord[];
  /** The `on_tool` names (empty when the entry is unreachable). */
  tools: string[];
}

/**
 * An {@link IndexDocument} whose full-text columns may be given as their UTF-8 bytes (a
 * worker thread's analysis, handed over in one transferred buffer, off the receiving
 * thread's heap); SQLite's FTS5 indexes the bytes exactly as it would the string.
 */
export type StoredDocument = Omit<IndexDocument, "summaryText" | "bodyText"> & {
  summaryText: string | Uint8Array;
  bodyText: string | Uint8Array;
};

/**
 * Analyses an entry for the index: normalised, stemmed summary and body for full text;
 * contract words and tool names for contract lookup, only when the entry is reachable
 * (unreachable entries never surface through contracts).
 *
 * @param parsed - the parsed entry.
 * @param memo - lines analysed before (the old text of the entry this one replaces); absent = none.
 * @returns the document to store.
 */
export function indexDocument(parsed: ParsedEntry, memo?: LineAnalysisMemo): IndexDocument {
  const reachable = parsed.reachable;
  return {
    ...entryText(parsed.summary, parsed.entry.body, memo),
    words: reachable ? contractWords(parsed.entry.contract) : [],
    tools: reachable ? contractTools(parsed.entry.contract) : [],
  };
}

/**
 * The full-text columns of an entry: its display summary and body, each analysed
 * (`analyzeText`) and joined by single spaces. Deterministic: the index re-analyses the
 * stored summary and body of an entry it removes to tell FTS5 which tokens to take out
 * (see `index/migrations/002-fts-delete.ts`), so a change to the analysis must come with a
 * migration that rebuilds the full-text table and empties the index's memo of stems
 * (`stems`, migration 11).
 *
 * @param summary - the display summary (`ParsedEntry.summary`, as stored in `entries.summary`).
 * @param body - the body (as stored in `entries.body`).
 * @param memo - lines analysed before (`core/text/line-analysis-memo.ts`; the same result,
 *   faster when old and new text share lines); absent = none.
 * @returns `{summaryText, bodyText}`: stems separated by one space (empty strings when none).
 */
export function entryText(
  summary: string,
  body: string,
  memo?: LineAnalysisMemo,
): Pick<IndexDocument, "summaryText" | "bodyText"> {
  return { summaryText: analyzeJoined(summary, memo), bodyText: analyzeJoined(body, memo) };
}
