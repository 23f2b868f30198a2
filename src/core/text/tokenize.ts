/**
 * Word splitting for matching (recall, matching).
 */

/** Letters and digits start a token; combining marks continue one. */
const WORD_START = /^[\p{L}\p{N}]$/u;
const WORD_PART = /^[\p{L}\p{M}\p{N}]$/u;

/**
 * Classifies the code point at `text[i]` (whose first UTF-16 unit is `code`): 0 = separator,
 * 1 = letter or digit, 2 = combining mark (continues a token only). ASCII and lower-case
 * basic Cyrillic take a fast path.
 */
function classify(text: string, i: number, code: number): 0 | 1 | 2 {
  if (code < 0x80) {
    // ASCII fast path: [0-9a-zA-Z].
    return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a)
      ? 1
      : 0;
  }
  if (code >= 0x430 && code <= 0x45f) return 1; // Cyrillic lower case а–я, ѐ–џ
  const char = String.fromCodePoint(text.codePointAt(i) as number);
  if (WORD_START.test(char)) return 1;
  return WORD_PART.test(char) ? 2 : 0;
}

/**
 * Calls `onToken(start, end)` for every token of `text`: a maximal run of Unicode letters,
 * digits and combining marks that starts with a letter or digit. Offsets are UTF-16
 * indices, `end` exclusive.
 */
function scanTokens(text: string, onToken: (start: number, end: number) => void): void {
  let start = -1;
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    const width = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
    const kind = classify(text, i, code);
    if (kind === 1 || (kind === 2 && start >= 0)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      onToken(start, i);
      start = -1;
    }
    i += width;
  }
  if (start >= 0) onToken(start, text.length);
}

/**
 * Splits already-normalised text (see `normalizeText`) into tokens: maximal runs of Unicode
 * letters and digits (combining marks stay inside a word, so scripts that write vowels as
 * marks keep whole words). Everything else separates: `pre-receive` → `pre`, `receive`;
 * `don't` → `don`, `t`; `c++` → `c`; `(draft)` → `draft`.
 *
 * @param normalized - text after `normalizeText`.
 * @returns the tokens in text order (possibly empty).
 */
export function tokenize(normalized: string): string[] {
  const tokens: string[] = [];
  let start = -1;
  for (let i = 0; i < normalized.length; ) {
    const code = normalized.charCodeAt(i);
    const width = code >= 0xd800 && code <= 0xdbff && i + 1 < normalized.length ? 2 : 1;
    const kind = classify(normalized, i, code);
    if (kind === 1 || (kind === 2 && start >= 0)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      tokens.push(normalized.slice(start, i));
      start = -1;
    }
    i += width;
  }
  if (start >= 0) tokens.push(normalized.slice(start));
  return tokens;
}

/** One word of a query: its tokens and whether a `*` follows it. */
export interface QueryWord {
  /** The tokens glued into this word (at least one). */
  tokens: string[];
  /** A `*` right after the last token: a prefix query on that token. */
  prefix: boolean;
}

/** Characters that glue two tokens into one word when they alone sit between them. */
const GLUE = new Set(["-", "'", "’", "‐", "‑", ".", "_"]);

/**
 * Splits normalised text into words, where a word is tokens glued by one in-word
 * punctuation character (`-`, `'`, `’`, `.`, `_` with a token on both sides: `pre-receive`,
 * `don't`, `v1.2`, `snake_case`). A `*` right after a word sets `prefix`.
 * Used by the query builder, which turns a multi-token word into a phrase.
 *
 * @param normalized - text after `normalizeText`.
 * @returns the words in text order.
 */
export function splitWords(normalized: string): QueryWord[] {
  const words: QueryWord[] = [];
  let current: string[] | null = null;
  let lastEnd = -1;
  scanTokens(normalized, (start, end) => {
    const token = normalized.slice(start, end);
    if (current !== null && start - lastEnd === 1 && GLUE.has(normalized[lastEnd] as string)) {
      current.push(token);
    } else {
      if (current !== null) words.push({ tokens: current, prefix: normalized[lastEnd] === "*" });
      current = [token];
    }
    lastEnd = end;
  });
  if (current !== null) words.push({ tokens: current, prefix: normalized[lastEnd] === "*" });
  return words;
}
