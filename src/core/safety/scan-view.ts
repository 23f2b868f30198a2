/**
 * The text the secret guard scans (seed 004, "Как знание выходит наружу"): the written text
 * with what hides a credential from a pattern but not from a reader taken away, line by
 * line so every finding keeps its line number:
 *
 * - format characters (Unicode `Cf`: zero-width space and joiners, soft hyphen, the byte
 *   order mark, bidi marks) are dropped — an editor, a browser and a model all read
 *   `ghp_ab\u200bcd` as one token, a regular expression does not;
 * - compatibility forms are folded (NFKC: full-width `ｇｈｐ＿` is `ghp_`);
 * - a leading Markdown quote (`> `, `>> `) is dropped — an agent quoting a file it read puts
 *   one before every line of a key block, and the private-key rule wants the block's lines
 *   bare.
 *
 * Pure; the scan reports `{line, rule}` of this view, which has the same lines as the text.
 *
 * @param text - the text as it would be written.
 * @returns the view to scan (the same string when nothing needed changing).
 */
export function scanView(text: string): string {
  if (!NEEDS_VIEW.test(text)) return text;
  return text
    .split("\n")
    .map((line) => line.replace(FORMAT_CHARACTERS, "").normalize("NFKC").replace(QUOTE, ""))
    .join("\n");
}

/** Any character the view changes: a format character, a non-ASCII one, or a quote marker. */
const NEEDS_VIEW = /[^\p{ASCII}]|^[ \t]*>/mu;

/** Unicode format characters (`Cf`). */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/** A Markdown block quote's markers at the start of a line. */
const QUOTE = /^[ \t]*(?:>[ \t]?)+/;
