import { LoreError } from "../../core/errors/lore-error.js";
import type { GitRepo, KnowledgeBlob } from "../../ports/git-repo.js";
import {
  type IndexKnowledgeOptions,
  type IndexReport,
  indexKnowledge,
  KNOWLEDGE_PREFIX,
  type KnowledgeSource,
} from "./index-knowledge.js";

/**
 * Options of {@link indexRepository}: those of {@link indexKnowledge} (`index`, `repoName`,
 * `lang`, `onProgress`, `maxDiagnostics`, `batchBytes`) plus the repository and revision.
 */
export interface IndexRepositoryOptions extends Omit<IndexKnowledgeOptions, "source" | "commit"> {
  /** The repository read from; the caller opens and closes it. */
  repo: GitRepo;
  /** The revision to index. Default: HEAD (see `GitRepo.resolveCommit`). */
  commit?: string;
}

/**
 * Indexes the entry files of a git repository at a commit (the index; seed 004,
 * "Указатель"): the `.md` files under `.gitriver/knowledge/` are listed with
 * `git ls-tree`, and only the blobs whose sha differs from the stored one are read, through
 * the repository's one long-lived `git cat-file --batch`, and parsed leniently. A re-index
 * with no change reads no blob. See {@link indexKnowledge} for batches, deletions and
 * duplicate ids.
 *
 * @returns the report (counts, diagnostics with paths, report lines); `commit` is the sha.
 * @throws LoreError `git_failed` when the revision does not exist or git fails;
 *   `invalid_input` for a revision starting with `-`.
 */
export async function indexRepository(options: IndexRepositoryOptions): Promise<IndexReport> {
  const { repo } = options;
  const commit = await repo.resolveCommit(options.commit);
  const source: KnowledgeSource = {
    list: () => repo.listKnowledgeBlobs(commit, KNOWLEDGE_PREFIX),
    read: (blobs) => readInOrder(repo, blobs),
  };
  const { repo: _repo, commit: _rev, ...shared } = options;
  return indexKnowledge({
    ...shared,
    source,
    commit,
    ...(repo.dir === undefined ? {} : { gitFolder: repo.dir }),
  });
}

/**
 * Reads the blobs' bytes through the repository's long-lived `cat-file --batch`, paired with
 * the blob each answers (git answers in the order asked).
 *
 * @param repo - anything that reads blobs by sha (the indexing port, or parse on push's).
 * @param blobs - the blobs, in the order to read them.
 * @throws LoreError `git_failed` when git answers out of order or dies.
 */
export async function* readInOrder(
  repo: Pick<GitRepo, "readBlobs">,
  blobs: readonly KnowledgeBlob[],
): AsyncIterable<{ blob: KnowledgeBlob; bytes: Uint8Array }> {
  let position = 0;
  for await (const { sha, bytes } of repo.readBlobs(blobs.map((blob) => blob.sha))) {
    const blob = blobs[position++];
    if (blob === undefined || blob.sha !== sha) {
      throw new LoreError("git_failed", { reason: `cat-file answered ${sha} out of order` });
    }
    yield { blob, bytes };
  }
}
