import type { DraftDelivery, DraftRecord } from "../core/drafts/draft.js";
import type { Diagnostic } from "../core/entry/diagnostic.js";
import type { ParsedEntry } from "../core/entry/entry.js";

/** Options of a listing of drafts ({@link DraftStore.list}). */
export interface DraftListOptions {
  /** Only drafts whose id sorts after this one (the page cursor). */
  after?: string;
  /** At most this many. */
  limit: number;
  /** Only this branch's drafts. */
  branch?: string;
}

/** What the index keeps of a draft's entry beside its record: its strict parse. */
export interface DraftEntry {
  /** The strict parse of the draft's text. */
  parsed: ParsedEntry;
  /** Its diagnostics (notes only). */
  diagnostics: Diagnostic[];
}

/**
 * The drafts as the drafts services see them (seed 004, "Как знание выходит наружу", "Что
 * происходит с черновиком", "Пределы"), behind one port with two engines:
 *
 * - SQLite (`services/drafts/sqlite-draft-store.ts`, the default): the index's own
 *   `drafts` table (`index/draft-rows.ts`) and each draft's entry under `draft:<repo>`;
 * - PostgreSQL (`services/drafts/mirrored-draft-store.ts`, with `[server] database`): the
 *   records in PostgreSQL ({@link SharedDraftRecords}), shared by every `lore serve` over
 *   the database, mirrored with their entries into each server's own index, so recall,
 *   search and open list them.
 *
 * Reads answer the records (PostgreSQL: the database's, never a stale mirror); writes are
 * committed when they resolve. Errors of the database: `database_unavailable`,
 * `index_failed` (PostgreSQL); SQLite's own as the index throws them.
 */
export interface DraftStore {
  /**
   * Stores a new draft and its entry when its id is free in the repository (no file
   * entry of `draft.repo` and no draft of it holds it) and its author holds fewer than
   * `limit` drafts over all repositories. The count and the insert are one step: two
   * writers at the limit — in one process, in two on one index file or (PostgreSQL) on
   * two machines — never both pass.
   *
   * @param draft - the draft (no `delivered`).
   * @param entry - its entry's parse.
   * @param limit - the author's draft limit, a count of drafts.
   * @throws LoreError `draft_id_taken` (`data: {id, path, repo}`), `draft_limit_reached`
   *   (`data: {author, count, limit}`): nothing is stored.
   */
  insert(draft: DraftRecord, entry: DraftEntry, limit: number): Promise<void>;
  /** One draft, or `undefined`. */
  get(repo: string, id: string): Promise<DraftRecord | undefined>;
  /**
   * The drafts of some repositories by id (UUIDv7: oldest first), then repository, a page
   * at a time.
   */
  list(repos: readonly string[], options: DraftListOptions): Promise<DraftRecord[]>;
  /** Every draft of one branch of a repository, delivered or not, by id. */
  ofBranch(repo: string, branch: string): Promise<DraftRecord[]>;
  /** How many drafts an author holds over all repositories (the draft limit counts these). */
  countByAuthor(author: string): Promise<number>;
  /** Removes a draft and its entry (its counters stay); answers whether there was one. */
  remove(repo: string, id: string): Promise<boolean>;
  /** Marks drafts delivered (they stay drafts until their file reaches the default branch). */
  markDelivered(repo: string, ids: readonly string[], delivery: DraftDelivery): Promise<void>;
  /** Forgets where drafts were delivered. */
  clearDelivered(repo: string, ids: readonly string[]): Promise<void>;
  /** The number of stored drafts (`lore db migrate`'s check, tests). */
  count(): Promise<number>;
  /**
   * Brings this server's index up to date with the drafts before a read that lists them
   * (recall, search, open, the drafts listing): one cheap query when nothing changed.
   * SQLite: nothing to do (the index holds the records).
   */
  refresh(): Promise<void>;
}

/** A draft's key: repository and id. */
export interface DraftKey {
  repo: string;
  id: string;
}

/**
 * What changed among the shared drafts after a change number ({@link SharedDraftRecords.changes}):
 * the drafts changed (their state now) and the keys of those removed, with the last change
 * number they include.
 */
export interface DraftChanges {
  /** The last change number included (the `since` of the next call). */
  seq: number;
  /** Drafts written or changed, as they are now. */
  changed: DraftRecord[];
  /** Drafts removed. */
  removed: DraftKey[];
  /**
   * A whole listing (the call had no `since`): `changed` holds every draft, and a mirror
   * drops what it holds of the repositories besides.
   */
  whole: boolean;
}

/**
 * The drafts' records shared by every server over one database (PostgreSQL: the
 * `IndexStore`'s `drafts`), each change numbered in the order it committed, so a mirror
 * asks only for what changed since its last call. Same meaning as {@link DraftStore} for
 * the common methods, without the entries (a mirror keeps those).
 */
export interface SharedDraftRecords {
  /** See {@link DraftStore.insert}; the id is checked among the drafts only. */
  insert(draft: DraftRecord, limit: number): Promise<void>;
  get(repo: string, id: string): Promise<DraftRecord | undefined>;
  list(repos: readonly string[], options: DraftListOptions): Promise<DraftRecord[]>;
  ofBranch(repo: string, branch: string): Promise<DraftRecord[]>;
  countByAuthor(author: string): Promise<number>;
  remove(repo: string, id: string): Promise<boolean>;
  markDelivered(repo: string, ids: readonly string[], delivery: DraftDelivery): Promise<void>;
  clearDelivered(repo: string, ids: readonly string[]): Promise<void>;
  count(): Promise<number>;
  /**
   * The changes after change number `since`; without it, every draft (`whole`). One
   * snapshot: nothing committed meanwhile is half seen.
   */
  changes(since?: number): Promise<DraftChanges>;
  /**
   * Of some keys, those the records ever held (a draft now, or one removed), each with the
   * number of its first change: a mirror uploads only drafts the records never saw (an
   * index of before this release), drops those first changed by the change number of its
   * whole listing (removed by then), and leaves the newer ones to the next changes.
   */
  firstChanges(keys: readonly DraftKey[]): Promise<(DraftKey & { seq: number })[]>;
  /**
   * Stores drafts as they are (delivery included), no limit counted, skipping keys held
   * already; answers how many were stored.
   */
  adopt(drafts: readonly DraftRecord[]): Promise<number>;
  /** Drops a removed repository's drafts (`lore repo rm`); answers how many. */
  forgetRepo(repo: string): Promise<number>;
}
