/**
 * Small lookups recall needs beside contracts and full text: entry ids of tied hits, and
 * the stored wiki pages of projects other than the current one (left out of a recall).
 */
import type { SqliteDatabase } from "./sqlite-database.js";

/** Lookups for ranking recall hits; statements prepared once. */
export class HitLookup {
  readonly #sql;

  /** @param db - a migrated index database. */
  constructor(db: SqliteDatabase) {
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      entryIds: p(
        "SELECT file_id, id FROM entries WHERE file_id IN (SELECT value FROM json_each(?))",
      ).raw(),
      // The smallest entry ids among some files: the id index read in order, stopping at
      // `limit` members (`+` keeps the planner off the primary key, one probe per file).
      firstIds: p(
        `SELECT file_id, id FROM entries INDEXED BY entries_by_id
         WHERE +file_id IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT ?`,
      ).raw(),
      // `wiki;` is the first string after every `wiki:…` (`;` follows `:`): an index range.
      wikiFiles: p(
        "SELECT file_id FROM files WHERE repo >= 'wiki:' AND repo < 'wiki;' AND repo <> ?",
      ).pluck(),
    };
  }

  /**
   * The entry ids of some files.
   *
   * @param fileIds - file ids.
   * @returns file id → entry id (files without an entry are absent).
   */
  entryIdsOf(fileIds: readonly number[]): Map<number, string> {
    if (fileIds.length === 0) return new Map();
    return new Map(this.#sql.entryIds.all(JSON.stringify(fileIds)) as [number, string][]);
  }

  /**
   * The `limit` files with the smallest entry ids among some files, with their ids: one
   * read of the entry id index in order, which stops at the `limit`-th member (about
   * `limit × entries ÷ files` index rows), instead of one row read per file.
   *
   * @param fileIds - file ids (files without an entry are never listed).
   * @param limit - files to return at most.
   * @returns file id → entry id, at most `limit` of them.
   */
  firstByEntryId(fileIds: readonly number[], limit: number): Map<number, string> {
    if (fileIds.length === 0 || limit <= 0) return new Map();
    const rows = this.#sql.firstIds.all(JSON.stringify(fileIds), limit) as [number, string][];
    return new Map(rows);
  }

  /**
   * The files of every stored project wiki but one.
   *
   * @param current - the index repository name of the current project's wiki (`wikiRepoName`),
   *   or `undefined` to take every wiki.
   * @returns their file ids.
   */
  wikiFilesExcept(current: string | undefined): Set<number> {
    return new Set(this.#sql.wikiFiles.all(current ?? "") as number[]);
  }
}
