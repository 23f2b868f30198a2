/**
 * The plain index upkeep of a hosted repository: index its default branch's head under its
 * `owner/name` when the index reflects another commit. `lore serve` passes it as the
 * server's `freshen` until parse on push brings its own (`healRepoIndex`).
 */
import { HeadWatch } from "../adapters/git-cli/head-watch.js";
import type { Lang } from "../core/errors/localized-text.js";
import { isLoreError } from "../core/errors/lore-error.js";
import type { EntryIndex } from "../index/entry-index.js";
import type { HostedRepo } from "./server-api.js";

/**
 * Makes the upkeep function for one index.
 *
 * @param index - the index.
 * @param lang - the language of the indexing report (not shown).
 * @returns `freshen(repo)`: does nothing, without starting git, while the ref files
 *   (`HEAD`, the branch it names, `packed-refs`: `HeadWatch`) are as when the index was
 *   last found current; nothing either for a repository with no commit on its default
 *   branch or whose stored commit is the head; else indexes the head incrementally and
 *   records the repository (kind `git`, its bare folder, the commit).
 * @throws LoreError `git_failed`, `index_failed` from the indexing.
 */
export function indexHostedRepo(
  index: EntryIndex,
  lang: Lang = "en",
): (repo: HostedRepo) => Promise<void> {
  // One run per repository at a time: a request arriving during a run waits for it.
  const running = new Map<string, Promise<void>>();
  // The ref files' signature when the index was last found current: unchanged = no git run.
  const seen = new Map<string, string>();
  return async (repo) => {
    const busy = running.get(repo.fullName);
    if (busy !== undefined) return busy;
    const watch = new HeadWatch({ gitDir: repo.dir, commonDir: repo.dir });
    const signature = watch.signature();
    if (seen.get(repo.fullName) === signature && index.repository(repo.fullName) !== undefined) {
      return;
    }
    const run = freshenOnce(index, lang, repo)
      .then(() => {
        seen.set(repo.fullName, signature);
      })
      .finally(() => running.delete(repo.fullName));
    running.set(repo.fullName, run);
    return run;
  };
}

async function freshenOnce(index: EntryIndex, lang: Lang, repo: HostedRepo): Promise<void> {
  const { openGitRepo } = await import("../adapters/git-cli/git-cli-repo.js");
  const git = await openGitRepo(repo.dir);
  try {
    let head: string;
    try {
      head = await git.resolveCommit(`refs/heads/${repo.defaultBranch}`);
    } catch (error) {
      if (isLoreError(error) && error.code === "git_failed") return; // no commit yet
      throw error;
    }
    if (index.repository(repo.fullName)?.commit === head) return;
    const { indexRepository } = await import("../services/indexing/index-repo.js");
    await indexRepository({ index, repo: git, repoName: repo.fullName, commit: head, lang });
    index.putRepository({
      repo: repo.fullName,
      path: git.dir,
      kind: "git",
      commit: head,
      indexedAt: Date.now(),
    });
  } finally {
    await git.close();
  }
}
