/**
 * The analysed text of a changed file's old and new versions, computed once for the lines
 * they share.
 *
 * When the index replaces an entry it analyses the old text (FTS5 takes a row out only
 * given the very tokens it was inserted with, see `index/migrations/002-fts-delete.ts`)
 * and then the new one; the two usually differ in a few lines. Analysis never joins
 * anything across a line break — normalisation (NFC, lower case, `ё`, accents) acts within
 * a word, and `\n` always ends a token — so the analysis of a text is the analyses of its
 * lines joined by one space (empty ones left out), and a line seen before is not analysed
 * again. Pure: the memo is the caller's object, kept for as long as it lives (the index
 * keeps one per replaced file).
 */
import { analyzeText } from "./analyze-text.js";

/** Lines longer than this (UTF-16 units) are analysed without being kept: a key that big is rarely met twice. */
const MAX_KEPT_LINE = 4_096;

/** A memo of analysed lines (see the module header). */
export class LineAnalysisMemo {
  readonly #lines = new Map<string, string>();

  /**
   * The stems of `text` joined by single spaces: exactly `analyzeText(text).join(" ")`.
   *
   * @param text - any text.
   * @returns the stems, or `""` when it has none.
   */
  analyzeJoined(text: string): string {
    let out = "";
    for (let start = 0; start <= text.length; ) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      const stems = this.#line(text.slice(start, end));
      if (stems.length > 0) out = out.length === 0 ? stems : `${out} ${stems}`;
      start = end + 1;
    }
    return out;
  }

  /** One line's joined stems, from the memo when it was seen. */
  #line(line: string): string {
    const kept = this.#lines.get(line);
    if (kept !== undefined) return kept;
    const stems = analyzeText(line).join(" ");
    if (line.length <= MAX_KEPT_LINE) this.#lines.set(line, stems);
    return stems;
  }
}

/**
 * The stems of `text` joined by single spaces, through `memo` when one is given.
 *
 * @param text - any text.
 * @param memo - see {@link LineAnalysisMemo}; absent = analysed whole.
 * @returns `analyzeText(text).join(" ")`.
 */
export function analyzeJoined(text: string, memo?: LineAnalysisMemo): string {
  return memo === undefined ? analyzeText(text).join(" ") : memo.analyzeJoined(text);
}
