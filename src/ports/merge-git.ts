import type { GitPerson } from "./delivery-target.js";

/** How much a merge request changes: `git diff --numstat` of the merge base and the source. */
export interface DiffStat {
  /** Files changed (a binary file counts, with no lines). */
  files: number;
  /** Lines added. */
  insertions: number;
  /** Lines removed. */
  deletions: number;
}

/**
 * What a trial merge gave: the merged tree, the paths that conflict, or that the two have no
 * common history (nothing written but objects).
 */
export type MergeTreeResult = { tree: string } | { conflicts: string[] } | { unrelated: true };

/**
 * The git plumbing a merge request of a hosted repository needs, bound to one bare
 * repository (seed 004, "Как знание выходит наружу": knowledge leaves by an ordinary merge
 * request; the git CLI adapter `adapters/git-cli/merge-git.ts` implements it). Branch names
 * are without `refs/heads/`.
 */
export interface MergeGit {
  /** The commit a branch points at; `undefined` when there is no such branch. */
  branchHead(branch: string): Promise<string | undefined>;
  /** The diff stat of `target...source` (from their merge base to `source`), by commit. */
  diffStat(target: string, source: string): Promise<DiffStat>;
  /** A merge of two commits without a work tree (`git merge-tree --write-tree`). */
  mergeTree(ours: string, theirs: string): Promise<MergeTreeResult>;
  /** Writes a commit object (`git commit-tree`); returns its id. `at`: ms since the epoch. */
  commitTree(commit: {
    tree: string;
    parents: readonly string[];
    message: string;
    author: GitPerson;
    at: number;
  }): Promise<string>;
  /**
   * Moves a branch from `expected` to `next` in one compare-and-swap (`git update-ref`);
   * `false` when the branch was not at `expected` any more (nothing changed).
   */
  moveBranch(branch: string, next: string, expected: string): Promise<boolean>;
}
