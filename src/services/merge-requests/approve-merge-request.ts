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
 * Approves an open merge request (seed 004, "Как знание выходит наружу": the required
 * approvals of the target apply to it). The caller has checked write access. Approving
 * twice is a no-op.
 *
 * @param deps - see `MrDeps`.
 * @param args - the repository, the number, who approves.
 * @returns the request with its approvals.
 * @throws LoreError `mr_not_found`; `mr_not_open`; `forbidden` (`data.missing:
 *   "another_user"`) when the author approves their own request — an approval is a second
 *   pair of eyes.
 */
export async function approveMergeRequest(
  deps: MrDeps,
  args: { repo: RepoRecord; number: number; actor: MrActor },
): Promise<MergeRequestView> {
  return oneAtATime(args.repo.id, async () => {
    const record = await requireMergeRequest(deps.store, args.repo, args.number);
    requireOpen(record);
    if (record.authorId === args.actor.userId) {
      throw new LoreError(
        "forbidden",
        {},
        {
          data: { missing: "another_user", reason: "own_request" },
          text: {
            en: `not allowed: you opened #${record.number}, and an approval must come from another user with write access (it is a second pair of eyes)`,
            ru: `нет прав: запрос #${record.number} открыли вы, а одобрение должно прийти от другого пользователя с правом записи (это второй взгляд)`,
          },
        },
      );
    }
    await deps.store.approveMergeRequest(
      args.repo.id,
      record.number,
      args.actor.userId,
      (deps.now ?? Date.now)(),
    );
    const updated = await requireMergeRequest(deps.store, args.repo, args.number);
    return mergeRequestView(updated, await userNames(deps.store));
  });
}
