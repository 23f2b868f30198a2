import type { RefUpdate } from "../../core/push/ref-update.js";
import { type HealDeps, type HealResult, type HealTarget, updateRepoIndex } from "./heal-index.js";

/**
 * The `post-receive` step (seed 004, "Разбор при отправке"): after the push is accepted,
 * when it updated the default branch (a push, a merge pushed, a deletion), the index is
 * brought to the branch's new head — only the changed files are read (deleted → record
 * removed; renamed → the same entry at its new path) and the new commit is recorded as the
 * repository's indexed commit (see `heal-index.ts`). Other branches are never indexed.
 *
 * @param deps - see `HealDeps`.
 * @param target - the repository (`fullName` is its index name).
 * @param updates - git's input lines, parsed.
 * @returns what the heal did, or `undefined` when the default branch was not updated.
 * @throws the errors of `healRepoIndex` (the hook logs them; the push is already accepted).
 */
export async function postReceive(
  deps: HealDeps,
  target: HealTarget,
  updates: readonly RefUpdate[],
): Promise<HealResult | undefined> {
  const ref = `refs/heads/${target.defaultBranch}`;
  if (!updates.some((update) => update.ref === ref)) return undefined;
  return updateRepoIndex(deps, target);
}
