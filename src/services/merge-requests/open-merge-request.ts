import { LoreError } from "../../core/errors/lore-error.js";
import { checkBranchName, checkTitleAndBody } from "../../core/merge-requests/merge-rules.js";
import type { MergeRequestRecord, RepoRecord } from "../../ports/server-store.js";
import type { MrActor, MrDeps } from "./merge-request-deps.js";

/** What {@link openMergeRequest} opens. */
export interface OpenMergeRequestArgs {
  /** The hosted repository (rights already checked by the caller). */
  repo: RepoRecord;
  /** Who opens it. */
  author: MrActor;
  /** The branch to merge. */
  source: string;
  /** The branch to merge into. */
  target: string;
  title: string;
  body: string;
  /**
   * `machine` only when the server itself opens it (delivery); a client's request is
   * always `human` — the HTTP body has no such field (seed 004, "Происхождение запроса
   * ставит сервер").
   */
  origin: "human" | "machine";
}

/**
 * Opens a merge request `source → target` of a hosted repository (seed 004, "Как знание
 * выходит наружу"). The caller has checked the rights (write access for a client; delivery
 * writes as the server).
 *
 * @param deps - see `MrDeps`.
 * @param args - see {@link OpenMergeRequestArgs}.
 * @returns the stored request (`number` = the repository's next).
 * @throws LoreError `invalid_input` (a bad branch name, source = target, an empty or long
 *   title, a body over 64 KiB), `branch_not_found` (`data.branch`) when either branch does
 *   not exist.
 */
export async function openMergeRequest(
  deps: MrDeps,
  args: OpenMergeRequestArgs,
): Promise<MergeRequestRecord> {
  const source = checkBranchName(args.source, "source");
  const target = checkBranchName(args.target, "target");
  if (source === target) {
    throw new LoreError("invalid_input", {
      reason: `source and target are both ${source}; a request merges one branch into another`,
      reason_ru: `source и target — одна ветка ${source}; запрос сливает одну ветку в другую`,
    });
  }
  const { title, body } = checkTitleAndBody(args.title, args.body);
  const git = deps.gitOf(args.repo);
  for (const branch of [source, target]) {
    if ((await git.branchHead(branch)) === undefined) {
      throw new LoreError(
        "branch_not_found",
        { branch, repo: args.repo.fullName },
        { data: { branch } },
      );
    }
  }
  return deps.store.addMergeRequest({
    repoId: args.repo.id,
    source,
    target,
    title,
    body,
    origin: args.origin,
    authorId: args.author.userId,
    createdAt: (deps.now ?? Date.now)(),
  });
}
