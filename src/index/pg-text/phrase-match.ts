/**
 * FTS5's phrase matching over Lore's analysed text, in TypeScript (scale-out: full text on
 * PostgreSQL gives hit for hit what SQLite's `entry_text` gives).
 *
 * `entry_text` uses FTS5's `ascii` tokenizer over stems joined by single spaces
 * (`core/entry/index-document.ts`), so a column's tokens are exactly its stems in order. A
 * phrase is one or more stems that must stand adjacent and in order inside ONE column; a
 * prefix phrase (`"pre receiv" *`) lets its last token be any stem starting with it. An
 * instance is every position a phrase starts at (overlapping instances count: `"a a"` is
 * found twice in `a a a`), which is what FTS5's `xInst` reports and bm25 counts.
 */

/** One FTS5 phrase: a query word's stems (`"s1 s2"`), or one prefix-expanded stem. */
export interface Phrase {
  /** The stems, at least one. */
  tokens: readonly string[];
  /** Whether the last token is a prefix (`"s1 s2" *`). */
  prefix: boolean;
}

/**
 * The tokens of one analysed column (what FTS5's `ascii` tokenizer makes of it).
 *
 * @param text - stems joined by single spaces (`entryText`), possibly empty.
 * @returns the stems in order (none for an empty column).
 */
export function columnTokens(text: string): string[] {
  return text === "" ? [] : text.split(" ");
}

/**
 * How many instances of a phrase a column holds.
 *
 * @param phrase - the phrase.
 * @param tokens - the column's tokens ({@link columnTokens}).
 * @returns the number of start positions where the phrase matches (0 when none).
 */
export function phraseInstances(phrase: Phrase, tokens: readonly string[]): number {
  const n = phrase.tokens.length;
  const lastAt = n - 1;
  let found = 0;
  for (let i = 0; i + n <= tokens.length; i++) {
    let j = 0;
    for (; j < n; j++) {
      const token = tokens[i + j] as string;
      const want = phrase.tokens[j] as string;
      if (j === lastAt && phrase.prefix ? !token.startsWith(want) : token !== want) break;
    }
    if (j === n) found++;
  }
  return found;
}
