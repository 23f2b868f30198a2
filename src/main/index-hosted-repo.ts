/**
 * The index upkeep of a hosted repository before a read (seed 004, "Разбор при отправке":
 * «расхождение снимается само при следующем чтении»): parse on push's `healRepoIndex`
 * (incremental from the stored commit, else a full re-index), skipped without starting git
 * while the repository's ref files are as when the index was last found current.
 */
import { HeadWatch } from "../adapters/git-cli/head-watch.js";
import type { Lang } from "../core/errors/localized-text.js";
import type { EntryIndex } from "../index/entry-index.js";
import { type HealDeps, type HealResult, updateRepoIndex } from "../services/push/heal-index.js";
import { hostedHealDeps } from "./compose-hook.js";
import type { HostedRepo } from "./server-api.js";

/**
 * How a push's upkeep differs from a read's (`HealDeps`): a short wait for the write lock
 * (`PUSH_LOCK_WAIT_MS`), and no wait at all when no knowledge file changed.
 */
export type FreshenOptions = Pick<HealDeps, "lockWaitMs" | "deferUnchanged">;

/**
 * Makes the upkeep function for one index.
 *
 * @param index - the index.
 * @param lang - the language of the indexing report (not shown).
 * @param index - a connection of its own for writing: a heal runs in one transaction, and
 *   reads on the same connection would see it half done.
 * @returns `freshen(repo, options?)`: does nothing, without starting git, while the ref
 *   files (`HEAD`, the branch it names, `packed-refs`: `HeadWatch`) are as when the index
 *   was last found current; else `healRepoIndex` (nothing when the stored commit is the
 *   head). A read arriving during a run waits for it, then looks at the ref files again
 *   (the branch may have moved past the head the run aimed at); a push's run
 *   (`options` given) does not wait for a read's run here: the heal bounds its waits.
 * @throws LoreError `git_failed`, `index_failed` from the indexing (also a lock that stayed
 *   taken past `options.lockWaitMs`).
 */
export function indexHostedRepo(
  index: EntryIndex,
  lang: Lang = "en",
): (repo: HostedRepo, options?: FreshenOptions) => Promise<void> {
  // One read's run per repository at a time: a read arriving during a run waits for it.
  const running = new Map<string, Promise<void>>();
  // The ref files' signature when the index was last found current: unchanged = no git run.
  const seen = new Map<string, string>();
  return async (repo, options) => {
    if (options === undefined) {
      for (let busy = running.get(repo.fullName); busy !== undefined; ) {
        await busy;
        busy = running.get(repo.fullName);
      }
    }
    const watch = new HeadWatch({ gitDir: repo.dir, commonDir: repo.dir });
    const signature = watch.signature();
    if (seen.get(repo.fullName) === signature && index.repository(repo.fullName) !== undefined) {
      return;
    }
    // A deferred heal left the recorded commit behind: the next read heals, so it is not seen.
    const found = (how: HealResult["how"]) => {
      if (how !== "deferred") seen.set(repo.fullName, signature);
    };
    if (options !== undefined) {
      found(await freshenOnce(index, lang, repo, options));
      return;
    }
    const run: Promise<void> = freshenOnce(index, lang, repo)
      .then(found)
      .finally(() => {
        if (running.get(repo.fullName) === run) running.delete(repo.fullName);
      });
    running.set(repo.fullName, run);
    return run;
  };
}

/**
 * Brings the index up to the head with parse on push's heal (incremental, locked,
 * re-checked); resolves how (`HealResult.how`).
 */
async function freshenOnce(
  index: EntryIndex,
  lang: Lang,
  repo: HostedRepo,
  options: FreshenOptions = {},
): Promise<HealResult["how"]> {
  return (await updateRepoIndex({ ...hostedHealDeps(index, undefined, lang), ...options }, repo))
    .how;
}
