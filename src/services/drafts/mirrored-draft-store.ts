/**
 * The drafts port on PostgreSQL (scale-out: several `lore serve` over one database share
 * the drafts; seed 004, "Как знание выходит наружу", "Пределы"): the records live in
 * PostgreSQL (`SharedDraftRecords`, `index/index-store/pg-draft-store.ts`) and each server
 * mirrors them, with their entries under `draft:<repo>`, into its own SQLite index, so
 * recall, search and open list them as before.
 *
 * - Reads of the records (`get`, `list`, `ofBranch`, counts) answer PostgreSQL's.
 * - Writes go to PostgreSQL first (committed: the answer stands), then the mirror is
 *   refreshed, so it takes in the write in the order of the changes (a removal through
 *   another server right after is never undone by a late write of the mirror); a refresh
 *   that fails (the index locked past its wait) is left to the next one.
 * - {@link MirroredDraftStore.refresh} (before every read that can show drafts) applies the
 *   changes numbered after the last it applied: one query when nothing changed. The first
 *   one of a process reads every draft and makes the mirror equal, for the hosted
 *   repositories: a draft the mirror holds and PostgreSQL ever held (removed meanwhile) is
 *   dropped; one PostgreSQL never saw (an index of before drafts moved to PostgreSQL) is
 *   uploaded as it is.
 * - A file that reaches the default branch with a draft's id removes the draft from the
 *   index (`EntryIndex.onDraftSuperseded`); the mirror removes it from PostgreSQL at the
 *   next refresh. A shared draft whose id a file of the index holds already is not
 *   mirrored and is removed there too.
 *
 * Applying is idempotent: several servers on one index file (one machine) mirror into it
 * each, and a change applied twice changes nothing.
 */
import { type DraftDelivery, type DraftRecord, draftFilePath } from "../../core/drafts/draft.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { EntryIndex } from "../../index/entry-index.js";
import type {
  DraftChanges,
  DraftEntry,
  DraftKey,
  DraftListOptions,
  DraftStore,
  SharedDraftRecords,
} from "../../ports/draft-store.js";
import { writeWhenFree } from "../indexing/write-when-free.js";
import { storeDraftEntry } from "./sqlite-draft-store.js";

/** What a {@link MirroredDraftStore} works with. */
export interface MirroredDraftsOptions {
  /** The shared records (the PostgreSQL `IndexStore`'s `drafts`). */
  records: SharedDraftRecords;
  /** This server's index: the mirror. */
  index: EntryIndex;
  /**
   * The hosted repositories' names (the server store's): the first refresh makes the
   * mirror's drafts of these equal to the records' (a local `lore draft` of another source
   * in the same index file is left alone).
   */
  hostedRepos: () => Promise<readonly string[]>;
}

/** {@link DraftStore} over shared records and a mirror in the server's index (see the module header). */
export class MirroredDraftStore implements DraftStore {
  readonly #records: SharedDraftRecords;
  readonly #index: EntryIndex;
  readonly #hostedRepos: () => Promise<readonly string[]>;
  /** The last change number applied; `undefined` until the first refresh. */
  #seq: number | undefined;
  /** Drafts a file replaced in the index, still to remove from the records. */
  #superseded: DraftKey[] = [];
  #tail: Promise<void> = Promise.resolve();
  #queued: Promise<void> | undefined;
  /** The parses of the drafts this server writes, until its mirror took them in (by key). */
  readonly #entries = new Map<string, DraftEntry>();

  /** @param options - see {@link MirroredDraftsOptions}. */
  constructor(options: MirroredDraftsOptions) {
    this.#records = options.records;
    this.#index = options.index;
    this.#hostedRepos = options.hostedRepos;
    this.watch(options.index);
  }

  /**
   * Removes from the records, at the next refresh, each draft a file replaces in `index`
   * (this server's mirror, and the connection its heals write through).
   */
  watch(index: EntryIndex): void {
    index.onDraftSuperseded = (repo, id) => {
      this.#superseded.push({ repo, id });
    };
  }

  async insert(draft: DraftRecord, entry: DraftEntry, limit: number): Promise<void> {
    // A file entry of the repository holding the id (the drafts' ids are the records').
    const owner = this.#index.idOwners(draft.repo, [draft.id]).get(draft.id);
    if (owner !== undefined) {
      const data = { id: draft.id, path: owner.path, repo: draft.repo };
      throw new LoreError("draft_id_taken", data, { data });
    }
    const key = `${draft.repo}\n${draft.id}`;
    this.#entries.set(key, entry);
    try {
      await this.#records.insert(draft, limit);
      await this.#mirror();
    } finally {
      this.#entries.delete(key);
    }
  }

  get(repo: string, id: string): Promise<DraftRecord | undefined> {
    return this.#records.get(repo, id);
  }

  list(repos: readonly string[], options: DraftListOptions): Promise<DraftRecord[]> {
    return this.#records.list(repos, options);
  }

  ofBranch(repo: string, branch: string): Promise<DraftRecord[]> {
    return this.#records.ofBranch(repo, branch);
  }

  countByAuthor(author: string): Promise<number> {
    return this.#records.countByAuthor(author);
  }

  count(): Promise<number> {
    return this.#records.count();
  }

  async remove(repo: string, id: string): Promise<boolean> {
    const removed = await this.#records.remove(repo, id);
    await this.#mirror();
    return removed;
  }

  async markDelivered(
    repo: string,
    ids: readonly string[],
    delivery: DraftDelivery,
  ): Promise<void> {
    await this.#records.markDelivered(repo, ids, delivery);
    await this.#mirror();
  }

  async clearDelivered(repo: string, ids: readonly string[]): Promise<void> {
    await this.#records.clearDelivered(repo, ids);
    await this.#mirror();
  }

  /**
   * Brings the mirror up to date (see the module header). Calls while one runs share the
   * next run, which starts after they were made: a change committed before the call is
   * always applied when it resolves.
   *
   * @throws the records' errors (`database_unavailable`); the index's (locked past its wait).
   */
  refresh(): Promise<void> {
    if (this.#queued !== undefined) return this.#queued;
    const run = this.#tail
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined;
        return this.#sync();
      });
    this.#queued = run;
    this.#tail = run;
    return run;
  }

  /** Removes from the records the drafts files replaced; those not removed stay queued. */
  async #flushSuperseded(): Promise<void> {
    while (this.#superseded.length > 0) {
      const key = this.#superseded[0] as DraftKey;
      await this.#records.remove(key.repo, key.id);
      this.#superseded.shift();
    }
  }

  async #sync(): Promise<void> {
    await this.#flushSuperseded();
    const changes = await this.#records.changes(this.#seq);
    const gone = (changes.whole ? await this.#wholeSync(changes) : changes.removed).filter(
      (key) => this.#index.drafts.get(key.repo, key.id) !== undefined,
    );
    // Read first: changes the mirror holds already (its own writes, or another server's
    // on the same index file) take no write lock.
    const changed = changes.changed.filter((draft) => !this.#holds(draft));
    if (changed.length > 0 || gone.length > 0) {
      await writeWhenFree(this.#index, () => {
        for (const draft of changed) this.#apply(draft);
        for (const key of gone) this.#index.drafts.remove(key.repo, key.id);
      });
    }
    this.#seq = changes.seq;
    await this.#flushSuperseded();
  }

  /**
   * The drafts of the hosted repositories the mirror holds and the records' whole listing
   * does not: those the records held by the listing's change number were removed by then
   * (answered, to remove); those they never held are uploaded; the others were written
   * after the listing (another server on the same index file) and come with the next
   * changes.
   */
  async #wholeSync(changes: DraftChanges): Promise<DraftKey[]> {
    const hosted = new Set(await this.#hostedRepos());
    const shared = new Set(changes.changed.map((d) => `${d.repo}\n${d.id}`));
    const only = this.#index.drafts
      .all()
      .filter((d) => hosted.has(d.repo) && !shared.has(`${d.repo}\n${d.id}`));
    const known = await this.#records.firstChanges(only.map((d) => ({ repo: d.repo, id: d.id })));
    const knownKeys = new Set(known.map((k) => `${k.repo}\n${k.id}`));
    await this.#records.adopt(only.filter((d) => !knownKeys.has(`${d.repo}\n${d.id}`)));
    return known.filter((k) => k.seq <= changes.seq).map((k) => ({ repo: k.repo, id: k.id }));
  }

  /**
   * Makes the mirror hold `draft` as the records do (in the caller's index write): stores
   * it with its entry when missing, sets its delivery when it differs. A draft whose id a
   * file of its repository holds is not stored, and is removed from the records.
   */
  #apply(draft: DraftRecord): void {
    const rows = this.#index.drafts;
    const held = rows.get(draft.repo, draft.id);
    if (held === undefined) {
      if (this.#index.idOwners(draft.repo, [draft.id]).has(draft.id)) {
        this.#superseded.push({ repo: draft.repo, id: draft.id });
        return;
      }
      const parsedEntry = this.#entries.get(`${draft.repo}\n${draft.id}`) ?? entryOf(draft);
      if (parsedEntry === undefined) return;
      const { delivered, ...fresh } = draft;
      storeDraftEntry(this.#index, fresh, parsedEntry);
      if (delivered !== undefined) rows.markDelivered(draft.repo, [draft.id], delivered);
      return;
    }
    const now = draft.delivered;
    if (sameDelivery(held.delivered, now)) return;
    if (now === undefined) rows.clearDelivered(draft.repo, [draft.id]);
    else rows.markDelivered(draft.repo, [draft.id], now);
  }

  /** Whether the mirror holds `draft` as it is (its delivery included). */
  #holds(draft: DraftRecord): boolean {
    const held = this.#index.drafts.get(draft.repo, draft.id);
    return held !== undefined && sameDelivery(held.delivered, draft.delivered);
  }

  /** The refresh after a write; one that fails is left to the next refresh. */
  async #mirror(): Promise<void> {
    try {
      await this.refresh();
    } catch {
      // The records hold the change; the next refresh brings it (its number is newer).
    }
  }
}

/** Whether two deliveries (or their absence) are the same. */
function sameDelivery(a: DraftDelivery | undefined, b: DraftDelivery | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.branch === b.branch &&
    a.commit === b.commit &&
    a.at === b.at &&
    a.mergeRequest === b.mergeRequest
  );
}

/**
 * The entry of a shared draft: the strict parse of its stored text (as `buildDraft` made
 * it); the lenient one for a text a later Lore parses more strictly.
 */
function entryOf(draft: DraftRecord): DraftEntry | undefined {
  const path = draftFilePath(draft.id);
  let parsed = parseEntry(draft.text, { mode: "strict", path });
  if (parsed.value === undefined) parsed = parseEntry(draft.text, { mode: "lenient", path });
  if (parsed.value === undefined) return undefined;
  return { parsed: parsed.value, diagnostics: parsed.diagnostics };
}
