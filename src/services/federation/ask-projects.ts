import type { Lang } from "../../core/errors/localized-text.js";
import { isLoreError } from "../../core/errors/lore-error.js";
import {
  parseWikiIndexWithReport,
  WIKI_PAGE_TYPES,
  type WikiIndexEntry,
  type WikiIndexReport,
  type WikiPageType,
} from "../../core/wiki/wiki-index.js";
import { checkWikiIndex } from "../../core/wiki/wiki-index-check.js";
import { throwIfCancelled } from "../../core/wiki/wiki-limits.js";
import { matchNames, snippetAround } from "../../core/wiki/wiki-match.js";
import { parseWikiPage } from "../../core/wiki/wiki-page.js";
import type { Backend } from "../../ports/forge.js";
import { mapWithConcurrency } from "./bounded-pool.js";
import type { CacheFile } from "./projects-cache.js";

/** Default matches per project (seed 000 "Input": `limit` default `5`). */
export const ASK_DEFAULT_LIMIT = 5;
/** Largest `limit` (seed 000 "Input": `int (1–20)`). */
export const ASK_MAX_LIMIT = 20;
/**
 * Types searched when `types` is left out (seed 000 "Input": `raw` excluded by default —
 * heavy dumps; list it to include it).
 */
export const ASK_DEFAULT_TYPES: readonly WikiPageType[] = [
  "entities",
  "concepts",
  "packages",
  "sources",
];
/** Most page fetches in flight at once, over all projects of one question. */
export const ASK_FETCH_CONCURRENCY = 8;

/**
 * Seed 000 "Output", `next_action_hint`, with the tool names as exposed, in the answer's
 * language: English by default, the seed's Russian text for `ru`.
 *
 * @param names - the exposed names of get_from and tasks_create.
 * @param lang - the language. Default: `en`.
 */
export function askNextActionHint(
  names: { getFrom: string; createTask: string },
  lang: Lang = "en",
): string {
  if (lang === "ru")
    return (
      `${names.getFrom}(project, slug) для полного текста; ` +
      `${names.createTask}(target_project, body) если знание не оформлено`
    );
  return (
    `${names.getFrom}(project, slug) for the full text; ` +
    `${names.createTask}(target_project, body) if the knowledge is not written down`
  );
}

/** The per-project error strings of seed 000 "Error branches" (exact). */
export const ASK_ERRORS = {
  unknownProject: "unknown project — run sync first",
  noWiki: "no wiki — repo has no .wiki/index.md",
  fetchFailed: "(fetch failed)",
  pageMissing: "(page missing in repo)",
  malformed: (reason: string) => `wiki index malformed: ${reason}`,
  empty: "wiki index empty — .wiki/index.md lists no pages",
  unreadable: (reason: string) => `wiki index unreadable: ${reason}`,
  pageTooLarge: "(page over the size limit)",
} as const;

/** The input of {@link askProjects} (seed 000 "Input"), already validated by the edge. */
export interface AskProjectsInput {
  /** Substring to look for (case-insensitive, `ё` ≡ `е`); `""` matches every page. */
  query: string;
  /** Repository names to ask, at least one, in the order the answer lists them. */
  projects: string[];
  /** Matches per project, 1–{@link ASK_MAX_LIMIT}. Default: {@link ASK_DEFAULT_LIMIT}. */
  limit?: number;
  /** Page types to search. Default: {@link ASK_DEFAULT_TYPES} (`raw` left out). */
  types?: WikiPageType[];
  /** Language of `next_action_hint`. Default: `en`. */
  lang?: Lang;
  /**
   * The request's abort signal: once aborted, no further page read is started and the call
   * ends with LoreError `cancelled`.
   */
  signal?: AbortSignal;
}

/** One matching page (seed 000 "Output", `matches[]`). */
export interface AskMatch {
  /** Slug with its type prefix, e.g. `concepts/x`; pass it to get_from. */
  slug: string;
  type: WikiPageType;
  /** The index line's title. */
  title: string;
  /** ~80 characters of the page around the match; `(fetch failed)` or `(page missing in repo)`. */
  snippet: string;
}

/** One project's part of the answer: its matches, or why it could not be asked. */
export type AskProjectResult =
  | { project: string; matches: AskMatch[] }
  | { project: string; error: string };

/** The answer (seed 000 "Output"): exactly these fields. */
export interface AskProjectsAnswer {
  asked_projects: string[];
  results: AskProjectResult[];
  next_action_hint: string;
}

/** What {@link askProjects} needs. */
export interface AskProjectsDeps {
  /** The forge the pages are read from, live. */
  forge: Backend;
  /** Owner passed to the forge's reads (the Gitea user; ignored by the local forge). */
  owner: string;
  /** The synced cache (`null` when never synced: every project is then unknown). */
  cache: CacheFile | null;
  /** The hint's tool names. */
  names: { getFrom: string; createTask: string };
  /** Most page fetches at once. Default: {@link ASK_FETCH_CONCURRENCY}. */
  concurrency?: number;
  /**
   * Parses a project's cached index. Default: `parseWikiIndexWithReport`; the composition
   * root passes a memo (see {@link memoIndexParser}) so repeated questions parse once.
   */
  parseIndex?: (project: string, text: string) => WikiIndexReport;
}

/**
 * A parser of cached indexes that remembers the last report per project and reuses it
 * while the text is the same (the cache changes only at a sync).
 */
export function memoIndexParser(): (project: string, text: string) => WikiIndexReport {
  const memo = new Map<string, { text: string; report: WikiIndexReport }>();
  return (project, text) => {
    const hit = memo.get(project);
    if (hit !== undefined && hit.text === text) return hit.report;
    const report = parseWikiIndexWithReport(text);
    memo.set(project, { text, report });
    return report;
  };
}

/**
 * The entries whose slug and title hold every word of the query (see `matchNames`), the
 * ones with more of the words in the title first; equal ones keep the index order.
 */
export function rankByTitleWords(
  entries: readonly WikiIndexEntry[],
  query: string,
): WikiIndexEntry[] {
  return entries
    .map((entry, at) => ({ entry, at, match: matchNames(entry, query) }))
    .filter((m) => m.match.matched)
    .sort((a, b) => b.match.inTitle - a.match.inTitle || a.at - b.at)
    .map((m) => m.entry);
}

/** The index entries of one project that match, before their pages are fetched. */
type Plan =
  | { project: string; error: string }
  | { project: string; branch: string; entries: WikiIndexEntry[] };

/**
 * `knowledge.ask_projects` (seed 000 "Read flow ask_projects"): for each named project, in
 * the order given, filters its cached `.wiki/index.md` by `types` and by `query` (substring
 * of slug or title, case-insensitive, `ё` ≡ `е`), keeps the first `limit` entries in index
 * order, then fetches those pages live through the forge — in one bounded pool over all
 * projects — for a snippet around the match in the body.
 *
 * Partial success: a project the sync never saw answers `unknown project — run sync
 * first`; one without a wiki index (a synced repository that holds neither board nor wiki
 * included) `no wiki — repo has no .wiki/index.md`; one whose index sync could not read
 * `wiki index unreadable: <reason>` (e.g. over the size limit); one whose index lists no
 * page `wiki index empty — .wiki/index.md lists no pages`, or, when it links pages in a
 * form not read, `wiki index malformed: <reason>` (the first unreadable line) — never
 * `matches: []` for those; a page whose fetch fails keeps its slug and title with snippet
 * `(fetch failed)` (a deleted page: `(page missing in repo)`, one over 1 MiB:
 * `(page over the size limit)`); the other projects are answered as usual. A project
 * named twice is answered twice. A query of several words matches an entry when every
 * word is in its slug or title; entries with more of the words in the title come first.
 * Once `input.signal` is aborted no further page read starts.
 *
 * @param deps - see {@link AskProjectsDeps}.
 * @param input - see {@link AskProjectsInput}.
 * @returns `{ asked_projects, results, next_action_hint }`. Never throws for a project's
 *   failure.
 * @throws LoreError `cancelled` when `input.signal` was aborted.
 */
export async function askProjects(
  deps: AskProjectsDeps,
  input: AskProjectsInput,
): Promise<AskProjectsAnswer> {
  const limit = input.limit ?? ASK_DEFAULT_LIMIT;
  const allowed = new Set<WikiPageType>(input.types ?? ASK_DEFAULT_TYPES);
  const byName = new Map((deps.cache?.projects ?? []).map((p) => [p.name, p] as const));
  const skipped = new Set(deps.cache?.skipped ?? []);
  const plans: Plan[] = input.projects.map((project) => {
    const status = byName.get(project);
    if (status === undefined)
      // A repository the sync saw that holds neither a board nor a wiki has no wiki.
      return {
        project,
        error: skipped.has(project) ? ASK_ERRORS.noWiki : ASK_ERRORS.unknownProject,
      };
    if (status.wiki_index === undefined)
      return {
        project,
        error:
          status.wiki_error === undefined
            ? ASK_ERRORS.noWiki
            : ASK_ERRORS.unreadable(status.wiki_error),
      };
    const report = (deps.parseIndex ?? ((_p, t) => parseWikiIndexWithReport(t)))(
      project,
      status.wiki_index,
    );
    if (report.entries.length === 0) {
      // Never `matches: []` for an index that lists nothing: say it is empty or unreadable.
      const first = report.problems[0] ?? checkWikiIndex(status.wiki_index).unread[0];
      return {
        project,
        error:
          first === undefined
            ? ASK_ERRORS.empty
            : ASK_ERRORS.malformed(`line ${first.line}: ${first.message.en}`),
      };
    }
    const entries = rankByTitleWords(
      report.entries.filter((e) => allowed.has(e.type)),
      input.query,
    ).slice(0, limit);
    return { project, branch: status.default_branch, entries };
  });
  const jobs = plans.flatMap((plan, at) =>
    "entries" in plan ? plan.entries.map((entry) => ({ at, plan, entry })) : [],
  );
  const snippets = await mapWithConcurrency(
    jobs,
    deps.concurrency ?? ASK_FETCH_CONCURRENCY,
    async ({ plan, entry }) => {
      // After a cancel no further page read starts.
      if (!("entries" in plan) || input.signal?.aborted === true) return "";
      try {
        const body = await deps.forge.getRawFile(
          deps.owner,
          plan.project,
          `.wiki/${entry.slug}.md`,
          plan.branch,
          {
            limit: "wikiPageBytes",
            ...(input.signal === undefined ? {} : { signal: input.signal }),
          },
        );
        return body === null
          ? ASK_ERRORS.pageMissing
          : snippetAround(parseWikiPage(body).body, input.query);
      } catch (error) {
        if (isLoreError(error) && error.code === "remote_file_too_large")
          return ASK_ERRORS.pageTooLarge;
        // Seed 000 "Error branches": a failed live fetch keeps the match, marked.
        return ASK_ERRORS.fetchFailed;
      }
    },
  );
  throwIfCancelled(input.signal);
  const results: AskProjectResult[] = plans.map((plan) => {
    if (!("entries" in plan)) return { project: plan.project, error: plan.error };
    return { project: plan.project, matches: [] };
  });
  jobs.forEach((job, i) => {
    const result = results[job.at];
    if (result !== undefined && "matches" in result) {
      const { slug, type, title } = job.entry;
      result.matches.push({ slug, type, title, snippet: snippets[i] ?? "" });
    }
  });
  return {
    asked_projects: [...input.projects],
    results,
    next_action_hint: askNextActionHint(deps.names, input.lang),
  };
}

/** Every page type, for input validation at the edges (seed 000: the five types). */
export const ASK_ALL_TYPES: readonly WikiPageType[] = WIKI_PAGE_TYPES;
