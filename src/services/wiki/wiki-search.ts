import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { parseWikiIndex, slugType, type WikiPageType } from "../../core/wiki/wiki-index.js";
import { matchesAny, matchNames, snippetAround } from "../../core/wiki/wiki-match.js";
import { parseWikiPage } from "../../core/wiki/wiki-page.js";
import { wikiPageFile } from "../../core/wiki/wiki-slug.js";
import { ASK_DEFAULT_TYPES } from "../federation/ask-projects.js";
import type { WikiStore } from "./wiki-store.js";

/** Default hits of a shared-wiki search. */
export const SEARCH_DEFAULT_LIMIT = 10;
/** Largest `limit` of a shared-wiki search. */
export const SEARCH_MAX_LIMIT = 50;

/** The input of {@link searchWiki} (`knowledge.search(query, limit?, types?)`). */
export interface WikiSearchInput {
  /** Substring to find, case-insensitive, `ё` ≡ `е`; must hold a non-blank character. */
  query: string;
  /** Most hits, 1–{@link SEARCH_MAX_LIMIT}. Default: {@link SEARCH_DEFAULT_LIMIT}. */
  limit?: number;
  /** Page types to search. Default: every type but `raw` (as ask_projects). */
  types?: WikiPageType[];
}

/** One page that matched. */
export interface WikiSearchHit {
  slug: string;
  type: WikiPageType;
  title: string;
  /** ~80 characters around the first match in the body (the body's start when it matched by name). */
  snippet: string;
  /** Where the query was found first: the slug or title, else the body. */
  matched: "name" | "body";
}

/** The answer of {@link searchWiki}. */
export interface WikiSearchAnswer {
  query: string;
  /** Name matches first (more query words in the title first, then slug order), then body matches in slug order; at most `limit`. */
  results: WikiSearchHit[];
  /** How many pages matched in all. */
  total: number;
}

/** One page of a wiki. */
export interface WikiPage {
  slug: string;
  type: WikiPageType | null;
  /** From the frontmatter, else the index line, else the slug. */
  title: string;
  /** The raw markdown file, frontmatter included. */
  body: string;
}

/** `null` for a page over its size limit (left out); any other error is thrown again. */
function skipTooLarge(error: unknown): null {
  if (isLoreError(error) && error.code === "remote_file_too_large") return null;
  throw error;
}

/** Titles of the wiki's index lines by slug (empty when there is no index). */
async function indexTitles(store: WikiStore): Promise<Map<string, string>> {
  const index = await store.read("index.md");
  return new Map(parseWikiIndex(index?.content ?? "").map((e) => [e.slug, e.title] as const));
}

/**
 * `knowledge.search` (seed 000 "Problem", "Matching semantics"; federation, “Tools”): the shared
 * wiki only — substring, case-insensitive with `ё` ≡ `е`, over each page's slug and title
 * first, then its body; a snippet of ~80 characters around the match. A query of several
 * words matches by name when every word is in the slug or the title (more words in the
 * title rank first), else by body when every word is in the slug, title or body.
 *
 * @param store - the shared wiki (a folder store: it must list pages).
 * @param input - see {@link WikiSearchInput}.
 * @returns hits and the total.
 * @throws LoreError `empty_query` for a blank query.
 */
export async function searchWiki(
  store: WikiStore,
  input: WikiSearchInput,
): Promise<WikiSearchAnswer> {
  if (input.query.trim() === "") throw new LoreError("empty_query");
  const limit = input.limit ?? SEARCH_DEFAULT_LIMIT;
  const titles = await indexTitles(store);
  const files = (await store.listPages(input.types ?? ASK_DEFAULT_TYPES)) ?? [];
  const byName: WikiSearchHit[] = [];
  const byBody: WikiSearchHit[] = [];
  const rank = new Map<string, number>();
  for (const file of files) {
    const slug = file.slice(0, -".md".length);
    const type = slugType(slug);
    // A page over the size limit is left out of the search, not the whole answer.
    const text = (await store.read(file).catch(skipTooLarge))?.content;
    if (type === null || text === undefined) continue;
    const page = parseWikiPage(text);
    const title = page.meta.title ?? titles.get(slug) ?? slug;
    const hit = { slug, type, title, snippet: snippetAround(page.body, input.query) };
    const names = matchNames({ slug, title }, input.query);
    if (names.matched) {
      byName.push({ ...hit, matched: "name" });
      rank.set(slug, names.inTitle);
    } else if (matchesAny([slug, title, page.body], input.query))
      byBody.push({ ...hit, matched: "body" });
  }
  // More of the query's words in the title first; files come in slug order already.
  byName.sort((a, b) => (rank.get(b.slug) ?? 0) - (rank.get(a.slug) ?? 0));
  const all = [...byName, ...byBody];
  return { query: input.query, results: all.slice(0, limit), total: all.length };
}

/**
 * `knowledge.get(slug)`: one page of a wiki, raw.
 *
 * @param store - the wiki.
 * @param slug - `type/name`, e.g. `concepts/foo`.
 * @throws LoreError `invalid_slug`, `page_not_found`.
 */
export async function getWikiPage(store: WikiStore, slug: string): Promise<WikiPage> {
  const file = wikiPageFile(slug);
  const text = await store.read(file);
  if (text === null) throw new LoreError("page_not_found", { where: `${store.where}/${file}` });
  const title =
    parseWikiPage(text.content).meta.title ?? (await indexTitles(store)).get(slug) ?? slug;
  return { slug, type: slugType(slug), title, body: text.content };
}
