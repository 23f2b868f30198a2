import type { LocalizedText } from "../../core/errors/localized-text.js";
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import {
  insertIndexEntry,
  parseWikiIndex,
  slugType,
  type WikiPageType,
} from "../../core/wiki/wiki-index.js";
import { parseWikiPage } from "../../core/wiki/wiki-page.js";
import { wikiPageFile } from "../../core/wiki/wiki-slug.js";
import { ASK_DEFAULT_TYPES } from "../federation/ask-projects.js";
import { appendWikiLog, updateWikiFile } from "./wiki-log.js";
import type { WikiStore } from "./wiki-store.js";

/**
 * Why a page is worth promoting:
 * - `absent` — the shared wiki has no page at this slug;
 * - `not_in_index` — it has the page file, but its index does not list it.
 */
export type PromoteReason = "absent" | "not_in_index";

/** One page of the current project's wiki that the shared wiki lacks. */
export interface PromoteSuggestion {
  slug: string;
  type: WikiPageType;
  title: string;
  reason: PromoteReason;
  /** The reason in words, for the agent (English). */
  why: string;
}

/** A folder `suggest_promote` did not look into, and why (a value, never thrown). */
export interface PromoteNotice {
  /** `symlinked_type_folder`: a type folder of the project's wiki is a symbolic link. */
  code: "symlinked_type_folder";
  /** The folder, relative to the wiki (e.g. `concepts`). */
  folder: string;
  /** What was done, in English and Russian. */
  message: LocalizedText;
}

/** What {@link suggestPromoteReport} gives back. */
export interface PromoteReport {
  suggestions: PromoteSuggestion[];
  /** Folders skipped, each with a reason; empty when none. */
  notices: PromoteNotice[];
}

/** What {@link promotePage} did. */
export interface PromoteResult {
  slug: string;
  title: string;
  /** The shared wiki's folder. */
  wiki: string;
  /** True when the page file was copied (false: the shared wiki had the same text already). */
  copied: boolean;
  /** True when the shared index.md changed. */
  index_updated: boolean;
}

const WHY: Record<PromoteReason, string> = {
  absent: "the shared wiki has no page with this slug",
  not_in_index: "the shared wiki has the page file but its index.md does not list it",
};

/** A page over its size limit exists (with no text to show): any other error is thrown. */
function presentWhenTooLarge(error: unknown): { content: string } {
  if (isLoreError(error) && error.code === "remote_file_too_large") return { content: "" };
  throw error;
}

/** A project's pages: files under the type folders (raw left out) and index lines, by slug. */
async function projectPages(project: WikiStore): Promise<Map<string, string | undefined>> {
  const pages = new Map<string, string | undefined>();
  const index = await project.read("index.md");
  const listed = parseWikiIndex(index?.content ?? "").filter((e) => e.type !== "raw");
  const files = (await project.listPages(ASK_DEFAULT_TYPES)) ?? [];
  for (const file of files) pages.set(file.slice(0, -".md".length), undefined);
  for (const entry of listed) if (pages.has(entry.slug)) pages.set(entry.slug, entry.title);
  return pages;
}

/**
 * `knowledge.suggest_promote()` (federation, “Tools”): the pages of the current project's wiki
 * (files under `entities/`, `concepts/`, `packages/`, `sources/`; `raw/` left out) that the
 * shared wiki lacks, each with a reason (see {@link PromoteReason}), in slug order.
 *
 * @param project - the current project's wiki (a folder store).
 * @param shared - the shared wiki (a folder store).
 */
export async function suggestPromote(
  project: WikiStore,
  shared: WikiStore,
): Promise<PromoteSuggestion[]> {
  const sharedIndex = new Set(
    parseWikiIndex((await shared.read("index.md"))?.content ?? "").map((e) => e.slug),
  );
  const out: PromoteSuggestion[] = [];
  for (const [slug, indexTitle] of [...(await projectPages(project))].sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    const type = slugType(slug);
    if (type === null) continue;
    const inShared = (await shared.read(`${slug}.md`).catch(presentWhenTooLarge)) !== null;
    const reason: PromoteReason | null = !inShared
      ? "absent"
      : sharedIndex.has(slug)
        ? null
        : "not_in_index";
    if (reason === null) continue;
    const text = (await project.read(`${slug}.md`).catch(presentWhenTooLarge))?.content ?? "";
    const title = parseWikiPage(text).meta.title ?? indexTitle ?? slug;
    out.push({ slug, type, title, reason, why: WHY[reason] });
  }
  return out;
}

/**
 * {@link suggestPromote} with the folders it skipped: a type folder of the project's wiki
 * that is a symbolic link (its pages could lie outside the wiki) is not listed and gets a
 * `symlinked_type_folder` notice instead of failing the whole answer.
 *
 * @param project - the current project's wiki (a folder store).
 * @param shared - the shared wiki (a folder store).
 */
export async function suggestPromoteReport(
  project: WikiStore,
  shared: WikiStore,
): Promise<PromoteReport> {
  const suggestions = await suggestPromote(project, shared);
  const notices: PromoteNotice[] = (project.skippedLinks ?? []).map((folder) => ({
    code: "symlinked_type_folder",
    folder,
    message: {
      en: `${folder}/ is a symbolic link and was skipped: its pages could lie outside the wiki`,
      ru: `${folder}/ — символическая ссылка, пропущена: её страницы могут лежать вне вики`,
    },
  }));
  return { suggestions, notices };
}

/**
 * `knowledge.promote(slug)` (federation, “Tools”): copies a page of the current project's wiki
 * into the shared wiki at the same slug, puts its line in the shared `index.md` (canonical
 * writer) and appends `## [date] promote | <slug> — <title>` to the shared `log.md`.
 * Promoting again is harmless: the same text is not rewritten, the index line not doubled.
 *
 * @param project - the current project's wiki.
 * @param shared - the shared wiki.
 * @param slug - the page, `type/name`.
 * @param now - the time written to the log.
 * @throws LoreError `invalid_slug`, `page_not_found` (not in the project's wiki),
 *   `file_exists` (the shared wiki has a different page at this slug).
 */
export async function promotePage(
  project: WikiStore,
  shared: WikiStore,
  slug: string,
  now: Date,
): Promise<PromoteResult> {
  const file = wikiPageFile(slug);
  const page = await project.read(file);
  if (page === null) throw new LoreError("page_not_found", { where: `${project.where}/${file}` });
  const indexTitle = parseWikiIndex((await project.read("index.md"))?.content ?? "").find(
    (e) => e.slug === slug,
  )?.title;
  const title = parseWikiPage(page.content).meta.title ?? indexTitle ?? slug;
  // Validates that the slug can be an index line before anything is written.
  insertIndexEntry("", { slug, title });
  const there = await shared.read(file);
  if (there !== null && there.content !== page.content) {
    throw new LoreError("file_exists", { path: `${shared.where}/${file}` });
  }
  if (there === null) await shared.write(file, page.content, { message: `wiki: promote ${slug}` });
  // Parallel promotes lose nothing: the shared index.md/log.md change under its lock.
  const indexUpdated = await shared.exclusive(async () => {
    const updated = await updateWikiFile(
      shared,
      "index.md",
      (md) => insertIndexEntry(md, { slug, title }),
      `wiki: index ${slug}`,
    );
    if (there === null || updated)
      await appendWikiLog(shared, now, "promote", `${slug} — ${title}`);
    return updated;
  });
  return { slug, title, wiki: shared.where, copied: there === null, index_updated: indexUpdated };
}
