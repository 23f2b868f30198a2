import { dump } from "js-yaml";
import { loadFrontmatter, splitFrontmatter } from "../entry/yaml-frontmatter.js";

/**
 * The frontmatter keys a wiki page may carry (federation, “The wiki layout”): all optional,
 * read leniently — a key of the wrong type is dropped, unknown keys are ignored.
 */
export interface WikiPageMeta {
  /** The page's title; when absent, the index line's title is used. */
  title?: string;
  /** The page type as written (e.g. `concepts`); not checked against the slug. */
  type?: string;
  /** Where the knowledge came from (URLs, paths); a single string is read as a one-item list. */
  sources?: string[];
  /** When the page was last updated, as written (e.g. `2026-04-30`). */
  updated?: string;
}

/** A wiki page file split into its frontmatter and body. */
export interface WikiPage {
  /** What was read from the frontmatter (`{}` when there is none or it is broken). */
  meta: WikiPageMeta;
  /** The markdown after the frontmatter (the whole text when there is no frontmatter), LF line ends. */
  body: string;
  /** Why the frontmatter was not read (English), when it was there but broken; absent otherwise. */
  problem?: string;
}

const scalarText = (value: unknown): string | undefined =>
  typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : undefined;

/**
 * Parses a wiki page: optional `---` frontmatter (YAML 1.2 core schema with Lore's alias
 * and size limits, `yaml-frontmatter.ts`), then the body. Lenient: never throws; a broken
 * frontmatter gives `meta: {}`, the body after its closing fence (or the whole text when
 * unterminated) and a `problem`.
 *
 * @param text - the file's text (LF or CRLF; a BOM is dropped).
 * @returns `{ meta, body, problem? }`.
 */
export function parseWikiPage(text: string): WikiPage {
  const lf = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const parts = splitFrontmatter(lf);
  if (parts === "no_frontmatter") return { meta: {}, body: lf };
  if (parts === "unterminated_frontmatter")
    return { meta: {}, body: lf, problem: "the frontmatter is never closed by a `---` line" };
  const loaded = loadFrontmatter(parts.yaml);
  if (loaded.value === undefined)
    return {
      meta: {},
      body: parts.body,
      problem: loaded.diagnostics[0]?.message.en ?? "broken frontmatter",
    };
  const raw = loaded.value;
  const meta: WikiPageMeta = {};
  const title = scalarText(raw.title);
  if (title !== undefined && title.trim() !== "") meta.title = title.trim();
  const type = scalarText(raw.type);
  if (type !== undefined) meta.type = type;
  const updated = scalarText(raw.updated);
  if (updated !== undefined) meta.updated = updated;
  const sources = Array.isArray(raw.sources)
    ? raw.sources
    : raw.sources === undefined
      ? []
      : [raw.sources];
  const sourceTexts = sources.map(scalarText).filter((s): s is string => s !== undefined);
  if (sourceTexts.length > 0) meta.sources = sourceTexts;
  return { meta, body: parts.body };
}

/**
 * The title to show for a page: the frontmatter's `title`, else the index line's title,
 * else the slug (federation: "a page's title comes from the frontmatter, else the index line").
 *
 * @param page - from {@link parseWikiPage}.
 * @param fallback - the index line's title, or the slug.
 */
export function wikiPageTitle(page: WikiPage, fallback: string): string {
  return page.meta.title ?? fallback;
}

/**
 * The frontmatter `title` of a page's text, if it has one (shorthand of
 * {@link parseWikiPage}`(text).meta.title`).
 *
 * @param text - the page file's text.
 * @returns the title, or `undefined`.
 */
export function pageTitle(text: string): string | undefined {
  return parseWikiPage(text).meta.title;
}

/**
 * Formats a page file: frontmatter with the given keys in the order title, type, sources,
 * updated (absent keys left out), a blank line, the body with one final newline.
 * Two call forms: `formatWikiPage({ ...meta, body })` or `formatWikiPage(meta, body)`.
 *
 * @param page - the frontmatter values (and `body` in the one-argument form).
 * @param bodyText - the markdown body (two-argument form).
 * @returns the file text, LF line ends.
 */
export function formatWikiPage(page: WikiPageMeta & { body: string }): string;
export function formatWikiPage(meta: WikiPageMeta, body: string): string;
export function formatWikiPage(page: WikiPageMeta & { body?: string }, bodyText?: string): string {
  const { body: inner, ...meta } = page;
  const body = bodyText ?? inner ?? "";
  const ordered: Record<string, unknown> = {};
  if (meta.title !== undefined) ordered.title = meta.title;
  if (meta.type !== undefined) ordered.type = meta.type;
  if (meta.sources !== undefined && meta.sources.length > 0) ordered.sources = meta.sources;
  if (meta.updated !== undefined) ordered.updated = meta.updated;
  const text = body.replace(/\r\n?/g, "\n").replace(/^\n+/, "").trimEnd();
  const yaml =
    Object.keys(ordered).length === 0 ? "" : dump(ordered, { lineWidth: -1, noRefs: true });
  return `${yaml === "" ? "" : `---\n${yaml}---\n\n`}${text}\n`;
}
