import { LoreError } from "../../core/errors/lore-error.js";
import {
  type MergeRequestView,
  mergeRequestView,
} from "../../core/merge-requests/merge-request-view.js";
import type { RepoRecord } from "../../ports/server-store.js";
import {
  type MrActor,
  type MrDeps,
  oneAtATime,
  requireMergeRequest,
  requireOpen,
  userNames,
} from "./merge-request-deps.js";

/**
 * Closes an open merge request without merging it (its branches stay). Allowed to its
 * author and to anyone with write access.
 *
 * @param deps - see `MrDeps`.
 * @param args - the repository, the number, who closes, whether they have write access.
 * @returns the closed request.
 * @throws LoreError `mr_not_found`; `mr_not_open`; `forbidden` (`data.missing`) for a
 *   reader who is not the author.
 */
export async function closeMergeRequest(
  deps: MrDeps,
  args: { repo: RepoRecord; number: number; actor: MrActor; mayWrite: boolean },
): Promise<MergeRequestView> {
  return oneAtATime(args.repo.id, async () => {
    const record = await requireMergeRequest(deps.store, args.repo, args.number);
    if (!args.mayWrite && record.authorId !== args.actor.userId) {
      const missing = `write access to ${args.repo.fullName} (or being the request's author)`;
      throw new LoreError("forbidden", { missing }, { data: { missing } });
    }
    requireOpen(record);
    const done = await deps.store.finishMergeRequest(args.repo.id, record.number, {
      state: "closed",
      at: (deps.now ?? Date.now)(),
      byId: args.actor.userId,
    });
    const updated = await requireMergeRequest(deps.store, args.repo, args.number);
    if (!done) requireOpen(updated);
    return mergeRequestView(updated, await userNames(deps.store));
  });
}
