/**
 * What kind of knowledge a recall hit is and where it comes from (recall "one recall over
 * all local knowledge"): entries of a repository, notes of a knowledge root, and pages of
 * the current project's wiki share one index, told apart by their index repository name.
 * Pure.
 */
import { rootOfRepo } from "../roots/root-repo-name.js";

/** The kinds of recall hits. */
export type HitKind = "entry" | "note" | "wiki";

const WIKI_PREFIX = "wiki:";

/**
 * The index repository name of a project's wiki pages.
 *
 * @param projectDir - the project's folder, absolute.
 * @returns `wiki:<projectDir>`.
 */
export function wikiRepoName(projectDir: string): string {
  return `${WIKI_PREFIX}${projectDir}`;
}

/**
 * Whether an index repository name holds a project's wiki pages.
 *
 * @param repo - a stored repository name.
 */
export function isWikiRepo(repo: string): boolean {
  return repo.startsWith(WIKI_PREFIX);
}

/**
 * The kind and source of a hit.
 *
 * @param repo - the index repository name the hit is stored under.
 * @param path - the stored path (relative to `.wiki/` for a wiki page).
 * @returns `entry` with the repository, `note` with the root id, or `wiki` with the page's
 *   path in its project (`.wiki/<slug>.md`).
 */
export function hitSource(repo: string, path: string): { kind: HitKind; source: string } {
  const root = rootOfRepo(repo);
  if (root !== undefined) return { kind: "note", source: root };
  if (isWikiRepo(repo)) return { kind: "wiki", source: `.wiki/${path}` };
  return { kind: "entry", source: repo };
}
