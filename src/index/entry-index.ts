/**
 * The index of entries on SQLite (DESIGN.md "index"): files and their
 * reports, entries, full text, contract lookup tables and usage counters in one database
 * file. Git is the source of truth: deleting the file and re-indexing gives the same answers.
 */
import { existsSync } from "node:fs";
import { readBlobsSync } from "../adapters/git-cli/read-blobs-sync.js";
import { DEFAULT_RECEIPT_KEEP_DAYS } from "../core/config/config-defaults.js";
import { repoOfDraftSource } from "../core/drafts/draft.js";
import { type Diagnostic, makeDiagnostic } from "../core/entry/diagnostic.js";
import {
  type ContractClause,
  KNOWN_MECHANISMS,
  type Origin,
  type ParsedEntry,
} from "../core/entry/entry.js";
import { entryBodyOf } from "../core/entry/entry-body.js";
import { entryText, indexDocument, type StoredDocument } from "../core/entry/index-document.js";
import { evaluateContract } from "../core/entry/parse-contract.js";
import { LoreError } from "../core/errors/lore-error.js";
import type { CounterSum } from "../core/stats/usage-sums.js";
import { LineAnalysisMemo } from "../core/text/line-analysis-memo.js";
import { type StemStore, withStemStore } from "../core/text/stem.js";
import { ContractLookup } from "./contract-lookup.js";
import {
  type CounterRow,
  Counters,
  type CountKey,
  countingRepo,
  type DayCount,
  isBusy,
} from "./counters.js";
import { DraftRows } from "./draft-rows.js";
import {
  EntryUsage,
  type UsageEntry,
  type UsageEntryOptions,
  type UsageOptions,
  type UsageRecord,
} from "./entry-usage.js";
import { migrate } from "./migrate.js";
import { ReceiptRows } from "./receipt-rows.js";
import { openSqliteDatabase, type SqliteDatabase } from "./sqlite-database.js";
import { TextSearch } from "./text-search.js";

export type {
  UsageEntry,
  UsageEntryOptions,
  UsageOptions,
  UsageRecord,
} from "./entry-usage.js";

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
  /**
   * `indexDocument(parsed)` when the caller computed it already (e.g. in a worker thread,
   * whose full-text columns may come as UTF-8 bytes).
   */
  document?: StoredDocument;
  /**
   * True when `blobSha` names a blob of the git repository in `repositories.path` (a source
   * indexed from a commit): the body is then not stored but read back from git when needed
   * (migration 5). Default: false (the body is stored).
   */
  bodyInGit?: boolean;
}

/**
 * Reads blobs of a repository by name, synchronously (the index writes inside synchronous
 * transactions). Default: `git cat-file --batch` (`adapters/git-cli/read-blobs-sync.ts`).
 *
 * @param folder - the repository's folder.
 * @param shas - blob names.
 * @returns sha → bytes; unreadable blobs are absent.
 */
export type BlobReader = (folder: string, shas: readonly string[]) => Map<string, Uint8Array>;

/** What {@link EntryIndex.putFile} did. */
export interface PutResult {
  /** `entry` when the entry was stored, `skipped` when only the file and its report were. */
  stored: "entry" | "skipped";
  /** When the entry's id is held by another file of the same source: that file (the entry is then skipped). */
  duplicateOf?: { repo: string; path: string };
}

/** The kind of an indexed source. */
export type RepositoryKind = "git" | "folder" | "root";

/** One indexed source (a row of `repositories`, migration 4). */
export interface RepositoryRecord {
  /** The identity: the name its files are stored under (see `core/repos/repo-identity.ts`). */
  repo: string;
  /** The absolute folder it was last read from. */
  path: string;
  kind: RepositoryKind;
  /** The commit indexed; `null` for a folder, a root or the working files (`--worktree`). */
  commit: string | null;
  /** When it was last indexed, ms since the epoch. */
  indexedAt: number;
}

/** A repository with its counts, as `lore repos` lists it. */
export interface RepositoryListing extends RepositoryRecord {
  /** Stored entries. */
  entries: number;
  /** Stored files that are *wrong* (skipped). */
  skipped: number;
  /** Drafts of the repository in this index, delivered or not (migration 6). */
  drafts: number;
}

/** An id held by entries of two sources (never resolved: both are kept). */
export interface IdClash {
  id: string;
  /** The file of the source asked about. */
  path: string;
  /** The other source and its file. */
  otherRepo: string;
  otherPath: string;
}

/** Options of {@link openIndex}. */
export interface OpenIndexOptions {
  /**
   * The mechanisms of the running version. Default: `KNOWN_MECHANISMS`. When the file's
   * entries were evaluated with another set, the entries that use a mechanism of the
   * difference are re-evaluated as the file opens (see {@link EntryIndex.reevaluate}).
   */
  mechanisms?: readonly string[];
  /** How bodies kept only in git are read back (see {@link BlobReader}). */
  readBlobs?: BlobReader;
  /**
   * The clock of the entries' ages (`entry_ages`, migration 7: when an id is first
   * stored), ms since the epoch. Default `Date.now`.
   */
  now?: () => number;
  /**
   * How long a statement waits for another connection's lock before `SQLITE_BUSY`, ms.
   * Default `BUSY_TIMEOUT_MS` (5 s); an agent hook passes what is left of its time budget.
   */
  busyTimeoutMs?: number;
  /** Days a load receipt is kept (`[receipts] keep_days`). Default `DEFAULT_RECEIPT_KEEP_DAYS`. */
  receiptKeepDays?: number;
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
  /** The branch of a draft's entry (`repo` is then `draft:<repo>`); absent for a file's. */
  draftBranch?: string;
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

/** Files of a forgotten source whose git-kept bodies are read in one git call. */
const FORGET_CHUNK = 1_000;

/**
 * The index over one SQLite file. Open with {@link openIndex}; one instance per process and
 * file; not safe to share across threads (better-sqlite3 is synchronous).
 */
export class EntryIndex {
  /** Full-text queries (see `text-search.ts`). */
  readonly text: TextSearch;
  /** Contract lookups (see `contract-lookup.ts`). */
  readonly contracts: ContractLookup;
  /** The mechanisms of the running version (see {@link OpenIndexOptions}). */
  readonly mechanisms: readonly string[];
  /** Drafts (migration 6, see `draft-rows.ts`). */
  readonly drafts: DraftRows;
  /**
   * Told of each draft a file replaced (a file with the draft's id reached the repository's
   * default branch, {@link putFile}), after it was removed here, inside the write: the
   * server's mirror of the drafts on PostgreSQL removes it there too
   * (`services/drafts/mirrored-draft-store.ts`). Must not throw nor write. Default: none.
   */
  onDraftSuperseded: ((repo: string, id: string) => void) | undefined;
  /** Load receipts (migration 9, see `receipt-rows.ts`). */
  readonly receipts: ReceiptRows;
  readonly #db: SqliteDatabase;
  readonly #counters: Counters;
  readonly #sql;
  readonly #readBlobs: BlobReader;
  readonly #now: () => number;
  readonly #usage: EntryUsage;
  /** Bodies read from git ahead of a batch of drops ({@link preloadBodies}), by blob sha. */
  readonly #bodies = new Map<string, string>();
  /**
   * The `stems` table (migration 11) as the stemmer's lasting memo, used around the index's
   * own analysis (always inside a write transaction, which its writes join).
   */
  readonly #stems: StemStore;

  /** @param db - an open, migrated database (see {@link openIndex}). */
  constructor(db: SqliteDatabase, options: OpenIndexOptions = {}) {
    this.#db = db;
    this.mechanisms = [...(options.mechanisms ?? KNOWN_MECHANISMS)].sort();
    this.#readBlobs = options.readBlobs ?? readBlobsSync;
    this.#now = options.now ?? Date.now;
    this.#usage = new EntryUsage(db);
    this.contracts = new ContractLookup(db);
    const contracts = this.contracts;
    this.text = new TextSearch(db, () => contracts.firedFileIds());
    this.#counters = new Counters(db);
    this.drafts = new DraftRows(db, this);
    this.receipts = new ReceiptRows(db, options.receiptKeepDays ?? DEFAULT_RECEIPT_KEEP_DAYS);
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      listFiles: p("SELECT path, blob_sha FROM files WHERE repo = ?").raw(),
      fileSha: p("SELECT blob_sha FROM files WHERE repo = ? AND path = ?").pluck(),
      fileByPath: p(
        "SELECT f.file_id AS fileId, e.file_id AS entryFileId FROM files f LEFT JOIN entries e USING (file_id) WHERE f.repo = ? AND f.path = ?",
      ),
      insertFile: p(
        "INSERT INTO files (repo, path, blob_sha, report, skipped) VALUES (?, ?, ?, ?, ?)",
      ),
      updateFile: p("UPDATE files SET blob_sha = ?, report = ?, skipped = ? WHERE file_id = ?"),
      stemGet: p("SELECT stem FROM stems WHERE token = ?").pluck(),
      stemPut: p("INSERT OR IGNORE INTO stems (token, stem) VALUES (?, ?)"),
      deleteFile: p("DELETE FROM files WHERE file_id = ?"),
      deleteEntry: p("DELETE FROM entries WHERE file_id = ?"),
      storedText: p(
        "SELECT e.summary, e.body, f.repo, f.blob_sha FROM entries e JOIN files f USING (file_id) WHERE e.file_id = ?",
      ).raw(),
      gitBodies: p(
        `SELECT f.blob_sha FROM files f JOIN entries e USING (file_id)
         WHERE f.repo = ? AND e.body IS NULL AND f.path IN (SELECT value FROM json_each(?))`,
      ).pluck(),
      folderOf: p(
        `SELECT folder FROM body_sources WHERE repo = ?
         UNION ALL SELECT path FROM repositories WHERE repo = ? LIMIT 1`,
      ).pluck(),
      setBodySource: p(
        "INSERT INTO body_sources (repo, folder) VALUES (?, ?) ON CONFLICT (repo) DO UPDATE SET folder = excluded.folder",
      ),
      deleteBodySource: p("DELETE FROM body_sources WHERE repo = ?"),
      bodySource: p("SELECT folder FROM body_sources WHERE repo = ?").pluck(),
      deleteText: p(
        "INSERT INTO entry_text (entry_text, rowid, summary, body) VALUES ('delete', ?, ?, ?)",
      ),
      ownerOf: p(
        "SELECT e.file_id AS fileId, f.repo, f.path FROM entries e JOIN files f USING (file_id) WHERE e.repo = ? AND e.id = ?",
      ),
      insertEntry: p(
        `INSERT INTO entries (file_id, repo, id, origin, links, summary, summary_override, body, contract,
           unknown_keys, reachable, unmet_mechanisms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertText: p("INSERT INTO entry_text (rowid, summary, body) VALUES (?, ?, ?)"),
      // The first storing of an id gives its age; a later one (a new version of the file,
      // a draft becoming a file, a re-evaluation) keeps it.
      touchAge: p(
        "INSERT OR IGNORE INTO entry_ages (repo, entry_id, first_seen_at) VALUES (?, ?, ?)",
      ),
      insertWord: p(
        "INSERT OR IGNORE INTO contract_words (first_stem, file_id, entry_id, word, stems) VALUES (?, ?, ?, ?, ?)",
      ),
      insertTool: p(
        "INSERT OR IGNORE INTO contract_tools (name, file_id, entry_id) VALUES (?, ?, ?)",
      ),
      owners: p(
        "SELECT e.id, f.repo, f.path FROM entries e JOIN files f USING (file_id) WHERE e.repo = ? AND e.id IN (SELECT value FROM json_each(?))",
      ).raw(),
      clashes: p(
        `SELECT e.id, f.path, o.repo AS otherRepo, g.path AS otherPath
         FROM entries e JOIN files f ON f.file_id = e.file_id
         JOIN entries o ON o.id = e.id AND o.repo <> e.repo JOIN files g ON g.file_id = o.file_id
         WHERE e.repo = ? ORDER BY f.path, o.repo`,
      ),
      // The same rows, walked from the other sources' entries (each looked up in this
      // source by its id): the cheaper way when the others hold fewer entries. CROSS JOIN
      // keeps `o` the outer loop (the planner would drive from `e.repo = ?`, the large side).
      clashesFromOthers: p(
        `SELECT e.id, f.path, o.repo AS otherRepo, g.path AS otherPath
         FROM entries o CROSS JOIN entries e ON e.repo = @repo AND e.id = o.id
         JOIN files f ON f.file_id = e.file_id JOIN files g ON g.file_id = o.file_id
         WHERE o.repo < @repo OR o.repo > @repo ORDER BY f.path, o.repo`,
      ),
      entriesOfUpTo: p(
        "SELECT count(*) FROM (SELECT 1 FROM entries WHERE repo = ? LIMIT ?)",
      ).pluck(),
      entriesNotOfUpTo: p(
        "SELECT count(*) FROM (SELECT 1 FROM entries WHERE repo < @repo OR repo > @repo LIMIT @bound)",
      ).pluck(),
      repository: p(
        "SELECT repo, path, kind, commit_sha AS 'commit', indexed_at AS indexedAt FROM repositories WHERE repo = ?",
      ),
      repositoryByPath: p(
        "SELECT repo, path, kind, commit_sha AS 'commit', indexed_at AS indexedAt FROM repositories WHERE path = ? ORDER BY indexed_at DESC",
      ),
      repositories: p(
        `SELECT r.repo, r.path, r.kind, r.commit_sha AS 'commit', r.indexed_at AS indexedAt,
           (SELECT count(*) FROM entries e WHERE e.repo = r.repo) AS entries,
           -- files minus entries: two counts over covering indexes, no entry row is read
           (SELECT count(*) FROM files f WHERE f.repo = r.repo)
             - (SELECT count(*) FROM entries e WHERE e.repo = r.repo) AS skipped,
           (SELECT count(*) FROM drafts d WHERE d.repo = r.repo) AS drafts
         FROM repositories r ORDER BY r.kind = 'root', r.repo`,
      ),
      repositoryRows: p(
        "SELECT repo, path, kind, commit_sha AS 'commit', indexed_at AS indexedAt FROM repositories ORDER BY repo",
      ),
      upsertRepository: p(
        `INSERT INTO repositories (repo, path, kind, commit_sha, indexed_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (repo) DO UPDATE SET path = excluded.path, kind = excluded.kind,
           commit_sha = excluded.commit_sha, indexed_at = excluded.indexed_at`,
      ),
      deleteRepository: p("DELETE FROM repositories WHERE repo = ?"),
      filePathsOf: p("SELECT path FROM files WHERE repo = ?").pluck(),
      metaGet: p("SELECT value FROM meta WHERE key = ?").pluck(),
      metaSet: p(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      ),
      entryById: p(
        `SELECT e.id, f.repo, f.path, f.blob_sha AS blobSha, e.origin, e.links, e.summary,
           e.summary_override AS summaryOverride, e.body, e.contract, e.unknown_keys AS unknownKeys,
           e.reachable, e.unmet_mechanisms AS unmetMechanisms, f.report
         FROM entries e JOIN files f USING (file_id) WHERE e.id = ? ORDER BY f.repo`,
      ),
      entryByIdIn: p(
        `SELECT e.id, f.repo, f.path, f.blob_sha AS blobSha, e.origin, e.links, e.summary,
           e.summary_override AS summaryOverride, e.body, e.contract, e.unknown_keys AS unknownKeys,
           e.reachable, e.unmet_mechanisms AS unmetMechanisms, f.report
         FROM entries e JOIN files f USING (file_id)
         WHERE e.id = ? AND f.repo IN (SELECT value FROM json_each(?)) ORDER BY f.repo`,
      ),
      hits: p(
        // A draft's entry (source `draft:<repo>`) carries its branch from `drafts`.
        `SELECT f.file_id AS fileId, e.id, f.repo, f.path, e.summary, e.origin, e.reachable,
           d.branch AS draftBranch
         FROM entries e JOIN files f USING (file_id)
         LEFT JOIN drafts d ON substr(f.repo, 1, 6) = 'draft:' AND d.repo = substr(f.repo, 7)
           AND d.id = e.id
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
      // The partial index of migration 11: only the skipped rows are read.
      skippedOf: p("SELECT path, report FROM files WHERE repo = ? AND skipped = 1").raw(),
    };
    const sql = this.#sql;
    this.#stems = {
      get: (token) => sql.stemGet.get(token) as string | undefined,
      put: (token, stem) => void sql.stemPut.run(token, stem),
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
   * The blob sha stored for one file (parse on push looks up only the files a push
   * changed, never lists 100k).
   *
   * @returns the sha, or `undefined` when no such file is stored.
   */
  fileSha(repo: string, path: string): string | undefined {
    return this.#sql.fileSha.get(repo, path) as string | undefined;
  }

  /**
   * Stores one file, replacing what was stored at the same repository and path: its blob
   * sha and report always; its entry, full text and (when reachable) contract triggers when
   * `parsed` is given. An entry whose id another file holds is not stored: the file is kept
   * as skipped with a `duplicate_id` diagnostic added to its report.
   *
   * The text's analysis (the new text's, and the old one's to take it out of the full
   * text) stems through the index's lasting memo (`stems`, migration 11, see
   * `core/text/stem.ts` `withStemStore`), which it also fills.
   *
   * @param file - the file (see {@link FileRecord}).
   * @returns what was stored.
   */
  putFile(file: FileRecord): PutResult {
    return this.transaction(() => withStemStore(this.#stems, () => this.#putFile(file)));
  }

  /**
   * Keeps stems computed outside the index's own analysis (a worker thread's, see
   * `services/indexing/batch-analysis.ts`) in its lasting memo (`stems`, migration 11), as
   * its own analysis would have; a token already kept keeps its row. Joins the caller's
   * transaction.
   *
   * @param stems - `[token, stem]` pairs, each `stemToken(token) === stem`.
   */
  keepStems(stems: readonly (readonly [string, string])[]): void {
    this.transaction(() => {
      for (const [token, stem] of stems) this.#sql.stemPut.run(token, stem);
    });
  }

  /** {@link putFile} inside its transaction, with the stemmer's lasting memo on. */
  #putFile(file: FileRecord): PutResult {
    const sql = this.#sql;
    const existing = sql.fileByPath.get(file.repo, file.path) as
      | { fileId: number; entryFileId: number | null }
      | undefined;
    let fileId: number;
    let diagnostics = file.diagnostics;
    let duplicateOf: { repo: string; path: string } | undefined;
    if (file.parsed !== undefined) {
      const owner = sql.ownerOf.get(file.repo, file.parsed.entry.id) as
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
    // The old text is analysed to take it out, the new one to put it in: lines they share
    // are analysed once.
    const memo = new LineAnalysisMemo();
    const skipped = file.parsed === undefined || duplicateOf !== undefined ? 1 : 0;
    if (existing === undefined) {
      fileId = Number(
        sql.insertFile.run(file.repo, file.path, file.blobSha, report, skipped).lastInsertRowid,
      );
    } else {
      fileId = existing.fileId;
      if (existing.entryFileId !== null) this.#dropEntry(fileId, memo);
      sql.updateFile.run(file.blobSha, report, skipped, fileId);
    }
    if (file.parsed === undefined || duplicateOf !== undefined) {
      return duplicateOf === undefined ? { stored: "skipped" } : { stored: "skipped", duplicateOf };
    }
    this.#insertEntry(
      fileId,
      file.repo,
      file.parsed,
      file.document ?? indexDocument(file.parsed, memo),
      file.bodyInGit === true,
    );
    // A file that arrives with a draft's id replaces the draft (seed 004, «Снимает
    // черновик попадание его файла в ветку по умолчанию»): the id, hence the counters,
    // carry over.
    if (
      repoOfDraftSource(file.repo) === undefined &&
      this.drafts.remove(file.repo, file.parsed.entry.id)
    ) {
      this.onDraftSuperseded?.(file.repo, file.parsed.entry.id);
    }
    return { stored: "entry" };
  }

  #insertEntry(
    fileId: number,
    repo: string,
    parsed: ParsedEntry,
    doc: StoredDocument,
    bodyInGit: boolean,
  ): void {
    const { entry } = parsed;
    const sql = this.#sql;
    sql.insertEntry.run(
      fileId,
      repo,
      entry.id,
      entry.origin,
      JSON.stringify(entry.links),
      parsed.summary,
      entry.summary ?? null,
      bodyInGit ? null : entry.body,
      JSON.stringify(entry.contract),
      JSON.stringify(entry.unknownKeys),
      parsed.reachable ? 1 : 0,
      JSON.stringify(parsed.unmetMechanisms),
    );
    sql.insertText.run(fileId, doc.summaryText, doc.bodyText);
    sql.touchAge.run(countingRepo(repo), entry.id, this.#now());
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
  #dropEntry(fileId: number, memo?: LineAnalysisMemo): void {
    const stored = this.#sql.storedText.get(fileId) as
      | [string, string | null, string, string]
      | undefined;
    if (stored !== undefined) {
      const [summary, body, repo, blobSha] = stored;
      const text = entryText(summary, body ?? this.#gitBody(repo, blobSha), memo);
      this.#sql.deleteText.run(fileId, text.summaryText, text.bodyText);
    }
    this.#sql.deleteEntry.run(fileId);
  }

  /**
   * Records the git repository a source's bodies are read back from (see
   * {@link FileRecord.bodyInGit}); called as a run from a commit starts.
   *
   * @param repo - the source.
   * @param folder - the repository's folder (the work tree top or the bare repository).
   */
  setBodySource(repo: string, folder: string): void {
    // Written only when it changes: a run with nothing new must not take the write lock.
    if (this.#sql.bodySource.get(repo) !== folder) this.#sql.setBodySource.run(repo, folder);
  }

  /**
   * Reads ahead, in one git call, the bodies kept only in git of a source's files that are
   * about to be replaced or removed (each drop would otherwise read its blob alone).
   * Optional: a drop reads what was not read ahead. The bodies are kept until the next
   * call.
   *
   * @param repo - the source.
   * @param paths - the files' paths.
   * @returns how many of those bodies could not be read (0 when all were).
   */
  preloadBodies(repo: string, paths: readonly string[]): number {
    this.#bodies.clear();
    if (paths.length === 0) return 0;
    const shas = this.#sql.gitBodies.all(repo, JSON.stringify(paths)) as string[];
    this.#loadBodies(repo, shas);
    return shas.filter((sha) => !this.#bodies.has(sha)).length;
  }

  /** Reads git-kept bodies by blob sha into the read-ahead map (unreadable ones are left out). */
  #loadBodies(repo: string, shas: readonly string[]): void {
    if (shas.length === 0) return;
    const folder = this.#sql.folderOf.get(repo, repo) as string | undefined;
    if (folder === undefined) return;
    for (const [sha, bytes] of this.#readBlobs(folder, shas)) {
      const body = entryBodyOf(bytes);
      if (body !== undefined) this.#bodies.set(sha, body);
    }
  }

  /**
   * Refills the full text from every stored entry (git-kept bodies read back per source,
   * in chunks): the way out when a source's texts cannot be read to delete its rows one by
   * one (a forgotten clone whose folder is gone). Same rows as a fresh index.
   *
   * @throws LoreError `index_failed` when another source's body cannot be read.
   */
  #rebuildText(): void {
    this.#db.exec("INSERT INTO entry_text (entry_text) VALUES ('delete-all')");
    const page = this.#db
      .prepare(
        `SELECT e.file_id, e.repo, e.summary, e.body, f.blob_sha FROM entries e JOIN files f USING (file_id)
         WHERE e.file_id > ? ORDER BY e.file_id LIMIT ?`,
      )
      .raw();
    for (let after = 0; ; ) {
      const rows = page.all(after, FORGET_CHUNK) as [
        number,
        string,
        string,
        string | null,
        string,
      ][];
      this.#bodies.clear();
      const byRepo = new Map<string, string[]>();
      for (const [, repo, , body, sha] of rows) {
        if (body === null) byRepo.set(repo, [...(byRepo.get(repo) ?? []), sha]);
      }
      for (const [repo, shas] of byRepo) this.#loadBodies(repo, shas);
      for (const [fileId, repo, summary, body, sha] of rows) {
        const text = withStemStore(this.#stems, () =>
          entryText(summary, body ?? this.#gitBody(repo, sha)),
        );
        this.#sql.insertText.run(fileId, text.summaryText, text.bodyText);
      }
      if (rows.length < FORGET_CHUNK) break;
      after = (rows[rows.length - 1] as [number, ...unknown[]])[0];
    }
    this.#bodies.clear();
  }

  /**
   * The body of a git-backed entry (migration 5), read from its blob.
   *
   * @throws LoreError `index_failed` when the blob cannot be read (the repository's folder
   *   is gone or the object was pruned): the index cannot remove the entry's text exactly;
   *   delete the index file to rebuild it.
   */
  #gitBody(repo: string, blobSha: string): string {
    const ahead = this.#bodies.get(blobSha);
    if (ahead !== undefined) return ahead;
    const folder = this.#sql.folderOf.get(repo, repo) as string | undefined;
    const bytes =
      folder === undefined ? undefined : this.#readBlobs(folder, [blobSha]).get(blobSha);
    const body = bytes === undefined ? undefined : entryBodyOf(bytes);
    if (body === undefined) {
      throw new LoreError("index_failed", {
        reason:
          folder !== undefined && !existsSync(folder)
            ? `the repository folder ${folder} of ${repo} is gone, and with it the text of blob ${blobSha}; run lore forget ${repo}, or index the repository again`
            : `the indexed text of blob ${blobSha} of ${repo} cannot be read from git${folder === undefined ? "" : ` at ${folder}`}; delete the index file to rebuild it`,
      });
    }
    return body;
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
      if (existing.entryFileId !== null) {
        withStemStore(this.#stems, () => this.#dropEntry(existing.fileId));
      }
      this.#sql.deleteFile.run(existing.fileId);
      return true;
    });
  }

  /** The file id of a stored file (the caller knows it is stored). */
  #fileIdOf(repo: string, path: string): number {
    return (this.#sql.fileByPath.get(repo, path) as { fileId: number }).fileId;
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
   * Starts an outer write transaction (`BEGIN IMMEDIATE`) without waiting: a whole refresh
   * runs in it, every `transaction` call joining, so it commits all or nothing and a
   * reader on another connection sees the previous index until {@link commitWrite}.
   *
   * @returns false when another connection holds the write lock (try again later).
   * @throws the SQLite error of anything but a busy database.
   */
  tryBeginWrite(): boolean {
    const timeout = this.#db.pragma("busy_timeout", { simple: true }) as number;
    this.#db.pragma("busy_timeout = 0");
    try {
      this.#db.exec("BEGIN IMMEDIATE");
      return true;
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    } finally {
      this.#db.pragma(`busy_timeout = ${timeout}`);
    }
  }

  /** True while a transaction of this connection is open (e.g. a refresh awaiting git in one). */
  get writing(): boolean {
    return this.#db.inTransaction;
  }

  /** Commits the transaction of {@link tryBeginWrite}. */
  commitWrite(): void {
    this.#db.exec("COMMIT");
  }

  /** Rolls back the transaction of {@link tryBeginWrite}, when one is open. */
  rollbackWrite(): void {
    if (this.#db.inTransaction) this.#db.exec("ROLLBACK");
  }

  /**
   * Which file of a source holds each id now (ids are unique per source, migration 4).
   *
   * @param source - the repository (identity) or root (`root:<id>`).
   * @param ids - entry ids.
   * @returns id → its file; ids held by no file of the source are absent.
   */
  idOwners(source: string, ids: readonly string[]): Map<string, { repo: string; path: string }> {
    const out = new Map<string, { repo: string; path: string }>();
    if (ids.length === 0) return out;
    for (const [id, repo, path] of this.#sql.owners.all(
      source,
      JSON.stringify(ids),
    ) as string[][]) {
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
  getEntry(id: string, repo?: string): StoredEntry | undefined {
    const all = this.entriesById(id);
    return repo === undefined ? all[0] : all.find((entry) => entry.repo === repo);
  }

  /**
   * Every stored entry holding an id: one per source at most (ids are unique per source;
   * two sources holding one id is a clash, reported and never resolved), by repository.
   *
   * @param id - the entry id.
   * @param repos - only the entries of these sources (a condition in SQL: the team server's
   *   rights filter, so another source's holder is never read); absent = every source.
   */
  entriesById(id: string, repos?: readonly string[]): StoredEntry[] {
    const rows =
      repos === undefined
        ? this.#sql.entryById.all(id)
        : this.#sql.entryByIdIn.all(id, JSON.stringify(repos));
    return (rows as Row[]).map((row) => this.#toStored(row));
  }

  #toStored(row: Row): StoredEntry {
    const entry: StoredEntry = {
      id: row.id as string,
      repo: row.repo as string,
      path: row.path as string,
      blobSha: row.blobSha as string,
      origin: row.origin as Origin,
      links: JSON.parse(row.links as string) as string[],
      summary: row.summary as string,
      body: (row.body as string | null) ?? this.#gitBody(row.repo as string, row.blobSha as string),
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
        ...(typeof row.draftBranch === "string" ? { draftBranch: row.draftBranch } : {}),
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

  /**
   * Records that a source was indexed (or is being: inside the run's transaction).
   *
   * @param record - identity, folder, kind, commit (`null` for files read from the disk) and time.
   */
  putRepository(record: RepositoryRecord): void {
    this.#sql.upsertRepository.run(
      record.repo,
      record.path,
      record.kind,
      record.commit,
      record.indexedAt,
    );
  }

  /** The row of a source, by identity. */
  repository(repo: string): RepositoryRecord | undefined {
    return this.#sql.repository.get(repo) as RepositoryRecord | undefined;
  }

  /** The sources last read from a folder (normally one), newest first. */
  repositoriesAt(path: string): RepositoryRecord[] {
    return this.#sql.repositoryByPath.all(path) as RepositoryRecord[];
  }

  /** Every indexed source, without counts (cheap: no entry is read). */
  repositoryRecords(): RepositoryRecord[] {
    return this.#sql.repositoryRows.all() as RepositoryRecord[];
  }

  /** Every indexed source with its counts: repositories and folders first, then roots. */
  repositories(): RepositoryListing[] {
    return this.#sql.repositories.all() as RepositoryListing[];
  }

  /**
   * Drops a source: every stored file, entry, full-text row and lookup row of it, and its
   * row in `repositories`, in one transaction (counters stay, keyed by repository and id). When the
   * source's git-kept bodies cannot be read (its folder is gone), its rows are dropped
   * without them and the full text is refilled from the other entries (see `#rebuildText`).
   *
   * @param repo - the identity.
   * @returns the number of files dropped.
   */
  /**
   * Drops a removed user's usage counters (`lore user rm`), so a user made again under the
   * name starts with none of the old one's history. Their drafts stay: they are the team's
   * until delivered or removed.
   *
   * @param user - the user name.
   * @returns the number of counter rows dropped.
   */
  forgetUserCounters(user: string): number {
    return this.transaction(() => {
      // Their load receipts go too (the hits first: no cascade walk per row).
      this.receipts.forgetUser(user);
      this.#db.prepare("DELETE FROM usage_days WHERE user = ?").run(user);
      return this.#db.prepare("DELETE FROM counters WHERE user = ?").run(user).changes;
    });
  }

  /**
   * Drops everything the index holds of a hosted repository that is being removed (`lore
   * repo rm`, `DELETE /api/v1/admin/repos/…`): its files and entries, its drafts (source
   * `draft:<repo>` and their rows), and its usage counters and entry ages — so a repository
   * created again under the same name starts empty and its readers see nothing of the old
   * one. One transaction. Call it while the bare repository still exists (bodies kept in git
   * are read to drop their full text exactly).
   *
   * @param repo - the repository's `owner/name`.
   * @returns the number of files and drafts dropped.
   */
  forgetHostedRepository(repo: string): number {
    return this.transaction(() => {
      const files = this.forgetRepository(repo) + this.forgetRepository(`draft:${repo}`);
      this.#db.prepare("DELETE FROM drafts WHERE repo = ?").run(repo);
      this.#db.prepare("DELETE FROM counters WHERE repo = ?").run(repo);
      this.#db.prepare("DELETE FROM usage_days WHERE repo = ?").run(repo);
      this.#db.prepare("DELETE FROM entry_ages WHERE repo = ?").run(repo);
      // Its load receipts' hits (a receipt left with none is listed by no repository route).
      this.receipts.forgetRepo(repo);
      return files;
    });
  }

  forgetRepository(repo: string): number {
    return this.transaction(() => {
      const paths = this.#sql.filePathsOf.all(repo) as string[];
      let exact = true;
      for (let start = 0; start < paths.length; start += FORGET_CHUNK) {
        const chunk = paths.slice(start, start + FORGET_CHUNK);
        if (exact && this.preloadBodies(repo, chunk) > 0) exact = false;
        for (const path of chunk) {
          if (exact) this.deleteFile(repo, path);
          else {
            const fileId = this.#fileIdOf(repo, path);
            this.#sql.deleteEntry.run(fileId);
            this.#sql.deleteFile.run(fileId);
          }
        }
      }
      this.#bodies.clear();
      if (!exact) this.#rebuildText();
      this.#sql.deleteRepository.run(repo);
      this.#sql.deleteBodySource.run(repo);
      return paths.length;
    });
  }

  /**
   * The ids a source's entries share with entries of other sources (both are kept: a clash
   * is reported, never resolved by indexing order). Every indexing run asks (a push too):
   * the cost is that of the side with fewer entries, not of the source's 100k.
   *
   * @param repo - the source.
   */
  clashes(repo: string): IdClash[] {
    // Walked from the side with fewer entries (a push re-checks on every run: one large
    // repository among small ones must not walk its 100k entries each time). The sides are
    // counted up to a bound that doubles until one side is under it: O(the smaller side).
    const sql = this.#sql;
    for (let bound = 1_024; ; bound *= 4) {
      const others = sql.entriesNotOfUpTo.get({ repo, bound }) as number;
      const own = sql.entriesOfUpTo.get(repo, bound) as number;
      if (others < bound || own < bound) {
        return (
          others < own ? sql.clashesFromOthers.all({ repo }) : sql.clashes.all(repo)
        ) as IdClash[];
      }
    }
  }

  /**
   * Binds this index to one team server's data folder (meta key `server_data`), so that two
   * servers with different data folders never share one index (their hosted repositories
   * are stored under the same `owner/name`). In one write transaction: when no folder is
   * bound, or `takeOver` says the bound one may be replaced (it is gone: the data folder
   * was moved), `dataDir` is bound; otherwise the index stays bound as it was.
   *
   * @param dataDir - the server's data folder, absolute (real path).
   * @param takeOver - asked with the bound folder when it differs from `dataDir`.
   * @returns the folder the index is bound to after the call (`dataDir`, or the other).
   */
  bindServerData(dataDir: string, takeOver: (bound: string) => boolean): string {
    return this.transaction(() => {
      const bound = this.#sql.metaGet.get("server_data") as string | undefined;
      if (bound === dataDir) return dataDir;
      if (bound !== undefined && !takeOver(bound)) return bound;
      this.#sql.metaSet.run("server_data", dataDir);
      return dataDir;
    });
  }

  /**
   * Re-evaluates reachability against {@link mechanisms} when the file's entries were last
   * evaluated with another set (seed 004: «после обновления сервера она оживает сама, без
   * пересборки указателя»): only the entries whose stored contract (kept as written) uses a
   * mechanism of the difference are read; each gets its `reachable`, `unmet_mechanisms`,
   * report and contract lookup rows anew; one whose params are *wrong* for a mechanism it
   * now knows is dropped to a skipped file, as a parse by this version would. Runs in one
   * transaction, then stores the set; a second process opening at once finds it done.
   *
   * @returns the number of entries re-evaluated (0 when the set is unchanged).
   */
  reevaluate(): number {
    const wanted = this.mechanisms.join(",");
    const stored = this.#sql.metaGet.get("mechanisms") as string | undefined;
    if (stored === wanted) return 0;
    return this.transaction(() => {
      const now = this.#sql.metaGet.get("mechanisms") as string | undefined;
      if (now === wanted) return 0;
      // A file written before the set was stored was evaluated with this version's set.
      const before = now === undefined ? [...KNOWN_MECHANISMS] : now.split(",").filter(Boolean);
      const changed = [
        ...before.filter((m) => !this.mechanisms.includes(m)),
        ...this.mechanisms.filter((m) => !before.includes(m)),
      ];
      let count = 0;
      if (changed.length > 0) {
        const rows = this.#db
          .prepare(
            `SELECT DISTINCT e.file_id AS fileId, e.repo, f.path, f.blob_sha AS blobSha, e.id,
               e.origin, e.links, e.summary, e.summary_override AS summaryOverride, e.body,
               e.contract, e.unknown_keys AS unknownKeys, f.report
             FROM entries e JOIN files f USING (file_id), json_each(e.contract) c
             WHERE c.value ->> 'mechanism' IN (SELECT value FROM json_each(?))`,
          )
          .all(JSON.stringify(changed)) as Row[];
        for (const row of rows) {
          this.#reevaluateRow(row);
          count++;
        }
      }
      this.#sql.metaSet.run("mechanisms", wanted);
      return count;
    });
  }

  #reevaluateRow(row: Row): void {
    const contract = JSON.parse(row.contract as string) as ContractClause[];
    const unknownKeys = JSON.parse(row.unknownKeys as string) as Record<string, unknown>;
    const path = row.path as string;
    const result = evaluateContract(
      contract,
      Object.keys(unknownKeys).length > 0,
      this.mechanisms,
      path,
    );
    const kept = (JSON.parse(row.report as string) as Diagnostic[]).filter(
      (d) =>
        !(
          (d.code === "unknown_mechanism" || d.code === "invalid_mechanism_params") &&
          d.at?.startsWith("contract[")
        ) && !(d.code === "unknown_key" && d.at?.startsWith("contract[")),
    );
    const diagnostics = [...kept, ...result.diagnostics];
    const entry = {
      id: row.id as string,
      contract,
      origin: row.origin as Origin,
      links: JSON.parse(row.links as string) as string[],
      unknownKeys,
      body: (row.body as string | null) ?? this.#gitBody(row.repo as string, row.blobSha as string),
      ...(row.summaryOverride === null ? {} : { summary: row.summaryOverride as string }),
    };
    const parsed: ParsedEntry = {
      entry,
      summary: row.summary as string,
      reachable: result.reachable,
      unmetMechanisms: result.unmet,
    };
    this.putFile({
      repo: row.repo as string,
      path,
      blobSha: row.blobSha as string,
      ...(result.wrong ? {} : { parsed }),
      diagnostics,
      bodyInGit: row.body === null,
    });
  }

  /**
   * The reports of a source's *wrong* files (stored without an entry), read through the
   * partial index of `files.skipped` (migration 11): as many rows as there are such files.
   *
   * @param repo - the source.
   * @returns path → diagnostics.
   */
  skippedReports(repo: string): Map<string, Diagnostic[]> {
    const out = new Map<string, Diagnostic[]>();
    for (const [path, report] of this.#sql.skippedOf.all(repo) as [string, string][]) {
      out.set(path, JSON.parse(report) as Diagnostic[]);
    }
    return out;
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
   * @param entries - the listed entries, each by its source (`repo` of a hit) and id.
   * @param now - when, ms since the epoch. Default: the current time.
   */
  countShown(user: string, entries: readonly CountKey[], now: number = Date.now()): void {
    this.#counters.countShown(user, entries, now);
  }

  /**
   * Counts one read of an entry by a user.
   *
   * @param user - who opened it.
   * @param entry - the entry, by its source and id.
   * @param now - when, ms since the epoch. Default: the current time.
   */
  countRead(user: string, entry: CountKey, now: number = Date.now()): void {
    this.#counters.countRead(user, entry, now);
  }

  /**
   * Counts one showing of each entry to a user at once, durably (the team server: seed
   * 004 «Чтение счётчиков всегда точное»; an answer of 200 survives a kill -9): the queued
   * counts of this process and these are written in one committed `BEGIN IMMEDIATE`
   * transaction before it returns. Synchronous. Inside a caller's transaction they join it.
   *
   * @param user - who was shown them.
   * @param entries - the entries, each by its repository (source; a draft's folds into its
   *   repository) and id; a repeated one counts each time (the caller dedupes a batch).
   * @param now - when, ms since the epoch.
   * @param options - `wait: false`: no busy timeout, `SQLITE_BUSY` at once while another
   *   connection holds the write lock (a caller on the event loop retries asynchronously,
   *   `index-store/sqlite-index-store.ts`, rather than block the thread a heal of the same
   *   process needs to finish). Default: wait out the busy timeout.
   * @throws the SQLite error of the write (`SQLITE_BUSY` when another connection holds the
   *   write lock): nothing of it is counted.
   */
  recordShown(
    user: string,
    entries: readonly CountKey[],
    now: number,
    options: { wait?: boolean } = {},
  ): void {
    if (entries.length === 0) return;
    this.#counters.record("shown", user, entries, now, options);
  }

  /**
   * Counts one read of an entry by a user at once, durably (see {@link recordShown}).
   *
   * @param user - who opened it.
   * @param entry - the entry, by its repository (source) and id.
   * @param now - when, ms since the epoch.
   * @param options - as for {@link recordShown}.
   * @throws the SQLite error of the write, as {@link recordShown}.
   */
  recordRead(user: string, entry: CountKey, now: number, options: { wait?: boolean } = {}): void {
    this.#counters.record("read", user, [entry], now, options);
  }

  /**
   * Writes the queued usage counts (`countShown`, `countRead`) now, in one transaction.
   *
   * @param options - `wait: false`: no busy timeout (`SQLITE_BUSY` at once while another
   *   connection writes; the counts stay queued). Default: wait out the busy timeout.
   * @throws the SQLite error of the write; the counts stay queued.
   */
  flushCounts(options: { wait?: boolean } = {}): void {
    this.#counters.flush(options);
  }

  /**
   * One user's stored counts of one entry (after {@link recordShown}/{@link recordRead},
   * exact; queued counts of `countShown` are not looked at).
   *
   * @returns the row, or `undefined` when the user was never shown nor read it.
   */
  counter(user: string, repo: string, id: string): CounterRow | undefined {
    return this.#counters.get(user, { repo, id });
  }

  /**
   * The entries of a repository and of its drafts (`draft:<repo>`) with their counters,
   * ages and reachability, ordered by path (seed 004 `stats/me`, `stats/team`,
   * `stats/dead`). Queued counts of this process are written first (unless another writer
   * holds the lock: the stored ones are answered, a read never waits on a writer).
   *
   * @param repo - the index repository name (`owner/name` of a hosted repository).
   * @param options - `user`: only the entries this user was shown or read, with the user's
   *   counts; absent: every entry, zeros included, everyone's counts summed. `limit`: most
   *   records (ask for one more than shown to know whether the answer is cut).
   * @returns one record per entry, at most `limit`.
   */
  usage(repo: string, options: UsageOptions): UsageRecord[] {
    try {
      this.#counters.flush({ wait: false });
    } catch (error) {
      if (!isBusy(error)) throw error;
    }
    return this.#usage.usage(repo, options, this.#now());
  }

  /**
   * The entries of a repository and of its drafts without their counts (ages,
   * reachability), ordered by path then source: the index's half of the stats reports when
   * the counters are another store's (`services/stats/usage-records.ts`).
   *
   * @param repo - the index repository name (`owner/name`).
   * @param options - `ids`: only entries holding these ids; `limit`: most entries.
   */
  usageEntries(repo: string, options: UsageEntryOptions): UsageEntry[] {
    return this.#usage.entries(repo, options, this.#now());
  }

  /**
   * Shown and read per entry id of a repository on this index's counters (summed over
   * users, or one user's), ordered by id; queued counts are written first unless another
   * writer holds the lock. The SQLite side of `CounterStore.sums`.
   *
   * @param repo - the index repository name (a draft source folds into it).
   * @param options - `user`: only theirs; `ids`: only these entry ids.
   */
  counterSums(
    repo: string,
    options: { user?: string; ids?: readonly string[] } = {},
  ): CounterSum[] {
    return this.#counters.sums(repo, options);
  }

  /**
   * Shown and read per UTC day of a repository (its entries and drafts), or of one entry
   * of it, summed over users (migration 10; `GET …/knowledge/stats/daily`): only the days
   * with a count, oldest first. Queued counts are written first (unless another writer
   * holds the lock).
   *
   * @param repo - the index repository name (`owner/name`).
   * @param from - the first day, `YYYY-MM-DD` UTC, included.
   * @param to - the last day, included.
   * @param entryId - one entry only; absent: the whole repository.
   */
  usageDays(repo: string, from: string, to: string, entryId?: string): DayCount[] {
    return this.#counters.days(repo, from, to, entryId);
  }

  /**
   * The ids of a batch held by entries or drafts of a repository (`POST …/knowledge/shown`
   * counts these and reports the others back).
   *
   * @param repo - the index repository name.
   * @param ids - entry ids as given (compared exactly).
   */
  knownIds(repo: string, ids: readonly string[]): Set<string> {
    return this.#usage.knownIds(repo, ids);
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
   * Builds a query helper over this index's database (e.g. the lookups of recall). The
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
   * large part of the peak RSS of a 100k-entry build (the index build benchmark: ≤ 400 MB).
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

  /**
   * Sets how many bytes of pending full-text data FTS5 holds in memory before it writes
   * them out as a new segment (its `hashsize` option, default 1 MiB; stored in
   * `entry_text_config`). A large build raises it to 8 MiB (`services/indexing/index-knowledge.ts`):
   * a 10 MB batch then becomes one segment instead of about ten, and FTS5's automerge
   * rewrites far less (≈ 20 % of the full-text insert time, the index build benchmark).
   * Only the layout of segments changes, never what is indexed: rows, token counts and
   * hence bm25 scores are the same (the final `optimize` merges them into one anyway).
   * Writes one row: inside a caller's transaction it joins it.
   *
   * @param bytes - the threshold, bytes (a positive whole number).
   * @throws LoreError `invalid_input` when `bytes` is not a positive whole number; the
   *   SQLite error of the write (e.g. `SQLITE_BUSY`).
   */
  ftsPendingBytes(bytes: number): void {
    if (!Number.isInteger(bytes) || bytes <= 0) {
      throw new LoreError("invalid_input", { reason: `full-text pending size of ${bytes} bytes` });
    }
    // FTS5 takes the option only as an SQL integer (a bound JS number is a real).
    this.#db.exec(`INSERT INTO entry_text (entry_text, rank) VALUES ('hashsize', ${bytes})`);
  }

  /** Merges the full-text index segments (after a large build; optional, idempotent). */
  optimize(): void {
    this.#db.exec("INSERT INTO entry_text (entry_text) VALUES ('optimize')");
  }

  /**
   * Sets how long a statement of this connection waits for another connection's lock before
   * `SQLITE_BUSY` (SQLite's `busy_timeout`), from now on. An agent hook lowers it to what is
   * left of its time budget before each write, so a locked index costs the budget once, not
   * once per write.
   *
   * @param ms - the wait, ms (negative = 0).
   */
  setBusyTimeout(ms: number): void {
    this.#db.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`);
  }

  /**
   * Writes the queued usage counts (`countShown`, `countRead`), then closes the database.
   * Idempotent. Writes the queued load receipts too. A failed write of either does not stop
   * the close (they are lost).
   */
  close(): void {
    if (!this.#db.open) return;
    try {
      this.#counters.flush();
    } catch {
      // Usage counts only; the close goes on.
    }
    try {
      this.receipts.flush();
    } catch (error) {
      // Receipts only (a read-only file): reported, the close goes on.
      this.receipts.onError(error);
    }
    this.#db.close();
  }
}

/**
 * Opens (creating when absent) the index in a SQLite file, brings its schema up to date
 * (see `migrate.ts`) and its reachability up to the running mechanism set (see
 * {@link EntryIndex.reevaluate}).
 *
 * @param file - the database file (its folder must exist), or `:memory:`.
 * @param options - see {@link OpenIndexOptions}.
 * @returns the index.
 * @throws LoreError `index_failed` when the file cannot be opened or migrated.
 */
export function openIndex(file: string, options: OpenIndexOptions = {}): EntryIndex {
  const db = openSqliteDatabase(
    file,
    options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs },
  );
  try {
    migrate(db);
    const index = new EntryIndex(db, options);
    index.reevaluate();
    return index;
  } catch (error) {
    db.close();
    if (error instanceof LoreError) throw error;
    throw new LoreError("index_failed", { reason: String(error) }, { cause: error });
  }
}
