import type { KnowledgeBlob } from "../../ports/git-repo.js";
import type { IndexWriter, TreeView } from "./index-knowledge.js";

/*
 * The duplicate-id rule of the indexing service (seed 004, "дубликат идентификатора в
 * пачке"): ids are unique per source (a repository or a knowledge root; two sources may
 * hold one id — a clash, reported, never resolved by indexing order). Within a source, the
 * file that held an id at the previously indexed commit keeps it, and a newcomer claiming it
 * is skipped with `duplicate_id` (copying an entry to start a new one blames the copy, never
 * the untouched original). Among files with no history — a first build, or an id freed by
 * a deletion — the byte order of paths decides, the same rule `lore check` applies.
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
  /** Ids the batch may not take, id → the path of the stored file that holds it. */
  knownIds: Map<string, string>;
  /**
   * Files of the batch that held an id at the previous run and still hold it: they are
   * parsed first, so they keep it against a newcomer of the batch earlier by path.
   */
  incumbents: Set<string>;
  /** Files of the batch whose old version holds an id another batch file now takes. */
  freeFirst: Set<string>;
  /**
   * Newcomers skipped for an id whose holder changed in this run and is not written yet:
   * they are parsed again once it is (the id may be free by then).
   */
  retry: string[];
}

/**
 * Settles the ids of a parsed batch against the index (see the rule above).
 *
 * @param index - the index (only `idOwners` is used).
 * @param repoName - the source being indexed.
 * @param entries - the batch's entries (the first holder of each id within the batch).
 * @param newIds - the id each file of the batch holds now (absent for a wrong file).
 * @param pending - paths of this run not written yet.
 */
export function settleIds(
  index: Pick<IndexWriter, "idOwners">,
  repoName: string,
  entries: readonly { path: string; parsed: { entry: { id: string } } }[],
  newIds: ReadonlyMap<string, string | undefined>,
  pending: ReadonlySet<string>,
): IdSettlement {
  const owners = index.idOwners(
    repoName,
    entries.map((item) => item.parsed.entry.id),
  );
  const settlement: IdSettlement = {
    knownIds: new Map(),
    incumbents: new Set(),
    freeFirst: new Set(),
    retry: [],
  };
  for (const item of entries) {
    const id = item.parsed.entry.id;
    const owner = owners.get(id);
    if (owner === undefined || owner.path === item.path) continue;
    if (newIds.has(owner.path)) {
      settlement.freeFirst.add(owner.path);
      if (newIds.get(owner.path) === id) settlement.incumbents.add(owner.path);
      continue;
    }
    settlement.knownIds.set(id, owner.path);
    if (pending.has(owner.path)) settlement.retry.push(item.path);
  }
  return settlement;
}

/**
 * Files skipped with `duplicate_id` whose id is now free (its holder was deleted or
 * changed): the first of them by path is parsed again and takes it.
 */
export function recheckDuplicates(
  index: Pick<IndexWriter, "skippedReports" | "idOwners">,
  repoName: string,
  tree: TreeView,
): KnowledgeBlob[] {
  const claims = new Map<string, string[]>();
  // A `duplicate_id` file is always a skipped one: only those are read (not every report).
  for (const [path, diagnostics] of index.skippedReports(repoName)) {
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
  const owners = index.idOwners(repoName, [...claims.keys()]);
  const again = new Set<string>();
  for (const [id, paths] of claims) {
    const owner = owners.get(id);
    const first = paths.sort(comparePaths)[0];
    if (first === undefined) continue;
    if (owner === undefined) again.add(first);
  }
  return [...again]
    .sort(comparePaths)
    .map((path) => tree.get(path))
    .filter((blob): blob is KnowledgeBlob => blob !== undefined);
}
