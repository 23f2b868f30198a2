import { type Dirent, readdirSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ParsedEntry } from "../../core/entry/entry.js";
import { deriveSummary } from "../../core/entry/summary.js";
import { capBytes, listHeadings } from "../../core/import/import-rule-split.js";
import { wikiRepoName } from "../../core/recall/hit-source.js";
import { parseWikiPage } from "../../core/wiki/wiki-page.js";
import type { EntryIndex } from "../../index/entry-index.js";
import { listMarkdownFiles } from "../files/list-markdown-files.js";
import { MAX_FILE_BYTES } from "../roots/knowledge-files.js";
import { gitBlobSha } from "./index-folder.js";

/** What one run did. */
export interface WikiIndexRun {
  /** The index repository name the pages are stored under. */
  repo: string;
  /** Pages stored (new or changed). */
  indexed: number;
  /** Pages unchanged since the last run. */
  unchanged: number;
  /** Pages dropped (gone from the disk). */
  removed: number;
}

/** Files at the top of a wiki that are not pages. */
const NOT_PAGES = new Set(["index.md", "log.md"]);

/** Largest summary of a page, bytes (the entry limit). */
const SUMMARY_BYTES = 512;

/**
 * Indexes the pages of `<projectDir>/.wiki/` (see the module header).
 *
 * @param index - the index.
 * @param projectDir - the current project's folder, absolute.
 * @returns what was done.
 */
export async function indexProjectWiki(
  index: EntryIndex,
  projectDir: string,
): Promise<WikiIndexRun> {
  const repo = wikiRepoName(projectDir);
  const run: WikiIndexRun = { repo, indexed: 0, unchanged: 0, removed: 0 };
  const base = join(projectDir, ".wiki");
  const paths = (await listPages(base)) ?? [];
  const stored = index.listFiles(repo);
  const seen = new Set<string>();
  for (const path of paths) {
    const bytes = await readFile(join(base, ...path.split("/"))).catch(() => null);
    if (bytes === null || bytes.length > MAX_FILE_BYTES) continue;
    seen.add(path);
    const sha = gitBlobSha(bytes);
    if (stored.get(path) === sha) {
      run.unchanged++;
      continue;
    }
    const parsed = wikiPageEntry(projectDir, path, new TextDecoder().decode(bytes));
    index.putFile({ repo, path, blobSha: sha, parsed, diagnostics: [] });
    run.indexed++;
  }
  for (const path of stored.keys()) {
    if (!seen.has(path)) {
      index.deleteFile(repo, path);
      run.removed++;
    }
  }
  return run;
}

/**
 * A cheap fingerprint of a project's wiki: the modification times (ms) of `.wiki/`, its
 * folders one level down, `index.md` and `log.md` — what a page written, added or removed
 * through `knowledge_ingest` (or an editor that saves by renaming) changes.
 *
 * Synchronous, like the HEAD watch (`adapters/git-cli/head-watch.ts`): a server takes it
 * before every recall, and a handful of `stat` calls of a few µs each cost less than the
 * two hops through libuv's thread pool of an asynchronous `readdir` and `stat` — hops that
 * a busy machine stretches to milliseconds (the tail of recall over MCP).
 *
 * @param projectDir - the project's folder.
 * @returns the fingerprint; `""` when there is no `.wiki/` (never throws).
 */
export function wikiFingerprint(projectDir: string): string {
  const base = join(projectDir, ".wiki");
  let top: Dirent[];
  try {
    top = readdirSync(base, { withFileTypes: true });
  } catch {
    return "";
  }
  const names = [
    "",
    ...top.filter((e) => e.isDirectory() || NOT_PAGES.has(e.name)).map((e) => e.name),
  ];
  return names
    .map((name) => {
      try {
        return `${name}:${statSync(join(base, name)).mtimeMs}`;
      } catch {
        return `${name}:-`;
      }
    })
    .join("|");
}

/**
 * A wiki page as a text-only entry (see the module header).
 *
 * @param projectDir - the project's folder.
 * @param path - the page's path under `.wiki/` (`concepts/foo.md`).
 * @param text - the page's text.
 */
export function wikiPageEntry(projectDir: string, path: string, text: string): ParsedEntry {
  const page = parseWikiPage(text);
  const body = page.body;
  const slug = path.replace(/\.md$/u, "");
  const title = page.meta.title ?? listHeadings(body).find((h) => h.level <= 2)?.text ?? slug;
  const paragraph = deriveSummary(body.replace(/^\s*#{1,6}[ \t].*$/mu, "")).summary;
  const lead =
    paragraph === "" || paragraph.startsWith(title) ? paragraph : `${title} — ${paragraph}`;
  return {
    entry: {
      id: `wiki:${projectDir}:${slug}`,
      contract: [],
      origin: "human",
      links: [],
      unknownKeys: {},
      body: body.trim() === "" ? title : body,
    },
    summary: capBytes(lead === "" ? title : lead, SUMMARY_BYTES),
    reachable: false,
    unmetMechanisms: [],
  };
}

/** The `.md` pages under a wiki folder (not its top-level index and log), sorted; null when missing. */
async function listPages(base: string): Promise<string[] | null> {
  const files = await listMarkdownFiles(base);
  return files === null ? null : files.filter((path) => path.includes("/") || !NOT_PAGES.has(path));
}
