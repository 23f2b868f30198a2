/**
 * The index of entries on SQLite (issue 2, section 3; DESIGN.md "index"): files and their
 * reports, entries, full text, contract lookup tables and usage counters in one database
 * file. Git is the source of truth: deleting the file and re-indexing gives the same answers.
 */
import { type Diagnostic, makeDiagnostic } from "../core/diagnostic.js";
import type { ContractClause, Origin, ParsedEntry } from "../core/entry.js";
import { entryText, type IndexDocument, indexDocument } from "../core/index-document.js";
import { LoreError } from "../core/lore-error.js";
import { ContractLookup, FIRED_ENTRIES_TABLE } from "./contract-lookup.js";
import { type CounterRow, Counters } from "./counters.js";
import { migrate } from "./migrate.js";
import { openSqliteDatabase, type SqliteDatabase } from "./sqlite-database.js";
import { TextSearch } from "./text-search.js";

/** One file to store: an entry when `parsed` is given, else a skipped file with its report. */
export interface FileRecord {
  /** The repository name the file belongs to. */
  repo: string;
  /** The file's path in the repository (`.gitriver/knowledge/…`). */
  path: string;
  /** Git blob sha of the content (or any content hash for a folder). */
  blobSha: string;
  /** The parsed entry; absent for a skipped (*wrong*) file. */
  parsed?: ParsedEntry;
  /** Every diagnostic of the file (its report), kept as is. */
  diagnostics: Diagnostic[];
  /** `indexDocument(parsed)` when the caller computed it already (e.g. in a worker). */
  document?: IndexDocument;
}

/** What {@link EntryIndex.putFile} did. */
export interface PutResult {
  /** `entry` when the entry was stored, `skipped` when only the file and its report were. */
  stored: "entry" | "skipped";
  /** When the entry's id is held by another file: that file (the entry is then skipped). */
  duplicateOf?: { repo: string; path: string };
}

/** An entry as stored, with where it lives and its file's report. */
export interface StoredEntry {
  id: string;
  repo: string;
  path: string;
  blobSha: string;
  origin: Origin;
  links: string[];
  /** The display fragment (the override when it says something else, else the derived one). */
  summary: string;
  /** The `summary` key as written, when the file has one. */
  summaryOverride?: string;
  body: string;
  /** The contract as written. */
  contract: ContractClause[];
  /** Keys this version does not know, as written. */
  unknownKeys: Record<string, unknown>;
  reachable: boolean;
  unmetMechanisms: string[];
  /** The file's parse report. */
  diagnostics: Diagnostic[];
}

/** The fields of a hit: what recall and search list (never the body). */
export interface HitRecord {
  fileId: number;
  id: string;
  repo: string;
  path: string;
  summary: string;
  origin: Origin;
  reachable: boolean;
}

/** One stored file's report. */
export interface FileReport {
  repo: string;
  path: string;
  blobSha: string;
  /** The entry id when the file holds a stored entry, else `null` (skipped). */
  entryId: string | null;
  diagnostics: Diagnostic[];
}

type Row = Record<string, unknown>;

/**
 * The index over one SQLite file. Open with {@link openIndex}; one instance per process and
 * file; not safe to share across threads (better-sqlite3 is synchronous).
 */
export class EntryIndex {
  /** Full-text queries (see `text-search.ts`). */
  readonly text: TextSearch;
  /** Contract lookups (see `contract-lookup.ts`). */
  readonly contracts: ContractLookup;
  readonly #db: SqliteDatabase;
  readonly #counters: Counters;
  readonly #sql;

  /** @param db - an open, migrated database (see {@link openIndex}). */
  constructor(db: SqliteDatabase) {
    this.#db = db;
    db.exec(FIRED_ENTRIES_TABLE);
    this.text = new TextSearch(db);
    this.contracts = new ContractLookup(db);
    this.#counters = new Counters(db);
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      listFiles: p("SELECT path, blob_sha FROM files WHERE repo = ?").raw(),
      fileByPath: p(
        "SELECT f.file_id AS fileId, e.file_id AS entryFileId FROM files f LEFT JOIN entries e USING (file_id) WHERE f.repo = ? AND f.path = ?",
      ),
      insertFile: p("INSERT INTO files (repo, path, blob_sha, report) VALUES (?, ?, ?, ?)"),
      updateFile: p("UPDATE files SET blob_sha = ?, report = ? WHERE file_id = ?"),
      deleteFile: p("DELETE FROM files WHERE file_id = ?"),
      deleteEntry: p("DELETE FROM entries WHERE file_id = ?"),
      storedText: p("SELECT summary, body FROM entries WHERE file_id = ?").raw(),
      deleteText: p(
        "INSERT INTO entry_text (entry_text, rowid, summary, body) VALUES ('delete', ?, ?, ?)",
      ),
      ownerOf: p(
        "SELECT e.file_id AS fileId, f.repo, f.path FROM entries e JOIN files f USING (file_id) WHERE e.id = ?",
      ),
      insertEntry: p(
        `INSERT INTO entries (file_id, id, origin, links, summary, summary_override, body, contract,
           unknown_keys, reachable, unmet_mechanisms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertText: p("INSERT INTO entry_text (rowid, summary, body) VALUES (?, ?, ?)"),
      insertWord: p(
        "INSERT OR IGNORE INTO contract_words (first_stem, file_id, entry_id, word, stems) VALUES (?, ?, ?, ?, ?)",
      ),
      insertTool: p(
        "INSERT OR IGNORE INTO contract_tools (name, file_id, entry_id) VALUES (?, ?, ?)",
      ),
      owners: p(
        "SELECT e.id, f.repo, f.path FROM entries e JOIN files f USING (file_id) WHERE e.id IN (SELECT value FROM json_each(?))",
      ).raw(),
      entryById: p(
        `SELECT e.id, f.repo, f.path, f.blob_sha AS blobSha, e.origin, e.links, e.summary,
           e.summary_override AS summaryOverride, e.body, e.contract, e.unknown_keys AS unknownKeys,
           e.reachable, e.unmet_mechanisms AS unmetMechanisms, f.report
         FROM entries e JOIN files f USING (file_id) WHERE e.id = ?`,
      ),
      hits: p(
        `SELECT f.file_id AS fileId, e.id, f.repo, f.path, e.summary, e.origin, e.reachable
         FROM entries e JOIN files f USING (file_id)
         WHERE e.file_id IN (SELECT value FROM json_each(?))`,
      ),
      reports: p(
        `SELECT f.repo, f.path, f.blob_sha AS blobSha, e.id AS entryId, f.report
         FROM files f LEFT JOIN entries e USING (file_id) ORDER BY f.repo, f.path`,
      ),
      reportsOf: p(
        `SELECT f.repo, f.path, f.blob_sha AS blobSha, e.id AS entryId, f.report
         FROM files f LEFT JOIN entries e USING (file_id) WHERE f.repo = ? ORDER BY f.path`,
      ),
      entryCount: p("SELECT count(*) FROM entries").pluck(),
    };
  }

  /**
   * The stored files of a repository (entries and skipped files alike).
   *
   * @param repo - the repository name.
   * @returns path → blob sha.
   */
  listFiles(repo: string): Map<string, string> {
    return new Map(this.#sql.listFiles.all(repo) as [string, string][]);
  }

  /**
   * Stores one file, replacing what was stored at the same repository and path: its blob
   * sha and report always; its entry, full text and (when reachable) contract triggers when
   * `parsed` is given. An entry whose id another file holds is not stored: the file is kept
   * as skipped with a `duplicate_id` diagnostic added to its report.
   *
   * @param file - the file (see {@link FileRecord}).
   * @returns what was stored.
   */
  putFile(file: FileRecord): PutResult {
    return this.transaction(() => {
      const sql = this.#sql;
      const existing = sql.fileByPath.get(file.repo, file.path) as
        | { fileId: number; entryFileId: number | null }
        | undefined;
      let fileId: number;
      let diagnostics = file.diagnostics;
      let duplicateOf: { repo: string; path: string } | undefined;
      if (file.parsed !== undefined) {
        const owner = sql.ownerOf.get(file.parsed.entry.id) as
          | { fileId: number; repo: string; path: string }
          | undefined;
        if (owner !== undefined && owner.fileId !== existing?.fileId) {
          duplicateOf = { repo: owner.repo, path: owner.path };
          diagnostics = [
            ...diagnostics,
            makeDiagnostic("duplicate_id", {
              path: file.path,
              params: { id: file.parsed.entry.id, other: owner.path },
            }),
          ];
        }
      }
      const report = JSON.stringify(diagnostics);
      if (existing === undefined) {
        fileId = Number(
          sql.insertFile.run(file.repo, file.path, file.blobSha, report).lastInsertRowid,
        );
      } else {
        fileId = existing.fileId;
        if (existing.entryFileId !== null) this.#dropEntry(fileId);
        sql.updateFile.run(file.blobSha, report, fileId);
      }
      if (file.parsed === undefined || duplicateOf !== undefined) {
        return duplicateOf === undefined
          ? { stored: "skipped" }
          : { stored: "skipped", duplicateOf };
      }
      this.#insertEntry(fileId, file.parsed, file.document ?? indexDocument(file.parsed));
      return { stored: "entry" };
    });
  }

  #insertEntry(fileId: number, parsed: ParsedEntry, doc: IndexDocument): void {
    const { entry } = parsed;
    const sql = this.#sql;
    sql.insertEntry.run(
      fileId,
      entry.id,
      entry.origin,
      JSON.stringify(entry.links),
      parsed.summary,
      entry.summary ?? null,
      entry.body,
      JSON.stringify(entry.contract),
      JSON.stringify(entry.unknownKeys),
      parsed.reachable ? 1 : 0,
      JSON.stringify(parsed.unmetMechanisms),
    );
    sql.insertText.run(fileId, doc.summaryText, doc.bodyText);
    if (!parsed.reachable) return;
    for (const { word, stems } of doc.words) {
      sql.insertWord.run(
        stems[0],
        fileId,
        entry.id,
        word,
        stems.length > 1 ? stems.join(" ") : null,
      );
    }
    for (const name of doc.tools) sql.insertTool.run(name, fileId, entry.id);
  }

  /**
   * Removes a file's entry and its full-text row. `entry_text` is contentless (migration 2):
   * FTS5 takes a row out through its `delete` command given the very text inserted, which
   * is re-analysed from the stored summary and body (`entryText`, deterministic), so its
   * row and token counts — hence bm25 — stay those of a fresh index.
   */
  #dropEntry(fileId: number): void {
    const stored = this.#sql.storedText.get(fileId) as [string, string] | undefined;
    if (stored !== undefined) {
      const text = entryText(stored[0], stored[1]);
      this.#sql.deleteText.run(fileId, text.summaryText, text.bodyText);
    }
    this.#sql.deleteEntry.run(fileId);
  }

  /**
   * Drops a stored file, its entry, full text and contract triggers (counters stay: they are
   * keyed by entry id and come back with the entry).
   *
   * @param repo - the repository name.
   * @param path - the file's path.
   * @returns whether a file was stored there.
   */
  deleteFile(repo: string, path: string): boolean {
    return this.transaction(() => {
      const existing = this.#sql.fileByPath.get(repo, path) as
        | { fileId: number; entryFileId: number | null }
        | undefined;
      if (existing === undefined) return false;
      if (existing.entryFileId !== null) this.#dropEntry(existing.fileId);
      this.#sql.deleteFile.run(existing.fileId);
      return true;
    });
  }

  /**
   * Runs `fn` in one transaction: all or nothing. A call inside another joins it (no
   * savepoint: FTS5 flushes its pending writes at every savepoint, which doubles the cost of
   * indexing entry by entry), so a throw rolls back the outermost transaction when it
   * reaches it.
   *
   * The transaction is `BEGIN IMMEDIATE`: it takes the write lock first, waiting up to the
   * busy timeout (`BUSY_TIMEOUT_MS`) while another process writes the same file. A deferred
   * one would start as a read and fail with `SQLITE_BUSY` ("database is locked") at once
   * on its first write, since SQLite cannot wait to upgrade a read snapshot another writer
   * has made stale.
   *
   * @param fn - the work; its result is returned; a throw rolls back and is rethrown.
   * @throws the error of `fn`; `SqliteError` `SQLITE_BUSY` when another writer holds the
   *   lock for longer than the busy timeout.
   */
  transaction<T>(fn: () => T): T {
    return this.#db.inTransaction ? fn() : this.#db.transaction(fn).immediate();
  }

  /**
   * Which file holds each id now.
   *
   * @param ids - entry ids.
   * @returns id → its file; ids held by no file are absent.
   */
  idOwners(ids: readonly string[]): Map<string, { repo: string; path: string }> {
    const out = new Map<string, { repo: string; path: string }>();
    if (ids.length === 0) return out;
    for (const [id, repo, path] of this.#sql.owners.all(JSON.stringify(ids)) as string[][]) {
      out.set(id as string, { repo: repo as string, path: path as string });
    }
    return out;
  }

  /**
   * The whole stored entry (reachable or not).
   *
   * @param id - the entry id.
   * @returns the entry, or `undefined` when no file holds it.
   */
  getEntry(id: string): StoredEntry | undefined {
    const row = this.#sql.entryById.get(id) as Row | undefined;
    if (row === undefined) return undefined;
    const entry: StoredEntry = {
      id: row.id as string,
      repo: row.repo as string,
      path: row.path as string,
      blobSha: row.blobSha as string,
      origin: row.origin as Origin,
      links: JSON.parse(row.links as string) as string[],
      summary: row.summary as string,
      body: row.body as string,
      contract: JSON.parse(row.contract as string) as ContractClause[],
      unknownKeys: JSON.parse(row.unknownKeys as string) as Record<string, unknown>,
      reachable: row.reachable === 1,
      unmetMechanisms: JSON.parse(row.unmetMechanisms as string) as string[],
      diagnostics: JSON.parse(row.report as string) as Diagnostic[],
    };
    if (row.summaryOverride !== null) entry.summaryOverride = row.summaryOverride as string;
    return entry;
  }

  /**
   * The listing fields of entries, by file id.
   *
   * @param fileIds - file ids from a contract or text lookup.
   * @returns file id → record (ids with no entry are absent).
   */
  hitRecords(fileIds: readonly number[]): Map<number, HitRecord> {
    const out = new Map<number, HitRecord>();
    if (fileIds.length === 0) return out;
    for (const row of this.#sql.hits.all(JSON.stringify(fileIds)) as Row[]) {
      out.set(row.fileId as number, {
        fileId: row.fileId as number,
        id: row.id as string,
        repo: row.repo as string,
        path: row.path as string,
        summary: row.summary as string,
        origin: row.origin as Origin,
        reachable: row.reachable === 1,
      });
    }
    return out;
  }

  /**
   * The stored report of every file (entries and skipped files), ordered by repository
   * and path.
   *
   * @param repo - only this repository's files; absent = all.
   */
  fileReports(repo?: string): FileReport[] {
    const rows = (
      repo === undefined ? this.#sql.reports.all() : this.#sql.reportsOf.all(repo)
    ) as Row[];
    return rows.map((row) => ({
      repo: row.repo as string,
      path: row.path as string,
      blobSha: row.blobSha as string,
      entryId: (row.entryId as string | null) ?? null,
      diagnostics: JSON.parse(row.report as string) as Diagnostic[],
    }));
  }

  /** The number of stored entries (reachable or not). */
  entryCount(): number {
    return this.#sql.entryCount.get() as number;
  }

  /**
   * Counts one showing of each entry to a user. Written to the file shortly after, not at
   * once (see `counters.ts`); `stats` and `close` write pending counts first.
   *
   * @param user - who was shown them.
   * @param entryIds - the listed entries.
   * @param now - when, ms since the epoch. Default: the current time.
   */
  countShown(user: string, entryIds: readonly string[], now: number = Date.now()): void {
    this.#counters.countShown(user, entryIds, now);
  }

  /**
   * Counts one read of an entry by a user.
   *
   * @param user - who opened it.
   * @param entryId - the entry.
   * @param now - when, ms since the epoch. Default: the current time.
   */
  countRead(user: string, entryId: string, now: number = Date.now()): void {
    this.#counters.countRead(user, entryId, now);
  }

  /**
   * Shown/read counters with first and last times.
   *
   * @param user - whose; absent = every user's.
   */
  stats(user?: string): CounterRow[] {
    return this.#counters.stats(user);
  }

  /**
   * Builds a query helper over this index's database (e.g. `RootSearch`, issue 3). The
   * helper must not outlive the index.
   *
   * @param make - receives the open database.
   */
  withDatabase<T>(make: (db: SqliteDatabase) => T): T {
    return make(this.#db);
  }

  /**
   * The page cache limit of the connection (`PRAGMA cache_size`), read and optionally set.
   * An index build lowers it: its writes mostly append, and 64 MB of cached pages is a
   * large part of the peak RSS of a 100k-entry build (issue 2, section 8: ≤ 400 MB).
   *
   * @param kib - the new limit, KiB (> 0); absent = leave it as it is.
   * @returns the limit before the call, KiB.
   * @throws LoreError `invalid_input` when `kib` is not a positive whole number.
   */
  pageCacheKib(kib?: number): number {
    const raw = this.#db.pragma("cache_size", { simple: true }) as number;
    // A negative cache_size is in KiB, a positive one in pages.
    const before =
      raw < 0
        ? -raw
        : Math.ceil((raw * (this.#db.pragma("page_size", { simple: true }) as number)) / 1024);
    if (kib !== undefined) {
      if (!Number.isInteger(kib) || kib <= 0) {
        throw new LoreError("invalid_input", { reason: `page cache of ${kib} KiB` });
      }
      this.#db.pragma(`cache_size = ${-kib}`);
    }
    return before;
  }

  /** Merges the full-text index segments (after a large build; optional, idempotent). */
  optimize(): void {
    this.#db.exec("INSERT INTO entry_text (entry_text) VALUES ('optimize')");
  }

  /**
   * Writes the queued usage counts (`countShown`, `countRead`), then closes the database.
   * Idempotent. A failed write of the counts does not stop the close (they are lost).
   */
  close(): void {
    if (!this.#db.open) return;
    try {
      this.#counters.flush();
    } catch {
      // Usage counts only; the close goes on.
    }
    this.#db.close();
  }
}

/**
 * Opens (creating when absent) the index in a SQLite file and brings its schema up to date
 * (see `migrate.ts`).
 *
 * @param file - the database file (its folder must exist), or `:memory:`.
 * @returns the index.
 * @throws LoreError `index_failed` when the file cannot be opened or migrated.
 */
export function openIndex(file: string): EntryIndex {
  const db = openSqliteDatabase(file);
  try {
    migrate(db);
    return new EntryIndex(db);
  } catch (error) {
    db.close();
    if (error instanceof LoreError) throw error;
    throw new LoreError("index_failed", { reason: String(error) }, { cause: error });
  }
}
