/**
 * What a caller may do with a hosted repository (seed 004, "Интерфейс": knowledge rights
 * follow repository rights; «Токен нужен всегда»). The caller's effective level on a
 * repository is the highest of their own grant and their groups' grants, `read` on a public
 * repository, `admin` for a site admin; `core/access/rights.ts` `decide()` does the rest.
 *
 * A repository the caller may not read answers exactly as a missing one (`repo_not_found`,
 * same message), so nothing reveals that it exists.
 */
import {
  type AccessLevel,
  decide,
  highestLevel,
  type Need,
  type Principal,
} from "../../core/access/rights.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { parseRepoName } from "../../core/repos/repo-name.js";
import type { RepoRecord, ServerStore } from "../../ports/server-store.js";

/**
 * The caller's effective level on each repository they have any grant on, by repository id
 * (public repositories and site admins are added by {@link levelOn}).
 */
export async function grantedLevels(
  store: ServerStore,
  principal: Principal,
): Promise<Map<number, AccessLevel>> {
  const byRepo = new Map<number, AccessLevel[]>();
  for (const grant of await store.grantsFor(principal.userId)) {
    const levels = byRepo.get(grant.repoId) ?? [];
    levels.push(grant.level);
    byRepo.set(grant.repoId, levels);
  }
  const out = new Map<number, AccessLevel>();
  for (const [repoId, levels] of byRepo) {
    const level = highestLevel(levels);
    if (level !== undefined) out.set(repoId, level);
  }
  return out;
}

/**
 * The effective level on one repository: the granted one, at least `read` when the
 * repository is public (a site admin is `admin` in `decide()`).
 */
export function levelOn(
  repo: RepoRecord,
  granted: ReadonlyMap<number, AccessLevel>,
): AccessLevel | undefined {
  const own = granted.get(repo.id);
  return highestLevel([
    ...(own === undefined ? [] : [own]),
    ...(repo.public ? ["read" as const] : []),
  ]);
}

/**
 * Checks one call on one repository.
 *
 * @param store - the server's records.
 * @param principal - the caller.
 * @param fullName - `owner/name`.
 * @param need - what the call does.
 * @returns the repository when the call is allowed.
 * @throws LoreError `invalid_repo_name` when `fullName` is no repository name (upper case
 *   gets the lower-case hint); `repo_not_found` when there is no such repository and, with
 *   the same message, when the caller may not read it; `forbidden` (message and `data.missing`: a
 *   scope such as `scope knowledge:write`, or `write access to acme/app`) when they can read
 *   it but this call needs more.
 */
export async function authorizeRepo(
  store: ServerStore,
  principal: Principal,
  fullName: string,
  need: Need,
): Promise<RepoRecord> {
  const repo = await store.getRepo(fullName);
  if (repo === undefined) {
    // A name no repository can have says so (`ACME/App`: write it lower-case), as git's
    // URLs and the MCP tools do; it reveals nothing, no repository has it.
    parseRepoName(fullName);
    throw new LoreError("repo_not_found", { repo: fullName });
  }
  const level = levelOn(repo, await grantedLevels(store, principal));
  const decision = decide(principal, need, level, repo.fullName);
  if (decision.kind === "hidden") throw new LoreError("repo_not_found", { repo: fullName });
  if (decision.kind === "forbidden") {
    throw new LoreError(
      "forbidden",
      { missing: decision.missing },
      { data: { missing: decision.missing } },
    );
  }
  return repo;
}

/**
 * The repositories on which the caller may do `need` (by default read knowledge), in
 * `owner/name` order: what every list and search of the server is filtered by.
 *
 * @param store - the server's records.
 * @param principal - the caller.
 * @param need - default `knowledge:read`.
 */
export async function readableRepos(
  store: ServerStore,
  principal: Principal,
  need: Need = "knowledge:read",
): Promise<RepoRecord[]> {
  const granted = await grantedLevels(store, principal);
  return (await store.listRepos()).filter(
    (repo) => decide(principal, need, levelOn(repo, granted), repo.fullName).kind === "allowed",
  );
}
