/**
 * The team server's index upkeep after a push it served (seed 004, "Разбор при отправке":
 * the index is fed from the default branch on every push). Under `lore serve` the hook
 * leaves the index alone (`INDEXED_BY_SERVER_ENV`) and the git edges (HTTP, SSH) call this
 * once `git-receive-pack` has ended cleanly: one process writes the index.
 */
import type { RepoRecord } from "../../ports/server-store.js";

/** What {@link indexAfterPush} needs. */
export interface AfterPushDeps {
  /** Brings the repository's index up to its default branch (the server's `freshen`). */
  afterPush?: (repo: RepoRecord) => Promise<void>;
  /** Where a failure goes, one line. */
  log?: (line: string) => void;
}

/**
 * Runs the upkeep; its failure is logged and never the push's (the next read heals).
 *
 * @param deps - see {@link AfterPushDeps}.
 * @param repo - the pushed repository.
 */
export async function indexAfterPush(deps: AfterPushDeps, repo: RepoRecord): Promise<void> {
  try {
    await deps.afterPush?.(repo);
  } catch (error) {
    deps.log?.(`lore: ${repo.fullName}: the index update after a push failed: ${String(error)}`);
  }
}
