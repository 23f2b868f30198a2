/**
 * Recall across knowledge roots (knowledge roots: "Recall also searches the notes of every root …
 * each hit names its root; `knowledge_root_id` filters"). The notes are in the same index
 * as entries (see `index-roots.ts`), so an unfiltered {@link recall} finds them; this module
 * names each hit's root and runs a recall restricted to one root.
 */
import { draftSourceOf } from "../../core/drafts/draft.js";
import { rootOfRepo, rootRepoName } from "../../core/roots/root-repo-name.js";
import type { EntryIndex } from "../../index/entry-index.js";
import type { HitPage } from "../knowledge/hit-page.js";
import type { RecallInput } from "../knowledge/recall.js";
import { recallWithin } from "../knowledge/recall-within.js";

/**
 * Adds `root` to each hit that comes from a knowledge root's notes (`root:<id>` repository).
 *
 * @param page - a recall answer.
 * @returns the same page, hits of roots carrying `root`.
 */
export function withRoots(page: HitPage): HitPage {
  return {
    ...page,
    hits: page.hits.map((hit) => {
      const root = rootOfRepo(hit.repo);
      return root === undefined ? hit : { ...hit, root };
    }),
  };
}

/**
 * Recall over one root's notes: the notes whose contract fires and the full-text matches
 * (at most {@link RECALL_TEXT_BUDGET}), ordered by recall's one score
 * (`core/recall/recall-score.ts`); the same page shape, cursor and byte budget as {@link recall};
 * the listed entries are counted as shown.
 *
 * @param index - the index.
 * @param input - as for {@link recall}, plus `root`, the root id (resolved, any case).
 * @throws LoreError `empty_query`, `invalid_limit`, `invalid_cursor`.
 */
export function recallInRoot(index: EntryIndex, input: RecallInput & { root: string }): HitPage {
  return recallInRepo(index, { ...input, repo: rootRepoName(input.root) });
}

/**
 * Recall over one source's entries — a repository (`recall --repo`) or a root's notes —
 * the same way as {@link recallInRoot}; hits carry `root` when the source is a root.
 *
 * @param index - the index.
 * @param input - as for {@link recall}, plus `repo`, the stored repository name.
 * @throws LoreError `empty_query`, `invalid_limit`, `invalid_cursor`.
 */
export function recallInRepo(index: EntryIndex, input: RecallInput & { repo: string }): HitPage {
  const { repo, ...rest } = input;
  // A repository's drafts are recalled with its files (seed 004: visible at once).
  const repos = rootOfRepo(repo) === undefined ? [repo, draftSourceOf(repo)] : [repo];
  return recallWithin(index, { ...rest, repos });
}
