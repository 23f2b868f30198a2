/**
 * Where delivered drafts are written (seed 004, "Как знание выходит наружу"): a git
 * repository the drafts become files of, one commit per batch. Three adapters: a bare
 * repository the team server hosts, the user's working repository (local mode, never
 * touching uncommitted work) and a repository on a Gitea server (its multi-file contents
 * endpoint). The delivery service (`services/drafts/`) decides what to write; a target
 * only reads branches and writes one commit atomically.
 */

/** A person as git records one. */
export interface GitPerson {
  name: string;
  email: string;
}

/** One file of a delivery commit. */
export interface DeliveryFile {
  /** `.gitriver/knowledge/<id>.md`. */
  path: string;
  /** The whole file, UTF-8. */
  content: string;
}

/** One commit to write. */
export interface DeliveryCommit {
  /** The branch to move (`feature/x`, not `refs/heads/feature/x`). */
  branch: string;
  /**
   * The commit the branch must point at for the write to happen (compare-and-swap), which
   * is also the new commit's parent; `undefined` creates the branch from `from`.
   */
  expectedHead: string | undefined;
  /** Creating a branch: the commit it starts from (the default branch's head). */
  from?: string;
  /** Files added (or replaced) on top of the parent's tree; nothing else changes. */
  files: readonly DeliveryFile[];
  message: string;
  /** The caller. */
  author: GitPerson;
  /** Lore. */
  committer: GitPerson;
  /** ms since the epoch: the author and committer date. */
  at: number;
}

/** What a write did: the new commit, or that the branch moved meanwhile (nothing written). */
export type DeliveryWrite = { commit: string } | { raced: true };

/** A repository delivered drafts are written to. */
export interface DeliveryTarget {
  /** The repository's default branch. */
  defaultBranch(): Promise<string>;
  /** The commit a branch points at; `undefined` when there is no such branch. */
  branchHead(branch: string): Promise<string | undefined>;
  /**
   * Which of these paths exist in a commit's tree, each with its blob sha (the delivery
   * uses it to skip drafts whose file a killed delivery already wrote).
   */
  pathsAt(commit: string, paths: readonly string[]): Promise<Map<string, string>>;
  /**
   * Writes one commit and moves the branch to it, atomically: when the branch no longer
   * points at `expectedHead` (or exists when it should be created), nothing is written and
   * `{raced: true}` comes back.
   *
   * @throws LoreError `git_failed`, `forge_failed`, `forge_unavailable`.
   */
  writeCommit(commit: DeliveryCommit): Promise<DeliveryWrite>;
}
