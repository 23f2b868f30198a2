/**
 * The drafts of the index (migration 6; seed 004, "Как знание выходит наружу", "Что
 * происходит с черновиком"): a `drafts` row per draft beside its entry, which is stored
 * like a file's under the source `draft:<repo>` (see `core/drafts/draft.ts`) so recall,
 * search and open list it with the file entries.
 *
 * Reached as `EntryIndex.drafts`; every write runs in the index's transaction, so a draft
 * and its entry are stored or removed together. The drafts services reach it through the
 * drafts port (`services/drafts/sqlite-draft-store.ts`); on PostgreSQL it is the server's
 * mirror of the shared drafts (`services/drafts/mirrored-draft-store.ts`).
 */
import {
  type DraftDelivery,
  type DraftRecord,
  draftFilePath,
  draftSourceOf,
} from "../core/drafts/draft.js";
import { LoreError } from "../core/errors/lore-error.js";
import type { DraftListOptions } from "../ports/draft-store.js";
import type { EntryIndex, FileRecord } from "./entry-index.js";
import type { SqliteDatabase } from "./sqlite-database.js";

interface DraftRow {
  repo: string;
  id: string;
  branch: string;
  author: string;
  created_at: number;
  size: number;
  text: string;
  delivered_branch: string | null;
  delivered_commit: string | null;
  delivered_at: number | null;
  delivered_mr: number | null;
}

/** Options of {@link DraftRows.list} (the drafts port's). */
export type { DraftListOptions };

/** The drafts table of one index. */
export class DraftRows {
  readonly #index: EntryIndex;
  readonly #sql;

  /**
   * @param db - the index's database (migrated to version 6 or later).
   * @param index - the index the drafts' entries are stored in.
   */
  constructor(db: SqliteDatabase, index: EntryIndex) {
    this.#index = index;
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      insert: p(
        `INSERT INTO drafts (repo, id, branch, author, created_at, size, text)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      get: p("SELECT * FROM drafts WHERE repo = ? AND id = ?"),
      byId: p("SELECT * FROM drafts WHERE id = ? ORDER BY repo"),
      list: p(
        `SELECT * FROM drafts WHERE repo IN (SELECT value FROM json_each(?))
           AND id > ? AND (? IS NULL OR branch = ?) ORDER BY id, repo LIMIT ?`,
      ),
      ofBranch: p("SELECT * FROM drafts WHERE repo = ? AND branch = ? ORDER BY id"),
      countByAuthor: p("SELECT count(*) FROM drafts WHERE author = ?").pluck(),
      countAll: p("SELECT count(*) FROM drafts").pluck(),
      all: p("SELECT * FROM drafts ORDER BY repo, id"),
      remove: p("DELETE FROM drafts WHERE repo = ? AND id = ?"),
      markDelivered: p(
        `UPDATE drafts SET delivered_branch = ?, delivered_commit = ?, delivered_at = ?, delivered_mr = ?
         WHERE repo = ? AND id = ?`,
      ),
      clearDelivered: p(
        `UPDATE drafts SET delivered_branch = NULL, delivered_commit = NULL, delivered_at = NULL,
           delivered_mr = NULL WHERE repo = ? AND id = ?`,
      ),
      exists: p("SELECT 1 FROM drafts WHERE repo = ? AND id = ?").pluck(),
    };
  }

  /**
   * Stores a new draft and its entry, in one transaction.
   *
   * @param draft - the draft (no `delivered`).
   * @param file - its entry as the index stores a file: `repo` must be
   *   `draftSourceOf(draft.repo)`, `path` `draftFilePath(draft.id)`, `parsed` set.
   * @throws LoreError `draft_id_taken` when a draft of the repository holds the id already
   *   (nothing is stored).
   */
  insert(draft: DraftRecord, file: FileRecord): void {
    this.#index.transaction(() => {
      if (this.#sql.exists.get(draft.repo, draft.id) !== undefined) {
        throw new LoreError("draft_id_taken", {
          id: draft.id,
          path: draftFilePath(draft.id),
          repo: draft.repo,
        });
      }
      this.#index.putFile({ ...file, repo: draftSourceOf(draft.repo) });
      this.#sql.insert.run(
        draft.repo,
        draft.id,
        draft.branch,
        draft.author,
        draft.createdAt,
        draft.size,
        draft.text,
      );
    });
  }

  /** One draft, or `undefined`. */
  get(repo: string, id: string): DraftRecord | undefined {
    const row = this.#sql.get.get(repo, id) as DraftRow | undefined;
    return row === undefined ? undefined : toDraft(row);
  }

  /** The drafts holding an id, over every repository (normally one). */
  byId(id: string): DraftRecord[] {
    return (this.#sql.byId.all(id) as DraftRow[]).map(toDraft);
  }

  /**
   * The drafts of some repositories by id (UUIDv7: oldest first), a page at a time.
   *
   * @param repos - the repositories' index names (the rights filter: a SQL condition).
   * @param options - see {@link DraftListOptions}.
   */
  list(repos: readonly string[], options: DraftListOptions): DraftRecord[] {
    const branch = options.branch ?? null;
    return (
      this.#sql.list.all(
        JSON.stringify(repos),
        options.after ?? "",
        branch,
        branch,
        options.limit,
      ) as DraftRow[]
    ).map(toDraft);
  }

  /** Every draft of one branch of a repository, delivered or not, by id. */
  ofBranch(repo: string, branch: string): DraftRecord[] {
    return (this.#sql.ofBranch.all(repo, branch) as DraftRow[]).map(toDraft);
  }

  /** How many drafts an author holds over all repositories (the draft limit counts these). */
  countByAuthor(author: string): number {
    return this.#sql.countByAuthor.get(author) as number;
  }

  /** How many drafts the index holds. */
  countAll(): number {
    return this.#sql.countAll.get() as number;
  }

  /** Every draft of the index, by repository and id (`lore db migrate`, the mirror). */
  all(): DraftRecord[] {
    return (this.#sql.all.all() as DraftRow[]).map(toDraft);
  }

  /**
   * Removes a draft and its entry (counters stay: they are keyed by the entry id).
   *
   * @returns whether there was one.
   */
  remove(repo: string, id: string): boolean {
    return this.#index.transaction(() => {
      if (this.#sql.remove.run(repo, id).changes === 0) return false;
      this.#index.deleteFile(draftSourceOf(repo), draftFilePath(id));
      return true;
    });
  }

  /** Marks drafts delivered (they stay drafts until their file reaches the default branch). */
  markDelivered(repo: string, ids: readonly string[], delivery: DraftDelivery): void {
    this.#index.transaction(() => {
      for (const id of ids) {
        this.#sql.markDelivered.run(
          delivery.branch,
          delivery.commit,
          delivery.at,
          delivery.mergeRequest ?? null,
          repo,
          id,
        );
      }
    });
  }

  /** Forgets where drafts were delivered (their request was closed, their branch deleted). */
  clearDelivered(repo: string, ids: readonly string[]): void {
    this.#index.transaction(() => {
      for (const id of ids) this.#sql.clearDelivered.run(repo, id);
    });
  }
}

function toDraft(row: DraftRow): DraftRecord {
  const draft: DraftRecord = {
    id: row.id,
    repo: row.repo,
    branch: row.branch,
    author: row.author,
    createdAt: row.created_at,
    size: row.size,
    text: row.text,
  };
  if (row.delivered_branch !== null && row.delivered_commit !== null) {
    draft.delivered = {
      branch: row.delivered_branch,
      commit: row.delivered_commit,
      at: row.delivered_at ?? 0,
      ...(row.delivered_mr === null ? {} : { mergeRequest: row.delivered_mr }),
    };
  }
  return draft;
}
