/**
 * The index upkeep of a hosted repository before a read (seed 004, "Разбор при отправке":
 * «расхождение снимается само при следующем чтении»): parse on push's `healRepoIndex`
 * (incremental from the stored commit, else a full re-index), skipped without starting git
 * while the repository's ref files are as when the index was last found current.
 */
import { HeadWatch } from "../adapters/git-cli/head-watch.js";
import type { Lang } from "../core/errors/localized-text.js";
import type { EntryIndex } from "../index/entry-index.js";
import { healRepoIndex } from "../services/push/heal-index.js";
import { hostedHealDeps } from "./compose-hook.js";
import type { HostedRepo } from "./server-api.js";

/**
 * Makes the upkeep function for one index.
 *
 * @param index - the index.
 * @param lang - the language of the indexing report (not shown).
 * @param index - a connection of its own for writing: a heal runs in one transaction, and
 *   reads on the same connection would see it half done.
 * @returns `freshen(repo)`: does nothing, without starting git, while the ref files
 *   (`HEAD`, the branch it names, `packed-refs`: `HeadWatch`) are as when the index was
 *   last found current; else `healRepoIndex` (nothing when the stored commit is the head).
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

/** Brings the index up to the head with parse on push's heal (incremental, locked, re-checked). */
async function freshenOnce(index: EntryIndex, lang: Lang, repo: HostedRepo): Promise<void> {
  await healRepoIndex(hostedHealDeps(index, undefined, lang), repo);
}
