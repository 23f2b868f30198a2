import { LoreError } from "../../core/errors/lore-error.js";
import {
  type MergeRequestView,
  mergeRequestView,
} from "../../core/merge-requests/merge-request-view.js";
import { mergeMessage, requiredApprovals } from "../../core/merge-requests/merge-rules.js";
import { decideBranchPush } from "../../core/push/branch-protection.js";
import type { MergeGit } from "../../ports/merge-git.js";
import type { MergeRequestRecord, RepoRecord } from "../../ports/server-store.js";
import {
  type MrActor,
  type MrDeps,
  oneAtATime,
  requireMergeRequest,
  requireOpen,
  userNames,
} from "./merge-request-deps.js";

/** Tries of the compare-and-swap when the target moves during a merge. */
export const MERGE_TRIES = 3;

/**
 * Merges an open merge request by a writer (seed 004, "Как знание выходит наружу" and
 * "Разбор при отправке"): a real merge commit made with git plumbing, with two parents
 * (target, source) — also when the source could be fast-forwarded, so the request stays
 * visible in the history.
 *
 * In order: the request must be open; the target's branch protection must let the merging
 * user push (the same rules and `decideBranchPush` as a push); the request must have at
 * least the largest `requiredApprovals` of the rules matching the target; `git merge-tree
 * --write-tree` gives the tree or the conflicting paths (then nothing is written); `git
 * commit-tree -p <target> -p <source>`; `git update-ref refs/heads/<target> <new> <old>` —
 * when the target moved meanwhile, the merge is redone on the new head (up to
 * {@link MERGE_TRIES} times). Then the request is recorded merged and the merge is parsed
 * like a push (`MrDeps.afterMerge`: knowledge of the merged branch is in the index at
 * once when the target is the default branch).
 *
 * @param deps - see `MrDeps`.
 * @param args - the repository, the number, who merges (write access checked by the caller).
 * @returns the merged request (`merge_commit`).
 * @throws LoreError `mr_not_found`; `mr_not_open`; `branch_protected` (`data`: `branch`,
 *   `pattern`, `why`); `approvals_required` (`data`: `required`, `count`);
 *   `branch_not_found` when the source or target is gone; `merge_conflict` (`data.paths`)
 *   — also, with `data.raced`, when the target kept moving, and with `data.unrelated` for
 *   branches with no common history; `git_failed`.
 */
export async function mergeMergeRequest(
  deps: MrDeps,
  args: { repo: RepoRecord; number: number; actor: MrActor },
): Promise<MergeRequestView> {
  const merged = await oneAtATime(args.repo.id, async () => {
    const record = await requireMergeRequest(deps.store, args.repo, args.number);
    requireOpen(record);
    const rules = await deps.store.listBranchRules(args.repo.id);
    const refusal = decideBranchPush(
      rules,
      { branch: record.target, force: false, deletion: false },
      {
        name: args.actor.user,
        userId: args.actor.userId,
        groupIds: await deps.store.groupsOf(args.actor.userId),
      },
    );
    if (refusal !== undefined) {
      throw new LoreError(
        "branch_protected",
        { branch: record.target, reason: refusal.reason, reason_ru: refusal.reason_ru },
        { data: { branch: record.target, pattern: refusal.pattern, why: refusal.why } },
      );
    }
    const required = requiredApprovals(rules, record.target);
    const count = record.approvals.filter((a) => a.userId !== record.authorId).length;
    if (count < required) {
      throw new LoreError(
        "approvals_required",
        { target: record.target, required, count, number: record.number },
        { data: { required, count } },
      );
    }
    const name = await userNames(deps.store);
    const commit = await writeMerge(deps, deps.gitOf(args.repo), args.repo, record, {
      actor: args.actor,
      approvers: record.approvals.map((a) => name(a.userId)),
    });
    await deps.store.finishMergeRequest(args.repo.id, record.number, {
      state: "merged",
      at: (deps.now ?? Date.now)(),
      byId: args.actor.userId,
      mergeCommit: commit,
    });
    return { commit, target: record.target };
  });
  try {
    await deps.afterMerge?.(args.repo, merged.target, merged.commit);
  } catch (error) {
    // Seed 004: the parse never fails what it parses; the next read heals again.
    deps.log?.(
      `lore: ${args.repo.fullName}: the parse after merging #${args.number} failed (logged, the merge stands): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const record = await requireMergeRequest(deps.store, args.repo, args.number);
  return mergeRequestView(record, await userNames(deps.store));
}

/** Makes the merge commit and moves the target to it (retrying a raced move). */
async function writeMerge(
  deps: MrDeps,
  git: MergeGit,
  repo: RepoRecord,
  record: MergeRequestRecord,
  by: { actor: MrActor; approvers: string[] },
): Promise<string> {
  for (let attempt = 1; attempt <= MERGE_TRIES; attempt++) {
    const [ours, theirs] = await Promise.all([
      git.branchHead(record.target),
      git.branchHead(record.source),
    ]);
    for (const [branch, head] of [
      [record.source, theirs],
      [record.target, ours],
    ] as const) {
      if (head === undefined) {
        throw new LoreError(
          "branch_not_found",
          { branch, repo: repo.fullName },
          { data: { branch } },
        );
      }
    }
    const result = await git.mergeTree(ours as string, theirs as string);
    if ("unrelated" in result) {
      throw new LoreError(
        "merge_conflict",
        {},
        {
          data: { paths: [], unrelated: true },
          text: {
            en: `${record.source} cannot be merged into ${record.target}: they share no history; nothing was written`,
            ru: `${record.source} не сливается в ${record.target}: у них нет общей истории; ничего не записано`,
          },
        },
      );
    }
    if ("conflicts" in result) {
      const paths = result.conflicts;
      throw new LoreError(
        "merge_conflict",
        {
          source: record.source,
          target: record.target,
          paths: paths.length === 0 ? "?" : paths.join(", "),
        },
        { data: { paths } },
      );
    }
    const commit = await git.commitTree({
      tree: result.tree,
      parents: [ours as string, theirs as string],
      message: mergeMessage({ ...record, approvers: by.approvers }),
      author: { name: by.actor.user, email: `${by.actor.user}@lore.invalid` },
      at: (deps.now ?? Date.now)(),
    });
    if (await git.moveBranch(record.target, commit, ours as string)) return commit;
    deps.log?.(
      `lore: ${repo.fullName}: ${record.target} moved during merge #${record.number}; again`,
    );
  }
  throw new LoreError(
    "merge_conflict",
    {},
    {
      data: { paths: [], raced: true },
      text: {
        en: `${record.target} kept moving during the merge (${MERGE_TRIES} tries); nothing was written; merge again`,
        ru: `${record.target} менялась во время слияния (${MERGE_TRIES} попытки); ничего не записано; повторите слияние`,
      },
    },
  );
}
