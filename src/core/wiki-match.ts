/**
 * Substring matching for wiki pages (seed 000 "Matching semantics": substring,
 * case-insensitive, over `slug` + `title` first, then the body for a snippet ~80 characters
 * around the match; issue 4 adds `ё` ≡ `е`). Pure.
 */

/** Characters of a snippet (seed 000: "~80 char вокруг матча"). */
export const SNIPPET_CHARS = 80;

/**
 * Folds text for matching while keeping every UTF-16 offset in place: lower case where the
 * lower-case form is one code unit, `ё`/`Ё` → `е`. A match offset in the folded text is the
 * same offset in the original, so a snippet can be cut from the original text.
 *
 * @param text - any string.
 * @returns a string of the same length.
 */
export function foldForMatch(text: string): string {
  // Lower-casing never shortens a string, so an equal length means every offset kept.
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower.includes("ё") ? lower.replaceAll("ё", "е") : lower;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "ё" || ch === "Ё") {
      out += "е";
      continue;
    }
    const lower = ch.toLowerCase();
    out += lower.length === 1 ? lower : ch;
  }
  return out;
}

/**
 * Tells whether `query` occurs in any of `fields` (folded as {@link foldForMatch}). An empty
 * or blank query matches everything (seed 001 Task 3: `query: ''` lists every entry).
 *
 * @param fields - the texts to look in (e.g. slug and title).
 * @param query - the substring, as the caller typed it; trimmed.
 */
export function matchesAny(fields: readonly string[], query: string): boolean {
  const q = foldForMatch(query.trim());
  if (q === "") return true;
  return fields.some((field) => foldForMatch(field).includes(q));
}

/** Collapses runs of whitespace (line ends included) into one space. */
function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * A snippet of a page body around the first match of `query` (folded as
 * {@link foldForMatch}): about `width` characters centred on the match, whitespace
 * collapsed, `…` where text was cut. When the body does not contain the query (the page
 * matched by slug or title) or the query is blank, the snippet is the body's beginning.
 * Pass the body without its frontmatter (`parseWikiPage(text).body`).
 *
 * @param body - the page's markdown body.
 * @param query - the substring.
 * @param width - characters to show. Default: {@link SNIPPET_CHARS}.
 * @returns the snippet; empty for an empty body.
 */
export function snippetAround(body: string, query: string, width = SNIPPET_CHARS): string {
  const q = foldForMatch(query.trim());
  const at = q === "" ? -1 : foldForMatch(body).indexOf(q);
  if (at < 0) {
    const head = squash(body.slice(0, width * 4));
    return head.length > width ? `${head.slice(0, width).trimEnd()}…` : head;
  }
  // A window of `width` centred on the match, slid inside the body near either end.
  const half = Math.max(0, Math.floor((width - q.length) / 2));
  let start = Math.max(0, at - half);
  const end = Math.min(body.length, Math.max(at + q.length, start + width));
  start = Math.max(0, Math.min(start, end - width));
  const core = squash(body.slice(start, end));
  return `${start > 0 ? "…" : ""}${core}${end < body.length ? "…" : ""}`;
}
