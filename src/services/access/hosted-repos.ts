/**
 * Repositories hosted by `lore serve` (seed 004, team server: the server sits in the push
 * path of the team's repositories). Each is a record in the server's store and a bare
 * repository at `<data>/repos/<owner>/<name>.git`.
 */
import { existsSync } from "node:fs";
import { mkdir, rm, rmdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import { parseRepoName, validateBranchName } from "../../core/repos/repo-name.js";
import type { RepoRecord, ServerStore } from "../../ports/server-store.js";

/** The default branch of a new repository when none is given. */
export const DEFAULT_BRANCH = "main";

/**
 * The bare repository folder of a hosted repository: `<data>/repos/<owner>/<name>.git`.
 *
 * @param dataDir - the server's data folder.
 * @param fullName - `owner/name` (validated, so the path never leaves `<data>/repos/`).
 * @throws LoreError `invalid_repo_name`.
 */
export function bareRepoPath(dataDir: string, fullName: string): string {
  const { owner, name } = parseRepoName(fullName);
  return join(dataDir, "repos", owner, `${name}.git`);
}

/** What creating, listing and removing hosted repositories use. */
export interface HostedRepoDeps {
  store: ServerStore;
  /** The server's data folder. */
  dataDir: string;
  /** Creates an empty bare repository at `dir` whose HEAD names `defaultBranch`. */
  initBare: (dir: string, defaultBranch: string) => Promise<void>;
  /** Runs after the bare repository exists (installs Lore's hooks). */
  afterCreate?: (dir: string) => Promise<void>;
}

/**
 * Creates a hosted repository: the record, then the bare repository (and `afterCreate`).
 * When the bare repository cannot be made, the record is removed again.
 *
 * @param request - `owner/name`, public or not (default not), the default branch
 *   (default {@link DEFAULT_BRANCH}), `now` (ms).
 * @returns the record and the bare folder.
 * @throws LoreError `invalid_repo_name`, `invalid_input` (branch name), `repo_exists` (also
 *   when a folder is already at the path with no record: it is left alone), `git_failed`.
 */
export async function createRepo(
  deps: HostedRepoDeps,
  request: { fullName: string; public?: boolean; defaultBranch?: string; now: number },
): Promise<{ repo: RepoRecord; dir: string }> {
  const { owner, name, fullName } = parseRepoName(request.fullName);
  const defaultBranch = validateBranchName(request.defaultBranch ?? DEFAULT_BRANCH);
  const dir = bareRepoPath(deps.dataDir, fullName);
  if ((await deps.store.getRepo(fullName)) === undefined && existsSync(dir)) {
    throw new LoreError("repo_exists", { repo: fullName }, { data: { path: dir } });
  }
  const repo = await deps.store.addRepo({
    owner,
    name,
    public: request.public ?? false,
    defaultBranch,
    createdAt: request.now,
  });
  try {
    await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
    await deps.initBare(dir, defaultBranch);
    await deps.afterCreate?.(dir);
  } catch (error) {
    await deps.store.removeRepo(fullName);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { repo, dir };
}

/** Every hosted repository, in `owner/name` order. */
export async function listRepos(deps: Pick<HostedRepoDeps, "store">): Promise<RepoRecord[]> {
  return deps.store.listRepos();
}

/**
 * Removes a hosted repository: its record (with its grants and branch rules) and its bare
 * folder.
 *
 * @returns the removed folder.
 * @throws LoreError `invalid_repo_name`, `repo_not_found`.
 */
export async function removeRepo(
  deps: Pick<HostedRepoDeps, "store" | "dataDir">,
  fullName: string,
): Promise<string> {
  const dir = bareRepoPath(deps.dataDir, fullName);
  if (!(await deps.store.removeRepo(fullName))) {
    throw new LoreError("repo_not_found", { repo: fullName });
  }
  await rm(dir, { recursive: true, force: true });
  // The owner's folder goes when it held only this repository (rmdir refuses a full one).
  await rmdir(dirname(dir)).catch(() => undefined);
  return dir;
}
