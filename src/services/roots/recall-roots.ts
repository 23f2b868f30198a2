/**
 * Recall across knowledge roots (knowledge roots: "Recall also searches the notes of every root …
 * each hit names its root; `knowledge_root_id` filters"). The notes are in the same index
 * as entries (see `index-roots.ts`), so an unfiltered {@link recall} finds them; this module
 * names each hit's root and runs a recall restricted to one root.
 */
import type { MatchReason } from "../../core/recall/contract-match.js";
import { countBits, displayScore } from "../../core/recall/recall-score.js";
import { rootOfRepo, rootRepoName } from "../../core/roots/root-repo-name.js";
import type { EntryIndex } from "../../index/entry-index.js";
import { RootSearch } from "../../index/root-search.js";
import {
  checkLimit,
  countShown,
  decodeCursor,
  fitPage,
  type HitPage,
  parseOptionalQuery,
  queryKey,
  type RecallHit,
  recallHit,
  requestKey,
} from "../knowledge/hit-page.js";
import {
  contractInput,
  hitLookup,
  queryWords,
  RECALL_TEXT_BUDGET,
  type RecallInput,
  scoreContract,
  scoreText,
} from "../knowledge/recall.js";

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

const searches = new WeakMap<EntryIndex, RootSearch>();

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
  const limit = checkLimit(input.limit);
  const tool = input.tool === undefined || input.tool === "" ? undefined : input.tool;
  const query = parseOptionalQuery(input.query, tool !== undefined);
  const repo = input.repo;
  const root = rootOfRepo(repo);
  const key = requestKey([
    "recall-root",
    repo,
    queryKey(query),
    tool === undefined ? "" : `tool:${tool}`,
  ]);
  const offset = decodeCursor(input.cursor, key);
  let search = searches.get(index);
  if (search === undefined) {
    search = index.withDatabase((db) => new RootSearch(db));
    searches.set(index, search);
  }
  const match = contractInput(query, tool);
  const contract = search.contracts(repo, match);
  const words = query === undefined ? undefined : queryWords(query);
  const text =
    query === undefined
      ? []
      : search.text(repo, query.terms, RECALL_TEXT_BUDGET, words?.termMasks ?? []);
  const byFile = new Map(contract.map((hit) => [hit.fileId, hit]));
  const asked = (words?.bitOf.size ?? 0) + (tool === undefined ? 0 : 1);
  const candidates: { fileId: number; entryId?: string; score: number; why: MatchReason[] }[] = [];
  const withText = new Set<number>();
  for (const row of text) {
    const hit = byFile.get(row.fileId);
    withText.add(row.fileId);
    const scored = scoreText(row, hit === undefined ? undefined : { ...hit, matched: 0 }, asked);
    const why: MatchReason[] = [...(hit?.reasons ?? [])];
    if (row.mask !== 0 || row.relevance > 0) why.push({ kind: "text" });
    candidates.push({ ...scored, why });
  }
  for (const hit of contract) {
    if (withText.has(hit.fileId)) continue;
    const matched = countBits(hit.mask) + (hit.tool ? 1 : 0);
    const scored = scoreContract({ ...hit, matched }, asked);
    candidates.push({ ...scored, why: hit.reasons });
  }
  const ids = hitLookup(index).entryIdsOf(
    candidates.filter((c) => c.entryId === undefined).map((c) => c.fileId),
  );
  for (const c of candidates) c.entryId ??= ids.get(c.fileId) ?? "";
  candidates.sort((a, b) =>
    a.score !== b.score
      ? b.score - a.score
      : (a.entryId as string) < (b.entryId as string)
        ? -1
        : (a.entryId as string) > (b.entryId as string)
          ? 1
          : 0,
  );
  const slice = candidates.slice(offset, offset + limit);
  const records = index.hitRecords(slice.map((row) => row.fileId));
  const hits: RecallHit[] = [];
  for (const row of slice) {
    const record = records.get(row.fileId);
    if (record === undefined) continue;
    hits.push({
      ...recallHit(record, row.why, displayScore(row.score)),
      ...(root === undefined ? {} : { root }),
    });
  }
  const answer = fitPage(hits, {
    offset,
    total: candidates.length,
    totalExact: text.length < RECALL_TEXT_BUDGET,
    more: offset + hits.length < candidates.length,
    key,
  });
  return countShown(index, input, answer);
}
