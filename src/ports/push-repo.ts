import type { KnowledgeChange } from "../core/push/knowledge-changes.js";
import type { GitRepo } from "./git-repo.js";

/**
 * The subset of a bare repository that parse on push and self-healing need (seed 004,
 * "Разбор при отправке"; STYLE.md habit 3). Implemented by
 * `adapters/git-cli/push-git-repo.ts` over the git CLI. In a `pre-receive` hook it reads
 * with the hook's quarantine environment, so the pushed objects are visible.
 */
export interface PushRepo extends GitRepo {
  /** The bare repository's folder (absolute). */
  readonly dir: string;
  /**
   * The knowledge files changed between two commits, renames detected, through
   * `git -c core.quotePath=false diff-tree -r -z -M --no-commit-id --raw <from> <to> -- <prefix>`;
   * `from` `null` compares with the empty tree (every file is added).
   * @throws LoreError `git_failed`; `invalid_input` for a value starting with `-`.
   */
  changedKnowledge(from: string | null, to: string, prefix: string): Promise<KnowledgeChange[]>;
  /**
   * The commit a ref names (`refs/heads/main`), or `undefined` when there is no such ref.
   * @throws LoreError `git_failed` when git fails otherwise.
   */
  refCommit(ref: string): Promise<string | undefined>;
  /** Whether a commit object exists in the repository. */
  hasCommit(sha: string): Promise<boolean>;
  /** Whether `ancestor` is an ancestor of (or equal to) `descendant`. */
  isAncestor(ancestor: string, descendant: string): Promise<boolean>;
  /** The branch `HEAD` names (`main`), or `undefined` when HEAD is detached or missing. */
  headBranch(): Promise<string | undefined>;
  /**
   * Sizes of blobs, bytes, through one `git cat-file --batch-check`; missing ones are absent.
   * @throws LoreError `git_failed`.
   */
  blobSizes(shas: readonly string[]): Promise<Map<string, number>>;
}
