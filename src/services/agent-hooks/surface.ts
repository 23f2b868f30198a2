/**
 * What an agent hook surfaces (section "Deterministic surfacing through agent hooks"): the
 * recall of a prompt or of a tool call, its hits counted as shown for the session's user
 * durably before the hook answers, and the session-start facts of the project.
 */
import { dirname, resolve } from "node:path";
import { type AgentEvent, toolNamesFor } from "../../core/agent-hooks/agent-event.js";
import type { ProjectFacts } from "../../core/agent-hooks/context-text.js";
import { cutUtf8, MAX_QUERY_TEXT_BYTES, toolInputText } from "../../core/agent-hooks/query-text.js";
import { isLoreError } from "../../core/errors/lore-error.js";
import { rootRepoName } from "../../core/roots/root-repo-name.js";
import type { EntryIndex } from "../../index/entry-index.js";
import type { RecallHit } from "../knowledge/hit-page.js";
import { type RecallInput, recall } from "../knowledge/recall.js";
import { withRoots } from "../roots/recall-roots.js";

/** Hits a hook asks recall for (the context budget keeps fewer when summaries are long). */
export const SURFACE_LIMIT = 8;

/** Input of {@link surfaceForEvent}. */
export interface SurfaceInput {
  /** A `prompt` or `tool` event (any other kind surfaces nothing). */
  event: AgentEvent;
  /** Who is shown the hits: the configured user of this Lore (the session's user). */
  user: string;
  /** The project's wiki repository name (`wikiRepoName`), as local recall passes it. */
  wiki?: string;
  /** Most hits. Default {@link SURFACE_LIMIT}. */
  limit?: number;
  /** ms since the epoch. Default: now. */
  now?: number;
}

/** What a hook surfaced. */
export interface Surfaced {
  /** Best first; each counted once as shown. */
  hits: RecallHit[];
  /** Hits there are in all (recall's `total`; at least `hits.length`). */
  total: number;
  /** False when the shown counts could not be written (e.g. the index stayed locked). */
  counted: boolean;
}

function recallOrNone(index: EntryIndex, input: RecallInput): { hits: RecallHit[]; total: number } {
  try {
    const page = withRoots(recall(index, input));
    return { hits: page.hits, total: page.total };
  } catch (error) {
    // A prompt with no searchable word (punctuation, a bare slash command) recalls nothing.
    if (isLoreError(error) && error.code === "empty_query") return { hits: [], total: 0 };
    throw error;
  }
}

/**
 * Recalls for a hook call and counts the hits as shown, durably (one committed write before
 * it returns, `EntryIndex.recordShown`).
 *
 * - `prompt`: recall with the prompt (cut to {@link MAX_QUERY_TEXT_BYTES}) as the query.
 * - `tool`: recall with the tool's name as `tool` and its input's words
 *   (`toolInputText`) as the query; for an MCP tool (`mcp__<server>__<tool>`) a second,
 *   tool-only recall with the bare name, so an `on_tool` of either name fires; the two
 *   merged by id (the better score kept), best first.
 *
 * Each recall carries `client: "<client>:<event>"` and `session` for its load receipt.
 *
 * @param index - the open index.
 * @param input - see {@link SurfaceInput}.
 * @returns the hits (none for another kind of event), the total, whether they were counted.
 * @throws the SQLite error of a read (a locked or broken index); a failed count write is
 *   not thrown but answered as `counted: false`.
 */
export function surfaceForEvent(index: EntryIndex, input: SurfaceInput): Surfaced {
  const { event } = input;
  const now = input.now ?? Date.now();
  const base: RecallInput = {
    user: input.user,
    countShown: false,
    limit: input.limit ?? SURFACE_LIMIT,
    now,
    client: `${event.client}:${event.name}`,
    ...(event.session === undefined ? {} : { session: event.session }),
    ...(input.wiki === undefined ? {} : { wiki: input.wiki }),
  };
  let found: { hits: RecallHit[]; total: number } = { hits: [], total: 0 };
  if (event.kind === "prompt" && event.prompt !== undefined) {
    const query = cutUtf8(event.prompt, MAX_QUERY_TEXT_BYTES);
    if (query.trim() !== "") found = recallOrNone(index, { ...base, query });
  } else if (event.kind === "tool" && event.tool !== undefined) {
    const [full, bare] = toolNamesFor(event.tool) as [string, string | undefined];
    const query = toolInputText(event.toolInput);
    found = recallOrNone(index, { ...base, tool: full, ...(query === "" ? {} : { query }) });
    if (bare !== undefined)
      found = merge(
        found,
        recallOrNone(index, { ...base, tool: bare }),
        base.limit ?? SURFACE_LIMIT,
      );
  }
  let counted = true;
  if (found.hits.length > 0) {
    try {
      index.recordShown(
        input.user,
        found.hits.map((hit) => ({ repo: hit.repo, id: hit.id })),
        now,
      );
    } catch {
      counted = false;
    }
  }
  return { ...found, counted };
}

function merge(
  a: { hits: RecallHit[]; total: number },
  b: { hits: RecallHit[]; total: number },
  limit: number,
): { hits: RecallHit[]; total: number } {
  const byKey = new Map<string, RecallHit>();
  for (const hit of [...a.hits, ...b.hits]) {
    const key = `${hit.repo}\u0000${hit.id}`;
    const seen = byKey.get(key);
    if (seen === undefined) byKey.set(key, hit);
    else if (hit.score > seen.score) byKey.set(key, { ...hit, why: [...seen.why, ...hit.why] });
    else if (hit !== seen)
      byKey.set(key, { ...seen, why: [...seen.why, ...hit.why.filter((w) => w.kind !== "text")] });
  }
  const hits = [...byKey.values()]
    .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
    .slice(0, limit);
  // The overlap of the two totals is unknown: the larger is a lower bound of the union.
  return { hits, total: Math.max(a.total, b.total, hits.length) };
}

/**
 * The session-start facts of a project: its repository (the indexed source of its folder
 * or the nearest folder above it), that repository's entries and drafts not yet delivered,
 * the index's sources and entries in all, the roots.
 *
 * @param index - the open index.
 * @param cwd - the project folder (the hook's `cwd`).
 * @param roots - the configured roots' ids.
 */
export function projectFacts(
  index: EntryIndex,
  cwd: string,
  roots: readonly string[],
): ProjectFacts {
  let repo: string | undefined;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const found = index.repositoriesAt(dir).find((r) => r.kind !== "root");
    if (found !== undefined) {
      repo = found.repo;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  const listing = index.repositories();
  const rootRepos = new Set(roots.map(rootRepoName));
  let entries = 0;
  let totalEntries = 0;
  for (const source of listing) {
    totalEntries += source.entries;
    if (source.repo === repo) entries = source.entries;
  }
  const draftsWaiting =
    repo === undefined
      ? 0
      : index.drafts.list([repo], { limit: 1_000 }).filter((d) => d.delivered === undefined).length;
  return {
    ...(repo === undefined ? {} : { repo }),
    entries,
    draftsWaiting,
    sources: listing.filter((s) => s.kind !== "root" || rootRepos.has(s.repo)).length,
    totalEntries,
    roots,
  };
}
