/**
 * Substring matching for wiki pages (seed 000 "Matching semantics": substring,
 * case-insensitive, over `slug` + `title` first, then the body for a snippet ~80 characters
 * around the match; federation adds `ё` ≡ `е`). Pure.
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
 * The words of a query for wiki matching: split on whitespace, folded as
 * {@link foldForMatch}, duplicates dropped, in the order typed. Every word counts, however
 * short (a two-letter word such as `ci` is a word like any other).
 *
 * @param query - the query as typed.
 * @returns the folded words; `[]` for a blank query.
 */
export function queryWords(query: string): string[] {
  const words = foldForMatch(query)
    .split(/\s+/)
    .filter((w) => w !== "");
  return [...new Set(words)];
}

/** How a page's names matched a query (see {@link matchNames}). */
export interface NameMatch {
  /** True when every word of the query is a substring of the slug or of the title. */
  matched: boolean;
  /** How many of the query's words occur in the title (the rank: more is better). */
  inTitle: number;
}

/**
 * Multi-word matching of a page's slug and title (seed 000 "Matching semantics": substring,
 * case-insensitive, over slug + title; `ё` ≡ `е`): the page matches when every word of the
 * query is a substring of the slug or of the title, in any order — `yarn windows` and
 * `Windows yarn` both find `concepts/yarn-windows — Yarn on Windows`. A one-word query is
 * the seed's plain substring test. A blank query matches every page (seed 001 Task 3:
 * `query: ''` lists every entry). Pure.
 *
 * @param names - the page's slug and title.
 * @param query - the query as typed.
 * @returns whether it matched and how many words are in the title.
 */
export function matchNames(names: { slug: string; title: string }, query: string): NameMatch {
  const words = queryWords(query);
  const slug = foldForMatch(names.slug);
  const title = foldForMatch(names.title);
  let inTitle = 0;
  for (const word of words) {
    const t = title.includes(word);
    if (t) inTitle++;
    else if (!slug.includes(word)) return { matched: false, inTitle: 0 };
  }
  return { matched: true, inTitle };
}

/**
 * Tells whether every word of `query` (see {@link queryWords}) occurs in at least one of
 * `fields` (folded as {@link foldForMatch}). An empty or blank query matches everything
 * (seed 001 Task 3: `query: ''` lists every entry).
 *
 * @param fields - the texts to look in (e.g. slug and title, or slug, title and body).
 * @param query - the query, as the caller typed it.
 */
export function matchesAny(fields: readonly string[], query: string): boolean {
  const words = queryWords(query);
  if (words.length === 0) return true;
  const folded = fields.map(foldForMatch);
  return words.every((word) => folded.some((field) => field.includes(word)));
}

/** Collapses runs of whitespace (line ends included) into one space. */
function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * A snippet of a page body around the first match of `query` (folded as
 * {@link foldForMatch}; when the body lacks the whole query, its first word the body
 * holds): about `width` characters centred on the match, whitespace
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
  const folded = foldForMatch(body);
  // The whole query when the body holds it, else its first word that the body holds.
  let q = foldForMatch(query.trim());
  let at = q === "" ? -1 : folded.indexOf(q);
  if (at < 0 && q !== "") {
    for (const word of queryWords(query)) {
      at = folded.indexOf(word);
      if (at >= 0) {
        q = word;
        break;
      }
    }
  }
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
