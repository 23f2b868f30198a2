import { LIMITS } from "./entry.js";
import { utf8ByteLength } from "./utf8.js";

/**
 * The display fragment of an entry (seed 004, "Тело и фрагмент показа"): the first
 * paragraph of the body, whitespace and control characters folded, at most {@link LIMITS.summaryBytes} bytes of
 * UTF-8 cut on a character boundary.
 */
export interface DerivedSummary {
  /** The fragment, whitespace folded, never over 512 bytes of UTF-8. */
  summary: string;
  /** The first paragraph was longer than the cap and was cut. */
  atCap: boolean;
  /** "Empty in meaning": the fragment holds no letter and no digit (e.g. only `---`). */
  empty: boolean;
}

/** A note about the summary, turned into a diagnostic by the caller. */
export interface SummaryNote {
  code: "summary_repeats_body" | "summary_at_cap" | "summary_empty" | "summary_too_long";
  params: Record<string, string | number>;
}

/**
 * Folds every run of whitespace (JavaScript `\s`: spaces, tabs, line ends, NBSP, …) and
 * control characters (`\p{Cc}`: C0, DEL, C1 — NUL, ESC of a terminal escape, …) into one
 * space and trims both ends, so a derived summary never carries a control character.
 *
 * @param text - any text.
 * @returns the folded text.
 */
export function foldWhitespace(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, " ").trim();
}

/**
 * Returns the first paragraph of a body: leading blank lines skipped, then every line up
 * to the first blank one (a line of only spaces and tabs) or the end.
 *
 * @param body - the body, LF line ends.
 * @returns the paragraph's lines joined as written (not folded).
 */
export function firstParagraph(body: string): string {
  const start = body.search(/[^ \t\n]/);
  if (start < 0) return "";
  const lineStart = body.lastIndexOf("\n", start) + 1;
  const rest = body.slice(lineStart);
  const end = rest.search(/\n[ \t]*(?:\n|$)/);
  return end < 0 ? rest : rest.slice(0, end);
}

/**
 * Cuts a string to at most `maxBytes` bytes of UTF-8 on a character boundary: never half
 * a code point or surrogate pair, and not inside a visible character where that can be
 * helped — the cut backs off over combining marks, zero-width joiners, variation selectors,
 * emoji modifiers and tag characters (so `e` + U+0301 and ZWJ emoji sequences stay whole),
 * unless one such character alone is over the cap. Trailing spaces left by the cut are
 * dropped. Linear; no ICU.
 *
 * @param text - a well-formed string.
 * @param maxBytes - the cap in bytes.
 * @returns the text (unchanged when it fits) and whether it was cut.
 */
export function capUtf8(text: string, maxBytes: number): { text: string; cut: boolean } {
  if (text.length <= maxBytes / 3 || utf8ByteLength(text) <= maxBytes) return { text, cut: false };
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const unit = text.charCodeAt(end);
    const pair = unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length;
    const size = unit < 0x80 ? 1 : unit < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += pair ? 2 : 1;
  }
  let safe = end;
  while (
    safe > 0 &&
    (EXTENDS.test(text.slice(safe, safe + 2)) || text.charCodeAt(safe - 1) === 0x200d)
  ) {
    safe -= isLowSurrogate(text.charCodeAt(safe - 1)) ? 2 : 1;
  }
  return { text: text.slice(0, safe > 0 ? safe : end).trimEnd(), cut: true };
}

/** A code point that continues the one before it: mark, ZWJ, variation selector, modifier, tag. */
const EXTENDS = /^(?:\p{M}|\u200D|[\uFE00-\uFE0F]|[\u{1F3FB}-\u{1F3FF}]|[\u{E0020}-\u{E007F}])/u;

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * Folds and caps a paragraph, folding only as much of it as the cap can use: a long
 * paragraph costs what its first few kilobytes cost.
 */
function foldAndCap(paragraph: string, maxBytes: number): { text: string; cut: boolean } {
  // Enough text to fill the cap, plus room to look past the cut.
  for (let take = maxBytes + 128; ; take *= 2) {
    if (take >= paragraph.length) return capUtf8(foldWhitespace(paragraph), maxBytes);
    const folded = foldWhitespace(paragraph.slice(0, take));
    if (utf8ByteLength(folded) > maxBytes + 64) return capUtf8(folded, maxBytes);
  }
}

/**
 * Derives the display fragment from a body (seed 004, "Тело и фрагмент показа").
 *
 * @param body - the entry body, LF line ends.
 * @returns the fragment, whether it hit the 512-byte cap, whether it is empty in meaning.
 */
export function deriveSummary(body: string): DerivedSummary {
  const { text, cut } = foldAndCap(firstParagraph(body), LIMITS.summaryBytes);
  return { summary: text, atCap: cut, empty: !/[\p{L}\p{N}]/u.test(text) };
}

/**
 * Chooses the fragment to display (seed 004, the override rule): the `summary` override
 * when, after whitespace folding, it says something other than the first paragraph (the
 * capped fragment or the whole folded paragraph); otherwise the derived fragment with a
 * `summary_repeats_body` note. A derived fragment in use that hit the cap or is empty gives
 * `summary_at_cap` / `summary_empty`. An override over 512 bytes is cut the same way as a
 * derived one (`summary_too_long`); the entry keeps the override as written.
 *
 * @param override - the `summary` field, when the file has one (non-blank).
 * @param body - the entry body.
 * @returns the fragment and the notes about it.
 */
export function resolveSummary(
  override: string | undefined,
  body: string,
): { summary: string; notes: SummaryNote[] } {
  const derived = deriveSummary(body);
  const notes: SummaryNote[] = [];
  if (override !== undefined) {
    const folded = foldWhitespace(override);
    const repeats =
      folded === derived.summary ||
      (derived.atCap &&
        folded.startsWith(derived.summary) &&
        folded === foldWhitespace(firstParagraph(body)));
    if (!repeats) {
      const { text, cut } = capUtf8(folded, LIMITS.summaryBytes);
      if (cut) notes.push({ code: "summary_too_long", params: { limit: LIMITS.summaryBytes } });
      return { summary: text, notes };
    }
    notes.push({ code: "summary_repeats_body", params: {} });
  }
  if (derived.atCap) notes.push({ code: "summary_at_cap", params: { limit: LIMITS.summaryBytes } });
  if (derived.empty) notes.push({ code: "summary_empty", params: {} });
  return { summary: derived.summary, notes };
}
