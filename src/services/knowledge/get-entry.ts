/**
 * Opening one entry by id (recall: "`get(id)` returns the whole entry with
 * body"; MCP `knowledge_open`, CLI `lore get`).
 */
import { draftSourceOf, repoOfDraftSource } from "../../core/drafts/draft.js";
import type { Diagnostic } from "../../core/entry/diagnostic.js";
import type { ContractClause, Entry, Origin } from "../../core/entry/entry.js";
import { formatEntry } from "../../core/entry/format-entry.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { EntryIndex, StoredEntry } from "../../index/entry-index.js";

/** The whole entry as `get` answers it. */
export interface EntryView {
  id: string;
  repo: string;
  path: string;
  origin: Origin;
  links: string[];
  /** The display fragment. */
  summary: string;
  /** The `summary` key as written, when the file has one. */
  summary_override?: string;
  body: string;
  /** The contract as written (unknown mechanisms included). */
  contract: ContractClause[];
  /** Whether the contract can fire (seed 004, "достижимость"). */
  reachable: boolean;
  /** Mechanisms the entry declares that this version does not know. */
  unmet_mechanisms: string[];
  /** Keys of the file this version does not know, as written. */
  unknown_keys: Record<string, unknown>;
  /** The file's parse report. */
  diagnostics: Diagnostic[];
  /**
   * The entry as a file: its bytes as stored at the indexed commit when the caller could
   * read them (see `Lore.open`), else canonical frontmatter (`formatEntry`) and the body.
   * A draft's: its future file as stored.
   */
  text: string;
  /**
   * `true` for a draft (seed 004: visible at once, marked unverified): `repo` is its
   * repository, `path` its future file. Absent for an entry of a file.
   */
  draft?: true;
  /** The branch a draft was written on; only with `draft`. */
  branch?: string;
}

/**
 * Returns the whole entry (unreachable ones too) and counts a read by `user`.
 *
 * @param index - the index.
 * @param id - the entry id as listed by recall.
 * @param user - who opens it.
 * @param now - when, ms since the epoch. Default: now.
 * @param repo - only the entry of this source or of its drafts (`draft:<repo>`; an id is
 *   unique per source). Default: any. A draft answers with `draft: true`, its `branch`, its
 *   repository as `repo` and its stored future file as `text` (seed 004).
 * @param allowed - only the entries of these sources (the team server: the sources the
 *   caller may read, seed 004 "Интерфейс"); applied in SQL, so a holder outside the set is
 *   neither opened nor counted in `ambiguous_id`: the id is `entry_not_found` as for a
 *   missing one. Default: every source.
 * @param options - `countRead: false` counts nothing (the team server counts the read
 *   durably itself, `CounterStore.recordRead`). Default: a queued read
 *   (`EntryIndex.countRead`, local `lore mcp`).
 * @throws LoreError `entry_not_found` when no stored file (of `allowed`) holds the id;
 *   `ambiguous_id` when entries of several sources hold it and `repo` does not name one.
 */
export function getEntry(
  index: EntryIndex,
  id: string,
  user: string,
  now?: number,
  repo?: string,
  allowed?: readonly string[],
  options: { countRead?: boolean } = {},
): EntryView {
  // Entry ids are held in lower case (the parser folds them): `01A2…` names the same entry.
  // Other ids (a root's `note:<root>:<path>`) keep their case.
  const trimmed = id.trim();
  const holders = index.entriesById(
    /^[0-9a-f-]+$/i.test(trimmed) ? trimmed.toLowerCase() : id,
    allowed,
  );
  // `repo` names a repository: its drafts (`draft:<repo>`) are of it too. A file and a
  // draft never share an id in one repository (the file replaces the draft), so the file
  // is preferred should a race ever leave both.
  const inRepo =
    repo === undefined
      ? holders
      : holders.filter((entry) => entry.repo === repo || entry.repo === draftSourceOf(repo));
  const matching = dropDraftsOfFiles(inRepo);
  const entry = matching[0];
  if (entry === undefined) throw new LoreError("entry_not_found", { id });
  if (matching.length > 1) {
    // Ids are unique per source; two sources holding one id are never resolved by order.
    const repos = matching.map((held) => repoOfDraftSource(held.repo) ?? held.repo);
    throw new LoreError(
      "ambiguous_id",
      { id, count: repos.length, repos: repos.join(", ") },
      { data: { repos } },
    );
  }
  if (options.countRead !== false) {
    index.countRead(user, { repo: entry.repo, id: entry.id }, now ?? Date.now());
  }
  const model: Entry = {
    id: entry.id,
    contract: entry.contract,
    origin: entry.origin,
    links: entry.links,
    unknownKeys: entry.unknownKeys,
    body: entry.body,
  };
  if (entry.summaryOverride !== undefined) model.summary = entry.summaryOverride;
  const draftOf = repoOfDraftSource(entry.repo);
  const view: EntryView = {
    id: entry.id,
    repo: draftOf ?? entry.repo,
    path: entry.path,
    origin: entry.origin,
    links: entry.links,
    summary: entry.summary,
    body: entry.body,
    contract: entry.contract,
    reachable: entry.reachable,
    unmet_mechanisms: entry.unmetMechanisms,
    unknown_keys: entry.unknownKeys,
    diagnostics: entry.diagnostics,
    text: formatEntry(model),
  };
  if (entry.summaryOverride !== undefined) view.summary_override = entry.summaryOverride;
  if (draftOf !== undefined) {
    const draft = index.drafts.get(draftOf, entry.id);
    view.draft = true;
    if (draft !== undefined) {
      view.branch = draft.branch;
      view.text = draft.text;
    }
  }
  return view;
}

/** The holders left when a draft and a file of one repository hold the id: the file. */
function dropDraftsOfFiles(holders: StoredEntry[]): StoredEntry[] {
  const files = new Set(holders.map((held) => held.repo));
  return holders.filter((held) => {
    const of = repoOfDraftSource(held.repo);
    return of === undefined || !files.has(of);
  });
}
