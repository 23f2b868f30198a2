/**
 * Recall restricted to a set of the index's sources, the set applied in SQL: one repository
 * (`lore recall --repo`), one knowledge root's notes (`knowledge_root_id`), or — on the team
 * server — the sources the caller may read (seed 004, "Интерфейс": «Права — knowledge:read
 * …»; every answer filtered per repository by the caller's rights, nothing of a repository
 * the caller cannot read leaks: no entry, no count).
 */
import type { MatchReason } from "../../core/recall/contract-match.js";
import { countBits, displayScore } from "../../core/recall/recall-score.js";
import { rootOfRepo } from "../../core/roots/root-repo-name.js";
import type { EntryIndex } from "../../index/entry-index.js";
import { RootSearch } from "../../index/root-search.js";
import { recordReceipt } from "../receipts/record-receipt.js";
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
} from "./hit-page.js";
import {
  contractInput,
  hitLookup,
  queryWords,
  RECALL_TEXT_BUDGET,
  type RecallInput,
  scoreContract,
  scoreText,
} from "./recall.js";

const searches = new WeakMap<EntryIndex, RootSearch>();

/** The index's {@link RootSearch}, made once per index. */
function searchOf(index: EntryIndex): RootSearch {
  let search = searches.get(index);
  if (search === undefined) {
    search = index.withDatabase((db) => new RootSearch(db));
    searches.set(index, search);
  }
  return search;
}

/**
 * Recall over the entries of some sources: the entries whose contract fires and the
 * full-text matches (at most {@link RECALL_TEXT_BUDGET}), ordered by recall's one score
 * (`core/recall/recall-score.ts`), then by entry id; the same page shape, cursor and byte
 * budget as `recall`. Only rows of `repos` are read (the set is a SQL condition), so hits,
 * `total` and pages never include another source's. Hits of a knowledge root carry `root`.
 * The listed entries are counted as shown to `input.user`, and a load receipt is recorded
 * (`services/receipts/record-receipt.ts`).
 *
 * @param index - the index.
 * @param input - as for `recall`, plus `repos`: the index repository names (`owner/name` of a
 *   hosted repository, `root:<id>`, an identity); an empty set answers no hit.
 * @returns `{hits, total, total_exact, next_cursor}`.
 * @throws LoreError `empty_query`, `invalid_limit`, `invalid_cursor`.
 */
export function recallWithin(
  index: EntryIndex,
  input: RecallInput & { repos: readonly string[] },
): HitPage {
  const limit = checkLimit(input.limit);
  const tool = input.tool === undefined || input.tool === "" ? undefined : input.tool;
  const query = parseOptionalQuery(input.query, tool !== undefined);
  const repos = [...new Set(input.repos)].sort();
  // One repository keeps the key of a root's or a `--repo` recall (cursors stay valid).
  const key = requestKey([
    "recall-root",
    repos.join("\n"),
    queryKey(query),
    tool === undefined ? "" : `tool:${tool}`,
  ]);
  const offset = decodeCursor(input.cursor, key);
  const search = searchOf(index);
  const match = contractInput(query, tool);
  const contract = search.contracts(repos, match);
  const words = query === undefined ? undefined : queryWords(query);
  const text =
    query === undefined
      ? []
      : search.text(repos, query.terms, RECALL_TEXT_BUDGET, words?.termMasks ?? []);
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
    const root = rootOfRepo(record.repo);
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
  recordReceipt(index, input, answer);
  return countShown(index, input, answer);
}
