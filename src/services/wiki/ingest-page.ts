import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { slugify } from "../../core/roots/hot-sections.js";
import {
  freshIndexMd,
  insertIndexEntry,
  slugType,
  type WikiPageType,
} from "../../core/wiki/wiki-index.js";
import { throwIfCancelled } from "../../core/wiki/wiki-limits.js";
import { formatWikiPage } from "../../core/wiki/wiki-page.js";
import { wikiPageFile } from "../../core/wiki/wiki-slug.js";
import { refuseSecrets } from "../safety/scan-secrets.js";
import { appendWikiLog, updateWikiFile } from "./wiki-log.js";
import type { WikiStore } from "./wiki-store.js";

/** Largest page body accepted, bytes of UTF-8 (as an entry file: 64 KB). */
export const INGEST_MAX_BODY_BYTES = 64 * 1024;

/** The input of `knowledge.ingest` (federation, “Tools”). */
export interface IngestInput {
  /** The page's title (frontmatter `title` and the index line). */
  title: string;
  /** The page type: its folder and index section. */
  type: WikiPageType;
  /** The markdown body (no frontmatter; it is written from the other fields). */
  body: string;
  /**
   * The slug: `name`, `nested/name` or `type/name`; default: the title in lower case,
   * letters and digits joined by `-`. The type prefix is added when missing.
   */
  slug?: string;
  /** Write into this repository's `.wiki/` through the forge instead of the current project's. */
  target_project?: string;
}

/** What {@link ingestPage} did. */
export interface IngestResult {
  /** Slug with its type prefix. */
  slug: string;
  /** The repository written through the forge, or `null` for the current project's folder. */
  project: string | null;
  /** Where the wiki is: a folder, or `<project>:.wiki`. */
  wiki: string;
  /** The page's file relative to the wiki, `<slug>.md`. */
  file: string;
  /** True when the page is new; false when an existing page was replaced. */
  created: boolean;
  /** True when index.md changed (a new line, or a new title). */
  index_updated: boolean;
}

/**
 * The slug a page gets (see {@link IngestInput.slug}).
 *
 * @throws LoreError `invalid_slug` when the slug's type prefix names another type, or the
 *   title has no letter or digit to make one from.
 */
export function resolveSlug(input: { title: string; type: WikiPageType; slug?: string }): string {
  const given = input.slug?.trim().replace(/\.md$/, "");
  if (given === undefined || given === "") {
    const name = slugify(input.title).slice(0, 80).replace(/-+$/, "");
    if (name === "") {
      throw new LoreError("invalid_slug", {
        slug: input.title,
        reason: "the title has no letter or digit to make a slug from; pass `slug`",
        reason_ru: "в заголовке нет букв и цифр для slug; передайте `slug`",
      });
    }
    return `${input.type}/${name}`;
  }
  const prefix = slugType(given);
  if (prefix === input.type) return given;
  if (prefix !== null) {
    throw new LoreError("invalid_slug", {
      slug: given,
      reason: `its type prefix “${prefix}” is not the page type “${input.type}”`,
      reason_ru: `его префикс типа «${prefix}» не совпадает с типом страницы «${input.type}»`,
    });
  }
  return `${input.type}/${given}`;
}

/**
 * `knowledge.ingest` (federation, “Tools”; DESIGN.md "wiki"): writes a page into a wiki — the
 * current project's `.wiki/` folder, or a repository's `.wiki/` through the forge — then
 * puts its line in `index.md` with the canonical writer (a fresh index, and `overview.md`,
 * when the wiki has none) and appends `## [date] ingest | <slug> — <title>` to `log.md`.
 * An existing page at the slug is replaced (re-ingest updates knowledge). Parallel ingests
 * lose nothing: in a folder the index.md/log.md read-modify-write holds the wiki's lock
 * (`store.exclusive`); on a forge each file is one commit, and index.md and log.md are
 * re-read and retried when another writer got in between. `signal`: a cancel before the
 * page is written writes nothing (LoreError `cancelled`); once the page is written its
 * index and log lines follow.
 *
 * @param store - the wiki written to.
 * @param input - see {@link IngestInput} (`target_project` only names the result's project).
 * @param now - the time written to `updated` and the log.
 * @returns what was done.
 * @throws LoreError `invalid_input` (empty title or body, body over 64 KB), `invalid_slug`,
 *   `secret_detected` (`data: {line, rule}`, a line of the page's file, frontmatter
 *   included: the secret guard scans the page before anything is written), `cancelled`,
 *   the store's errors (`forge_conflict`, `forge_not_found` …).
 */
export async function ingestPage(
  store: WikiStore,
  input: IngestInput,
  now: Date,
  signal?: AbortSignal,
): Promise<IngestResult> {
  throwIfCancelled(signal);
  const title = input.title.replace(/\s+/g, " ").trim();
  if (title === "" || input.body.trim() === "") {
    throw new LoreError("invalid_input", {
      reason: "title and body must not be empty",
      reason_ru: "title и body не должны быть пустыми",
    });
  }
  if (Buffer.byteLength(input.body, "utf8") > INGEST_MAX_BODY_BYTES) {
    throw new LoreError("invalid_input", {
      reason: `body is over ${INGEST_MAX_BODY_BYTES} bytes; split the page`,
      reason_ru: `body больше ${INGEST_MAX_BODY_BYTES} байт; разделите страницу`,
    });
  }
  const slug = resolveSlug(input);
  const file = wikiPageFile(slug);
  // Validates the slug for the index before anything is written.
  insertIndexEntry(freshIndexMd(), { slug, title });
  const text = formatWikiPage({
    title,
    type: input.type,
    updated: now.toISOString().slice(0, 10),
    body: input.body,
  });
  await refuseSecrets(text);
  const existing = await store.read(file);
  // The last point where a cancel leaves nothing written; past it the page, its index line
  // and its log line are written together, so the wiki never holds half an ingest.
  throwIfCancelled(signal);
  if (existing === null || existing.content !== text) {
    await store.write(file, text, {
      message: `wiki: ingest ${slug}`,
      ...(existing?.sha === undefined ? {} : { sha: existing.sha }),
    });
  }
  const indexUpdated = await store.exclusive(async () => {
    const hadIndex = (await store.read("index.md")) !== null;
    const updated = await updateWikiFile(
      store,
      "index.md",
      (md) => insertIndexEntry(md, { slug, title }),
      `wiki: index ${slug}`,
    );
    if (!hadIndex && (await store.read("overview.md")) === null) {
      await store
        .write("overview.md", "# Overview\n", { message: "wiki: overview" })
        .catch((error: unknown) => {
          // Another writer made it first (a forge refuses a second create): that is fine.
          if (!(isLoreError(error) && error.code === "forge_conflict")) throw error;
        });
    }
    await appendWikiLog(store, now, "ingest", `${slug} — ${title}`);
    return updated;
  });
  return {
    slug,
    project: input.target_project ?? null,
    wiki: store.where,
    file,
    created: existing === null,
    index_updated: indexUpdated,
  };
}
