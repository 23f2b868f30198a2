import type { Diagnostic } from "../core/entry/diagnostic.js";
/**
 * A blob listed under the knowledge folder at one commit: its path (relative to the
 * repository root, `/`-separated), git blob sha (40 hex) and size in bytes.
 */
export interface KnowledgeBlob {
  path: string;
  sha: string;
  size: number;
  /**
   * Set when the file cannot be read as an entry before its bytes are seen (a folder's
   * file whose name is not UTF-8: `path` is then the name escaped): it is stored as
   * skipped with this diagnostic and never read.
   */
  refused?: Diagnostic;
}

/**
 * The subset of a git repository the indexing service needs (STYLE.md habit 3: a port is
 * the subset you use). Implemented by `adapters/git-cli/git-cli-repo.ts` over the git CLI.
 */
export interface GitRepo {
  /**
   * The folder git runs in (the work tree top of a clone, or the bare repository), when the
   * repository is one on this machine: the index reads the bodies it does not store from
   * it (migration 5). Absent: bodies are stored in the index.
   */
  readonly dir?: string;
  /**
   * Resolves a revision (default: HEAD of the default branch) to a commit sha.
   * @throws LoreError `git_failed` when the revision does not exist.
   */
  resolveCommit(rev?: string): Promise<string>;
  /**
   * Lists the blobs under `prefix` (e.g. `.gitriver/knowledge/`) at a commit; `.md` files only.
   * @throws LoreError `git_failed`.
   */
  listKnowledgeBlobs(commit: string, prefix: string): Promise<KnowledgeBlob[]>;
  /**
   * Reads blobs by sha through one long-lived `git cat-file --batch`, in the order given.
   * @throws LoreError `git_failed` when git dies or a blob is missing.
   */
  readBlobs(shas: readonly string[]): AsyncIterable<{ sha: string; bytes: Uint8Array }>;
  /** Ends the long-lived git processes. Idempotent. */
  close(): Promise<void>;
}
