import type { KnowledgeBlob } from "../ports/git-repo.js";
import type { IndexWriter } from "./index-knowledge.js";

/*
 * The duplicate-id rule of the indexing service: among the files of a repository holding
 * one id, the first by path wins and the others are skipped with `duplicate_id` (the rule
 * `parseBatch` applies inside a batch, extended to the files already stored), so that the
 * index is a function of the files alone; an id held by another repository stays there.
 */

/**
 * Path order: by Unicode code point, which is UTF-8 byte order — the order of
 * `git ls-tree -r` — and so the order in which batches are parsed and "first wins".
 *
 * @returns negative, zero or positive, as for `Array.prototype.sort`.
 */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === length) return a.length < b.length ? -1 : 1;
  return codePointRank(a.charCodeAt(i)) < codePointRank(b.charCodeAt(i)) ? -1 : 1;
}

/** Moves surrogates (astral code points) above U+E000–U+FFFF, as code point order wants. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/** How a batch's ids stand against the stored files. */
export interface IdSettlement {
  /** Ids the batch may not take, id → holder (`path`, or `repo:path` in another repository). */
  knownIds: Map<string, string>;
  /** Stored files later in path order that lose their id to the batch: drop and parse again. */
  demote: string[];
  /** Files of the batch whose old version holds an id another batch file now takes. */
  freeFirst: Set<string>;
}

/**
 * Settles the ids of a parsed batch against the index (see the rule above).
 *
 * @param index - the index (only `idOwners` is used).
 * @param repoName - the repository being indexed.
 * @param entries - the batch's entries (the first holder of each id within the batch).
 * @param inBatch - the paths of the batch.
 */
export function settleIds(
  index: Pick<IndexWriter, "idOwners">,
  repoName: string,
  entries: readonly { path: string; parsed: { entry: { id: string } } }[],
  inBatch: ReadonlyMap<string, unknown>,
): IdSettlement {
  const owners = index.idOwners(entries.map((item) => item.parsed.entry.id));
  const settlement: IdSettlement = { knownIds: new Map(), demote: [], freeFirst: new Set() };
  for (const item of entries) {
    const id = item.parsed.entry.id;
    const owner = owners.get(id);
    if (owner === undefined) continue;
    if (owner.repo !== repoName) settlement.knownIds.set(id, `${owner.repo}:${owner.path}`);
    else if (owner.path === item.path) continue;
    else if (inBatch.has(owner.path)) settlement.freeFirst.add(owner.path);
    else if (comparePaths(owner.path, item.path) < 0) settlement.knownIds.set(id, owner.path);
    else settlement.demote.push(owner.path);
  }
  return settlement;
}

/**
 * Files skipped with `duplicate_id` whose id is now free, or held by a later path of the
 * same repository: they must be parsed again to follow the first-by-path rule.
 */
export function recheckDuplicates(
  index: Pick<IndexWriter, "fileReports" | "idOwners">,
  repoName: string,
  tree: Map<string, KnowledgeBlob>,
): KnowledgeBlob[] {
  const claims = new Map<string, string[]>();
  for (const { path, diagnostics } of index.fileReports(repoName)) {
    if (!tree.has(path)) continue;
    for (const diagnostic of diagnostics) {
      const id = diagnostic.params.id;
      if (diagnostic.code !== "duplicate_id" || typeof id !== "string") continue;
      const list = claims.get(id) ?? [];
      list.push(path);
      claims.set(id, list);
    }
  }
  if (claims.size === 0) return [];
  const owners = index.idOwners([...claims.keys()]);
  const again = new Set<string>();
  for (const [id, paths] of claims) {
    const owner = owners.get(id);
    const first = paths.sort(comparePaths)[0];
    if (first === undefined) continue;
    if (owner === undefined || (owner.repo === repoName && comparePaths(owner.path, first) > 0)) {
      again.add(first);
    }
  }
  return [...again]
    .sort(comparePaths)
    .map((path) => tree.get(path))
    .filter((blob): blob is KnowledgeBlob => blob !== undefined);
}
