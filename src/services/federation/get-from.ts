import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { wikiPageFile } from "../../core/wiki/wiki-slug.js";
import type { Backend } from "../../ports/forge.js";
import type { CacheFile } from "./projects-cache.js";

/** What {@link getFrom} needs. */
export interface GetFromDeps {
  /** The forge the page is read from, live. */
  forge: Backend;
  /** Owner passed to the forge's reads (the Gitea user; ignored by the local forge). */
  owner: string;
  /** The synced cache; `null` when never synced. */
  cache: CacheFile | null;
}

/** A page read from a project: its text and where it came from. */
export interface ProjectPage {
  project: string;
  slug: string;
  /** Path in the repository, `.wiki/<slug>.md`. */
  path: string;
  /** The raw markdown file (frontmatter included), as stored. */
  body: string;
}

/**
 * `knowledge.get_from` (seed 000 "Read flow get_from"): the project's default branch from
 * the cache, then `.wiki/<slug>.md` read live through the forge.
 *
 * @param deps - see {@link GetFromDeps}.
 * @param project - repository name, as synced.
 * @param slug - path under `.wiki/` without `.md`, type prefix included (`concepts/foo`).
 * @returns the page.
 * @throws LoreError `invalid_slug` (a slug that could escape `.wiki/`), `project_unknown`
 *   (`unknown project: <p> — run sync first`), `page_not_found`
 *   (`page not found: <project>/.wiki/<slug>.md`), `remote_file_too_large` (a page over
 *   1 MiB: an MCP answer stays under its budget), `cancelled`, `fetch_failed`
 *   (`fetch failed: <reason>`, the forge's error kept as `cause`).
 */
export async function getFrom(
  deps: GetFromDeps,
  project: string,
  slug: string,
  signal?: AbortSignal,
): Promise<ProjectPage> {
  const path = `.wiki/${wikiPageFile(slug)}`;
  const status = deps.cache?.projects.find((p) => p.name === project);
  if (status === undefined) throw new LoreError("project_unknown", { project });
  let body: string | null;
  try {
    body = await deps.forge.getRawFile(deps.owner, project, path, status.default_branch, {
      limit: "wikiPageBytes",
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    if (
      isLoreError(error) &&
      (error.code === "remote_file_too_large" || error.code === "cancelled")
    )
      throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new LoreError("fetch_failed", { reason }, { cause: error });
  }
  if (body === null) throw new LoreError("page_not_found", { where: `${project}/${path}` });
  return { project, slug, path, body };
}
