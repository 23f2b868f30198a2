/**
 * Recall across knowledge roots (issue 3: "Recall also searches the notes of every root …
 * each hit names its root; `knowledge_root_id` filters"). The notes are in the same index
 * as entries (see `index-roots.ts`), so an unfiltered {@link recall} finds them; this module
 * names each hit's root and runs a recall restricted to one root.
 */
import type { MatchReason } from "../core/contract-match.js";
import { rootOfRepo, rootRepoName } from "../core/root-repo-name.js";
import type { EntryIndex } from "../index/entry-index.js";
import { RootSearch } from "../index/root-search.js";
import {
  checkLimit,
  countShown,
  decodeCursor,
  fitPage,
  type HitPage,
  parseOptionalQuery,
  queryKey,
  type RecallHit,
  requestKey,
} from "./hit-page.js";
import { RECALL_TEXT_BUDGET, type RecallInput } from "./recall.js";

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
 * Recall over one root's notes: the notes whose contract fires (most triggers first, then
 * by id), then full-text matches by bm25 (at most {@link RECALL_TEXT_BUDGET}); the same page
 * shape, cursor and byte budget as {@link recall}; the listed entries are counted as shown.
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
  const contract = search.contracts(repo, {
    ...(query === undefined ? {} : { stems: query.stems }),
    ...(tool === undefined ? {} : { tool }),
  });
  contract.sort((a, b) =>
    a.reasons.length !== b.reasons.length
      ? b.reasons.length - a.reasons.length
      : a.entryId < b.entryId
        ? -1
        : a.entryId > b.entryId
          ? 1
          : 0,
  );
  const text = query === undefined ? [] : search.text(repo, query.terms, RECALL_TEXT_BUDGET);
  const fired = new Set(contract.map((hit) => hit.fileId));
  const textOnly = text.filter(([fileId]) => !fired.has(fileId));
  const alsoText = new Set(text.filter(([fileId]) => fired.has(fileId)).map(([id]) => id));
  const all: { fileId: number; why: MatchReason[]; score: number }[] = [
    ...contract.map((hit) => ({
      fileId: hit.fileId,
      why: [...hit.reasons, ...(alsoText.has(hit.fileId) ? [{ kind: "text" as const }] : [])],
      score: hit.reasons.length,
    })),
    ...textOnly.map(([fileId, score]) => ({ fileId, why: [{ kind: "text" as const }], score })),
  ];
  const slice = all.slice(offset, offset + limit);
  const records = index.hitRecords(slice.map((row) => row.fileId));
  const hits: RecallHit[] = [];
  for (const row of slice) {
    const record = records.get(row.fileId);
    if (record === undefined) continue;
    const { id, repo: name, path, summary, origin } = record;
    hits.push({
      id,
      repo: name,
      path,
      summary,
      origin,
      why: row.why,
      score: row.score,
      ...(root === undefined ? {} : { root }),
    });
  }
  const answer = fitPage(hits, {
    offset,
    total: all.length,
    totalExact: text.length < RECALL_TEXT_BUDGET,
    more: offset + hits.length < all.length,
    key,
  });
  return countShown(index, input, answer);
}
