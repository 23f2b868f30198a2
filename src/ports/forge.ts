import type { WikiLimit } from "../core/wiki/wiki-limits.js";

/**
 * A repository as the forge lists it (seed 001, Task 2: `listUserRepos` returns
 * `Array<{ name, default_branch }>`).
 */
export interface ForgeRepo {
  /** Repository name, without owner (e.g. `node-utils`). */
  name: string;
  /** The branch reads default to (e.g. `main`); an empty repository still has one. */
  default_branch: string;
}

/** A file's text with its git blob sha (40 hex), the compare-and-swap token of {@link Backend.commitFile}. */
export interface FileWithSha {
  /** The file's text, decoded as UTF-8. */
  content: string;
  /** The git blob sha of the file at the ref it was read from. */
  sha: string;
}

/** Options of a forge read ({@link Backend.getRawFile}, {@link Backend.getFileWithSha}). */
export interface ReadOptions {
  /**
   * Which size limit applies (`core/wiki/wiki-limits.ts` `WIKI_LIMITS`). A larger file is refused
   * with LoreError `remote_file_too_large` (`data`: `size` when known, `limit` in bytes)
   * without being held in memory whole. Default: no limit.
   */
  limit?: WikiLimit;
  /** When aborted, the read is not started (or is stopped): LoreError `cancelled`. */
  signal?: AbortSignal;
}

/** What {@link Backend.commitFile} writes: one file, one commit. */
export interface CommitFileArgs {
  /** Repository owner (the forge user or organisation). Ignored by the local forge. */
  owner: string;
  /** Repository name. */
  repo: string;
  /** File path inside the repository, `/`-separated, relative (e.g. `.wiki/index.md`). */
  path: string;
  /** New file text (UTF-8). */
  content: string;
  /** Commit message. */
  message: string;
  /**
   * Compare-and-swap: the blob sha the caller read (from {@link Backend.getFileWithSha}).
   * Absent = create: the file must not exist yet. Present = update: the file's current sha
   * must equal it. Either mismatch → LoreError `forge_conflict`.
   */
  sha?: string;
  /**
   * Branch to commit on. Default: the repository's default branch. A branch that does not
   * exist yet is created from the default branch's head (in an empty repository the first
   * commit creates it).
   */
  branch?: string;
  /** When aborted before the commit is made, nothing is written: LoreError `cancelled`. */
  signal?: AbortSignal;
}

/** What {@link Backend.commitFile} made. */
export interface CommitFileResult {
  /** The git blob sha of the written file (pass it as `sha` to update it again). */
  sha: string;
  /** The new commit's sha (40 hex). */
  commit: string;
}

/**
 * The forge port — the seed's `Backend` (seed 000 "Sync extension", seed 001 Tasks 2–4):
 * where the user's repositories live. Implemented by `adapters/local-forge` (a folder of
 * git repositories, the embedded default) and `adapters/gitea` (Gitea REST API v1).
 *
 * Errors (LoreError codes): `forge_not_found` (the repository does not exist),
 * `forge_conflict` (stale or unexpected `sha` on commit), `forge_unauthorized` (token
 * refused), `forge_unavailable` (network, timeout, 5xx), `forge_failed` (any other
 * answer), `file_too_large_for_api` (Gitea gave no content for a large file and the raw
 * endpoint failed too), `invalid_input` (a path or ref that could escape or be read as an
 * option), `git_failed` (local forge: git itself failed).
 */
export interface Backend {
  /**
   * Lists every repository of the user, all pages, in the forge's order.
   * @throws LoreError `forge_unauthorized`, `forge_unavailable`, `forge_failed`.
   */
  listUserRepos(): Promise<ForgeRepo[]>;
  /**
   * Reads one file's text at `ref` (default: the default branch).
   * @returns the text, or `null` when the file (or the ref, or any commit) does not exist.
   * @throws LoreError `forge_not_found` (no such repository; the local forge — Gitea's raw
   *   endpoint answers 404 for both, so there it is `null`), `forge_unavailable`,
   *   `forge_failed`, `remote_file_too_large` (over `options.maxBytes`), `cancelled`.
   */
  getRawFile(
    owner: string,
    repo: string,
    path: string,
    ref?: string,
    options?: ReadOptions,
  ): Promise<string | null>;
  /**
   * Reads one file's text and its blob sha at `ref` (default: the default branch).
   * Never returns an empty text for a non-empty file (the Gitea `"content": null` case).
   * @returns `{ content, sha }`, or `null` when the file does not exist.
   * @throws LoreError `forge_not_found`, `file_too_large_for_api`, `forge_unavailable`,
   *   `forge_failed`, `remote_file_too_large`, `cancelled`.
   */
  getFileWithSha(
    owner: string,
    repo: string,
    path: string,
    ref?: string,
    options?: ReadOptions,
  ): Promise<FileWithSha | null>;
  /**
   * Creates or updates one file in one commit, `sha` as compare-and-swap (see {@link CommitFileArgs}).
   * @throws LoreError `forge_conflict`, `forge_not_found`, `forge_unauthorized`,
   *   `forge_unavailable`, `forge_failed`, `default_branch_mismatch` (Gitea, case 4),
   *   `forge_worktree_dirty` (local forge: the branch is checked out in a work tree with
   *   changes), `cancelled`.
   */
  commitFile(args: CommitFileArgs): Promise<CommitFileResult>;
}
