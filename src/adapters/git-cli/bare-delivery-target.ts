/**
 * The delivery target of a bare repository the team server hosts (seed 004, "Как знание
 * выходит наружу"): branches are read and written with git plumbing only; see
 * `delivery-plumbing.ts` for the atomic write.
 */
import type { DeliveryTarget } from "../../ports/delivery-target.js";
import {
  headBranch,
  readBranchHead,
  readPathsAt,
  writeDeliveryCommit,
} from "./delivery-plumbing.js";

/**
 * A {@link DeliveryTarget} over a bare repository.
 *
 * @param dir - the bare repository folder (`<data>/repos/<owner>/<name>.git`).
 * @returns the target; its default branch is the branch HEAD names (`main` when HEAD is
 *   detached). Its methods throw LoreError `invalid_input` (a bad branch name) and
 *   `git_failed`.
 */
export function bareDeliveryTarget(dir: string): DeliveryTarget {
  return {
    defaultBranch: async () => (await headBranch(dir)) ?? "main",
    branchHead: (branch) => readBranchHead(dir, branch),
    pathsAt: (commit, paths) => readPathsAt(dir, commit, paths),
    writeCommit: (commit) => writeDeliveryCommit(dir, commit),
  };
}
