/**
 * Dropping what no longer exists from the index: a repository or folder whose folder is
 * gone, and a knowledge root no longer in the configuration — their entries must not keep
 * answering recall (seed 004, "Указатель": the index follows the sources).
 */
import { existsSync } from "node:fs";
import type { EntryIndex } from "../../index/entry-index.js";

/**
 * Forgets each stored source that is gone (see the module header). Never throws: a lock
 * held by another writer leaves the pruning to the next run.
 *
 * @param index - the index.
 * @param rootRepos - the configured roots' repository names (`root:<id>`).
 * @param log - where a failure is told. Default: nowhere.
 * @returns the identities dropped.
 */
export function pruneIndex(
  index: EntryIndex,
  rootRepos: readonly string[],
  log: (line: string) => void = () => {},
): string[] {
  const gone = index
    .repositoryRecords()
    .filter((repo) =>
      repo.kind === "root" ? !rootRepos.includes(repo.repo) : !existsSync(repo.path),
    )
    .map((repo) => repo.repo);
  if (gone.length === 0) return [];
  try {
    index.transaction(() => {
      for (const repo of gone) index.forgetRepository(repo);
    });
    return gone;
  } catch (error) {
    log(`lore: could not drop ${gone.join(", ")} from the index: ${String(error)}`);
    return [];
  }
}
