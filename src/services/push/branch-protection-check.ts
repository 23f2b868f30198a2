import { LoreError } from "../../core/errors/lore-error.js";
import {
  type BranchPush,
  decideBranchPush,
  type PusherView,
} from "../../core/push/branch-protection.js";
import { branchOf, type RefUpdate } from "../../core/push/ref-update.js";
import type { PushRepo } from "../../ports/push-repo.js";
import type { ServerStore } from "../../ports/server-store.js";

/**
 * Enforces branch protection on a push, in `pre-receive` (seed 004, "Разбор при отправке";
 * the rules of `lore branch protect`, `ServerStore.listBranchRules`). A force push is an
 * update whose old commit is not an ancestor of the new one; deleting a branch counts as
 * one. The only way Lore refuses a push.
 *
 * @param store - the server's store (rules, users, groups).
 * @param repo - the repository, read with the hook's environment (the new commits are in
 *   quarantine).
 * @param fullName - `owner/name`; a repository the store does not know has no rules.
 * @param pusher - the user name from `LORE_PUSHER`; `undefined` when the transport set none.
 * @param updates - the push's ref updates.
 * @throws LoreError `branch_protected` (`data`: `branch`, `pattern`, `why`) for the first
 *   update a rule refuses.
 */
export async function checkBranchProtection(
  store: ServerStore,
  repo: PushRepo,
  fullName: string,
  pusher: string | undefined,
  updates: readonly RefUpdate[],
): Promise<void> {
  const record = await store.getRepo(fullName);
  if (record === undefined) return;
  const rules = await store.listBranchRules(record.id);
  if (rules.length === 0) return;
  let who: PusherView | undefined;
  if (pusher !== undefined && pusher.length > 0) {
    const user = await store.getUser(pusher);
    if (user !== undefined) {
      who = { name: user.name, userId: user.id, groupIds: await store.groupsOf(user.id) };
    }
  }
  for (const update of updates) {
    const branch = branchOf(update.ref);
    if (branch === undefined) continue;
    const deletion = update.newSha === null;
    const force =
      deletion ||
      (update.oldSha !== null &&
        update.newSha !== null &&
        !(await repo.isAncestor(update.oldSha, update.newSha)));
    const push: BranchPush = { branch, force, deletion };
    const refusal = decideBranchPush(rules, push, who);
    if (refusal !== undefined) {
      throw new LoreError(
        "branch_protected",
        { branch, reason: refusal.reason, reason_ru: refusal.reason_ru },
        { data: { branch, pattern: refusal.pattern, why: refusal.why } },
      );
    }
  }
}
