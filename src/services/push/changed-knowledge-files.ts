import type { KnowledgeChange } from "../../core/push/knowledge-changes.js";
import { branchOf, type RefUpdate } from "../../core/push/ref-update.js";
import type { PushRepo } from "../../ports/push-repo.js";
import { KNOWLEDGE_PREFIX } from "../indexing/index-knowledge.js";

/**
 * The knowledge files (`.gitriver/knowledge/**\/*.md`) one ref update changed, renames
 * included (seed 004, "Разбор при отправке": only the files changed by this push are
 * parsed). An update of an existing branch compares its old and new commits; a new branch
 * compares with the default branch's head (what is already known), or with the empty tree
 * when the repository has none yet (or the new branch is the default branch); a deleted ref
 * or a ref that is not a branch (a tag) parses nothing.
 *
 * @param repo - the repository, read with the hook's environment in `pre-receive`.
 * @param update - one line of the hook's input.
 * @param defaultBranch - the default branch's name (`main`), when known.
 * @returns the changes in path order; paths that are not UTF-8 come escaped, with `refused`.
 * @throws LoreError `git_failed` when git fails.
 */
export async function changedKnowledgeFiles(
  repo: PushRepo,
  update: RefUpdate,
  defaultBranch: string | undefined,
): Promise<KnowledgeChange[]> {
  const branch = branchOf(update.ref);
  if (update.newSha === null || branch === undefined) return [];
  let from = update.oldSha;
  if (from === null && defaultBranch !== undefined && branch !== defaultBranch) {
    from = (await repo.refCommit(`refs/heads/${defaultBranch}`)) ?? null;
  }
  return repo.changedKnowledge(from, update.newSha, KNOWLEDGE_PREFIX);
}
