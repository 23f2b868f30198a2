/**
 * The drafts port on SQLite (the embedded default): the index's own `drafts` table
 * (`index/draft-rows.ts`) and each draft's entry under `draft:<repo>`, exactly as the drafts
 * services have always kept them.
 */
import { type DraftRecord, draftFilePath, draftSourceOf } from "../../core/drafts/draft.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { EntryIndex } from "../../index/entry-index.js";
import type { DraftEntry, DraftStore } from "../../ports/draft-store.js";
import { gitBlobSha } from "../indexing/index-folder.js";
import { writeWhenFree } from "../indexing/write-when-free.js";

/**
 * Refuses, in the index's write, a draft id that is not free in its repository: a file
 * entry of `repo` or a draft of it holds it.
 *
 * @throws LoreError `draft_id_taken` (`data: {id, path, repo}`).
 */
export function checkDraftIdFree(index: EntryIndex, repo: string, id: string): void {
  for (const source of [repo, draftSourceOf(repo)]) {
    const owner = index.idOwners(source, [id]).get(id);
    if (owner !== undefined) {
      const data = { id, path: owner.path, repo };
      throw new LoreError("draft_id_taken", data, { data });
    }
  }
}

/**
 * Stores a draft with its entry under `draft:<repo>` (one transaction of the index).
 *
 * @throws LoreError `draft_id_taken` when a draft of the repository holds the id.
 */
export function storeDraftEntry(index: EntryIndex, draft: DraftRecord, entry: DraftEntry): void {
  index.drafts.insert(draft, {
    repo: draftSourceOf(draft.repo),
    path: draftFilePath(draft.id),
    blobSha: gitBlobSha(new TextEncoder().encode(draft.text)),
    parsed: entry.parsed,
    diagnostics: entry.diagnostics,
  });
}

/**
 * The drafts of an index as the {@link DraftStore} port.
 *
 * `insert` runs the id check, the author's count and the insert in ONE `BEGIN IMMEDIATE`
 * transaction of the index: it holds the database's write lock from the count to the
 * commit, so two writers at the limit — in one process (better-sqlite3 is synchronous) or
 * in two processes on one index file (the second waits for the lock, then counts the
 * first's draft) — never both pass. The lock is waited for on the event loop
 * (`writeWhenFree`), never in SQLite's busy handler: a heal of the same server holding it
 * across its git reads must be able to finish meanwhile.
 *
 * @param index - the index holding the drafts.
 */
export function sqliteDraftStore(index: EntryIndex): DraftStore {
  const rows = index.drafts;
  return {
    insert: (draft, entry, limit) =>
      writeWhenFree(index, () => {
        checkDraftIdFree(index, draft.repo, draft.id);
        const count = rows.countByAuthor(draft.author);
        if (count >= limit) {
          const data = { author: draft.author, count, limit };
          throw new LoreError("draft_limit_reached", data, { data });
        }
        storeDraftEntry(index, draft, entry);
      }),
    get: async (repo, id) => rows.get(repo, id),
    list: async (repos, options) => rows.list(repos, options),
    ofBranch: async (repo, branch) => rows.ofBranch(repo, branch),
    countByAuthor: async (author) => rows.countByAuthor(author),
    remove: async (repo, id) => rows.remove(repo, id),
    markDelivered: async (repo, ids, delivery) => rows.markDelivered(repo, ids, delivery),
    clearDelivered: async (repo, ids) => rows.clearDelivered(repo, ids),
    count: async () => rows.countAll(),
    refresh: async () => undefined,
  };
}
