import { type Diagnostic, makeDiagnostic } from "../../core/entry/diagnostic.js";
import { LIMITS, type ParsedEntry, type ParseResult } from "../../core/entry/entry.js";
import type { StoredDocument } from "../../core/entry/index-document.js";
import { type BatchFile, parseBatch } from "../../core/entry/parse-batch.js";
import { formatReport, type ReportFile } from "../../core/entry/parse-report.js";
import type { Lang } from "../../core/errors/localized-text.js";
import type { KnowledgeBlob } from "../../ports/git-repo.js";
import {
  type BatchAnalyser,
  type BatchAnalysis,
  type FileAnalysis,
  inlineAnalyser,
  type StemPair,
  startWorkerAnalyser,
} from "./batch-analysis.js";
import { comparePaths, recheckDuplicates, settleIds } from "./duplicate-ids.js";

/** The folder of entry files, relative to the repository root (seed 004, "Устройство файла"). */
export const KNOWLEDGE_PREFIX = ".gitriver/knowledge/";

/**
 * The subset of the index the indexing service writes through (STYLE.md habit 3);
 * `index/entry-index.ts` implements it.
 */
export interface IndexWriter {
  /** Stored files of a repository: path → blob sha (entries and skipped files alike). */
  listFiles(repo: string): Map<string, string>;
  /** Stores one file: an entry when `parsed` is given, else a skipped file with its report. */
  putFile(file: {
    repo: string;
    path: string;
    blobSha: string;
    parsed?: ParsedEntry;
    diagnostics: Diagnostic[];
    bodyInGit?: boolean;
  }): { stored: "entry" | "skipped"; duplicateOf?: { repo: string; path: string } };
  /** Drops a stored file and its entry. */
  deleteFile(repo: string, path: string): void;
  /**
   * Records the git folder the source's bodies are read back from (see
   * `EntryIndex.setBodySource`). Optional: a writer without it stores every body.
   */
  setBodySource?(repo: string, folder: string): void;
  /**
   * Reads ahead, in one git call, the git-kept bodies of files about to be replaced or
   * removed (see `EntryIndex.preloadBodies`). Optional.
   */
  preloadBodies?(repo: string, paths: readonly string[]): void;
  /**
   * Keeps stems computed elsewhere (a worker thread) in the index's lasting memo (see
   * `EntryIndex.keepStems`); called inside the batch's transaction. Optional.
   */
  keepStems?(stems: readonly StemPair[]): void;
  /** Runs `fn` in one SQLite transaction. */
  transaction<T>(fn: () => T): T;
  /** Which file of a source holds each id now (ids held by no file of it are absent). */
  idOwners(source: string, ids: readonly string[]): Map<string, { repo: string; path: string }>;
  /** The stored report (diagnostics) of each file of a repository that has one. */
  fileReports(repo: string): Iterable<{ path: string; diagnostics: Diagnostic[] }>;
  /** The stored report of each *wrong* (skipped) file of a repository. */
  skippedReports(repo: string): Map<string, Diagnostic[]>;
  /** Ids the repository's entries share with other sources (see `EntryIndex.clashes`). */
  clashes?(repo: string): { id: string; path: string; otherRepo: string; otherPath: string }[];
  /**
   * Reads the page cache limit, KiB, and sets it to `kib` when given (see
   * `EntryIndex.pageCacheKib`). Optional: a writer without it keeps its cache.
   */
  pageCacheKib?(kib?: number): number;
  /**
   * Sets FTS5's threshold of pending full-text data, bytes (see
   * `EntryIndex.ftsPendingBytes`): raised for a large build, restored after it. Optional.
   */
  ftsPendingBytes?(bytes: number): void;
  /**
   * Merges the full-text index into one segment (see `EntryIndex.optimize`); called after a
   * run that added more than {@link OPTIMIZE_AFTER_ADDED} files. Optional.
   */
  optimize?(): void;
}

/**
 * A run that adds more files than this (a large first build, a big import) ends with
 * `index.optimize()`: FTS5 then holds one segment instead of the dozens the build's
 * transactions left, so each query word is looked up once, not once per segment. The merge
 * rewrites the full-text index once: measured here at ~0.5 s for 20k entries of ~2 KB,
 * a few per cent of the build it follows; smaller runs skip it, and FTS5's automerge keeps
 * their segments few.
 */
export const OPTIMIZE_AFTER_ADDED = 5_000;

/**
 * Where the files come from: a git commit or a plain folder. `list` gives the `.md` files
 * under {@link KNOWLEDGE_PREFIX} sorted by path with a content sha each; `read` gives their
 * bytes in the order asked.
 */
export interface KnowledgeSource {
  list(): Promise<KnowledgeBlob[]>;
  read(blobs: readonly KnowledgeBlob[]): AsyncIterable<{ blob: KnowledgeBlob; bytes: Uint8Array }>;
  /**
   * Set when `list` gives only the files changed since the stored state (parse on push, see
   * `services/push/heal-index.ts`) and the writer's `listFiles` only their stored rows:
   * `others` answers for every other file of the snapshot (unchanged, so stored), which is
   * then never listed (the report's `unchanged` then counts listed files only). Default:
   * `list` is the whole snapshot.
   */
  others?: TreeView;
}

/** The files of a snapshot by path, as a run looks them up. */
export interface TreeView {
  has(path: string): boolean;
  get(path: string): KnowledgeBlob | undefined;
}

/** Progress of an indexing run, reported after each batch. */
export interface IndexProgress {
  /** Files read and parsed so far. */
  done: number;
  /** Files to read in this run (grows when a duplicate id makes a file be parsed again). */
  total: number;
  /** Bytes read so far. */
  bytes: number;
  /** Time since the run started, ms. */
  elapsedMs: number;
}

/** What an indexing run did (the index; seed 004, "Отчёт разбора"). */
export interface IndexReport {
  /** The repository name the entries are stored under. */
  repo: string;
  /** The commit indexed; `null` for a plain folder. */
  commit: string | null;
  /** Files new since the last run that are entries now (wrong ones count as `skipped`). */
  added: number;
  /** Files whose content changed since the last run that are entries now. */
  updated: number;
  /** Files gone since the last run; their entries were dropped. */
  removed: number;
  /** Entries whose file has the same content as last time: not read. */
  unchanged: number;
  /**
   * Files that are *wrong* and stored without an entry, parsed in this run or before:
   * a wrong file is reported on every run until it is fixed. `added + updated + unchanged
   * + skipped` is the number of files.
   */
  skipped: number;
  /** Files the parser moved to a following batch by the 10 MB batch limit (never dropped). */
  deferred: number;
  /** Blobs read in this run (0 when nothing changed). */
  read: number;
  /**
   * Diagnostics of the files parsed in this run, of the wrong files parsed before, and an
   * `id_clash` per id another source holds too, each with its path, in path order.
   */
  diagnostics: Diagnostic[];
  /** Diagnostics left out of `diagnostics` past `maxDiagnostics` (they are still stored). */
  diagnosticsOmitted: number;
  /** The parse report: a line per file with a diagnostic, a line per unknown mechanism. */
  lines: string[];
}

/** Options of {@link indexKnowledge}. */
export interface IndexKnowledgeOptions {
  index: IndexWriter;
  source: KnowledgeSource;
  /** Name the entries are stored under (e.g. `owner/name`, or the folder's name). */
  repoName: string;
  /** The commit indexed, for the report; `null` for a plain folder. */
  commit: string | null;
  /**
   * The folder of the git repository `source` reads the commit from. When given (and the
   * writer has `setBodySource`), entry bodies are not stored in the index but read back
   * from this repository by blob sha when needed (migration 5). Default: bodies stored.
   */
  gitFolder?: string;
  /**
   * Sources this run takes the place of (the same folder stored under an identity it no
   * longer has: a first commit, an added remote), dropped after the run: their ids are no
   * clash. Default: none.
   */
  supersedes?: readonly string[];
  /** Language of the report lines. Default: `en`. */
  lang?: Lang;
  /** Called after each batch and at the end. Default: none. */
  onProgress?: (progress: IndexProgress) => void;
  /** Most diagnostics kept in the report (all are stored in the index). Default: 10 000. */
  maxDiagnostics?: number;
  /**
   * Bytes of files parsed and written per transaction, at most the 10 MB batch limit of
   * seed 004 ("Пределы"). Default: 10 MB.
   */
  batchBytes?: number;
  /**
   * Where files are parsed and analysed: `inline` in this thread; `worker` in one worker
   * thread, so that reading git, analysis and SQLite writes overlap (this thread when no
   * compiled worker script exists); `auto`: `worker` for a round that reads at least
   * {@link WORKER_MIN_BYTES}, else `inline` (a small run does not pay the worker's start).
   * The index holds the same rows either way (its memo of stems may hold a few more with a
   * worker: those of a file skipped as a duplicate, or words this thread's memo held before
   * the run). Measured at 100k entries (the index build benchmark): the main thread's CPU
   * falls to about the floor's (13.5 s against 25 s), the whole process's rises by ~15 %
   * (the copies to and from the worker, two heaps), peak RSS ~365 MB either way; so the
   * worker is faster only with a second core free. Default: `auto`.
   */
  analysis?: "worker" | "inline" | "auto";
  /**
   * Stops the run between files: it throws the signal's reason (an `AbortError`). Within
   * one outer transaction (see `services/indexing/index-refresh.ts`) nothing is then committed.
   */
  signal?: AbortSignal;
  /**
   * The mechanisms to parse with (see `parseEntry`); default this version's. Forces the
   * inline analyser. For tests that read a repository as an older version would.
   */
  mechanisms?: readonly string[];
}

/** One file read in this run, with its bytes. */
type BatchItem = { blob: KnowledgeBlob; bytes: Uint8Array };

/** The page cache of a build that reads more than this many KiB (16 MB). */
const BUILD_CACHE_KIB = 16 * 1024;

/** FTS5's own threshold of pending full-text data, bytes (its `hashsize` default, 1 MiB). */
export const FTS_PENDING_DEFAULT = 1024 * 1024;

/**
 * The threshold of pending full-text data of a large build, bytes (8 MiB; see
 * `EntryIndex.ftsPendingBytes`): about one 10 MB batch of analysed text, so each batch is
 * written as one segment.
 */
export const FTS_PENDING_BUILD = 8 * 1024 * 1024;

/**
 * The least a round reads for `analysis: "auto"` to analyse in a worker thread (8 MiB, about
 * 3,500 entries of the benchmark's size): below it the worker's start (a thread, its own
 * module loading and Snowball, ~50–100 ms of CPU) is a noticeable part of the run.
 */
export const WORKER_MIN_BYTES = 8 * 1024 * 1024;

/** Bytes per request to the worker (1 MB); a batch (one transaction) holds up to 10. */
const WORKER_CHUNK_BYTES = 1024 * 1024;

/** The files of a batch as `parseBatch` takes them. */
function toFiles(batch: readonly BatchItem[]): BatchFile[] {
  return batch.map(({ blob, bytes }) => ({ path: blob.path, bytes }));
}

/** What became of one file parsed in this run; `omitted` counts diagnostics not kept. */
type Outcome = { entry: boolean; diagnostics: Diagnostic[]; omitted: number; unmet: string[] };

const MAX_ROUNDS = 64;

/** Removed files whose git-kept bodies are read in one git call (see `preloadBodies`). */
const PRELOAD_CHUNK = 1_000;

/**
 * Brings a repository's part of the index in line with a snapshot of its files
 * (the index; seed 004, "Указатель"): lists the files, reads only those whose
 * sha differs from the stored one, parses them leniently in batches of at most 10 MB and
 * writes each batch in one transaction; files gone from the snapshot are dropped first,
 * so a renamed file keeps its id.
 *
 * Duplicate ids (see `duplicate-ids.ts`): ids are unique per source; the file that held an
 * id at the previously indexed run keeps it and a newcomer is skipped with `duplicate_id`;
 * among files with no history the first by byte order of paths wins. An id held by
 * another source is a clash (`id_clash`, reported on every run), never a skip. A file
 * skipped for an id that is free again is parsed again (and indexed). Wrong files parsed
 * before are reported again on every run until they are fixed.
 *
 * @returns the report; diagnostics are values, never thrown.
 * @throws LoreError `git_failed` when the source cannot be read; errors of the index.
 */
export async function indexKnowledge(options: IndexKnowledgeOptions): Promise<IndexReport> {
  const { index, source, repoName } = options;
  const started = performance.now();
  const maxDiagnostics = options.maxDiagnostics ?? 10_000;
  const batchLimit = Math.min(options.batchBytes ?? LIMITS.batchBytes, LIMITS.batchBytes);
  options.signal?.throwIfAborted();
  const { tree, work, removed, fresh, unchanged } = plan(
    await source.list(),
    index.listFiles(repoName),
    source.others,
  );
  const bodyInGit =
    options.commit !== null && options.gitFolder !== undefined && index.setBodySource !== undefined;
  if (bodyInGit) index.setBodySource?.(repoName, options.gitFolder as string);
  if (removed.length > 0) {
    index.transaction(() => {
      for (let start = 0; start < removed.length; start += PRELOAD_CHUNK) {
        const chunk = removed.slice(start, start + PRELOAD_CHUNK);
        // Bodies kept only in git are read in one git call per chunk, not one per file.
        index.preloadBodies?.(repoName, chunk);
        for (const path of chunk) index.deleteFile(repoName, path);
      }
    });
  }

  const outcomes = new Map<string, Outcome>();
  const progress = { done: 0, total: work.length, bytes: 0, read: 0, deferred: 0 };
  const report = () =>
    options.onProgress?.({
      done: progress.done,
      total: progress.total,
      bytes: progress.bytes,
      elapsedMs: performance.now() - started,
    });

  let kept = 0;
  /** Keeps a file's outcome; diagnostics past `maxDiagnostics` are only counted. */
  const record = (path: string, entry: boolean, diagnostics: Diagnostic[], unmet: string[]) => {
    forget(path);
    // A clean entry needs no line in the report: nothing is kept for it.
    if (entry && diagnostics.length === 0 && unmet.length === 0) return;
    const room = Math.max(0, maxDiagnostics - kept);
    const keep = diagnostics.length <= room ? diagnostics : diagnostics.slice(0, room);
    kept += keep.length;
    outcomes.set(path, {
      entry,
      diagnostics: keep,
      omitted: diagnostics.length - keep.length,
      unmet,
    });
  };
  const forget = (path: string) => {
    const old = outcomes.get(path);
    if (old !== undefined) kept -= old.diagnostics.length;
    outcomes.delete(path);
  };

  // A large build mostly appends: a small page cache keeps its peak RSS down.
  const workBytes = work.reduce((sum, blob) => sum + blob.size, 0);
  const large = workBytes > BUILD_CACHE_KIB * 1024;
  const cacheBefore = large ? index.pageCacheKib?.(BUILD_CACHE_KIB) : undefined;
  // …and fewer, larger full-text segments (one per batch) spare FTS5 most of its merging.
  if (large) index.ftsPendingBytes?.(FTS_PENDING_BUILD);
  try {
    let round = work;
    let rechecks = 0;
    for (let rounds = 0; rounds < MAX_ROUNDS; rounds++) {
      if (round.length === 0) {
        // Only a deletion or a changed file can free an id; additions alone cannot.
        if (work.length === fresh.size && removed.length === 0) break;
        round = recheckDuplicates(index, repoName, tree);
        for (const blob of round) forget(blob.path);
        rechecks += 1;
        if (round.length === 0 || rechecks > MAX_ROUNDS / 2) break;
        progress.total += round.length;
      }
      const requeue = new Set<string>();
      await runRound(round, requeue);
      round = [...requeue]
        .sort(comparePaths)
        .map((path) => tree.get(path))
        .filter((blob): blob is KnowledgeBlob => blob !== undefined);
      progress.total += round.length;
    }
  } finally {
    if (cacheBefore !== undefined && cacheBefore > 0) index.pageCacheKib?.(cacheBefore);
    try {
      if (large) index.ftsPendingBytes?.(FTS_PENDING_DEFAULT);
    } catch {
      // Left raised (a locked or closed file): only the size of later segments differs.
    }
  }
  if (fresh.size > OPTIMIZE_AFTER_ADDED) index.optimize?.();
  report();

  // Wrong files parsed before are reported again, until they are fixed.
  const skippedNow = index.skippedReports(repoName);
  for (const [path, stored] of skippedNow) {
    if (!outcomes.has(path) && tree.has(path)) record(path, false, stored, []);
  }
  const superseded = new Set(options.supersedes ?? []);
  for (const clash of index.clashes?.(repoName) ?? []) {
    if (superseded.has(clash.otherRepo)) continue;
    const other = `${clash.otherRepo}:${clash.otherPath}`;
    const diagnostic = makeDiagnostic("id_clash", {
      path: clash.path,
      at: "id",
      params: { id: clash.id, other },
    });
    const had = outcomes.get(clash.path);
    record(
      clash.path,
      had?.entry ?? true,
      [...(had?.diagnostics ?? []), diagnostic],
      had?.unmet ?? [],
    );
  }
  let added = 0;
  let updated = 0;
  for (const blob of work) {
    if (skippedNow.has(blob.path)) continue;
    if (fresh.has(blob.path)) added += 1;
    else updated += 1;
  }
  const workPaths = new Set(work.map((blob) => blob.path));
  const unchangedEntries =
    unchanged - [...skippedNow.keys()].filter((path) => !workPaths.has(path)).length;
  const paths = [...outcomes.keys()].sort(comparePaths);
  const diagnostics: Diagnostic[] = [];
  let diagnosticsOmitted = 0;
  let skipped = 0;
  for (const path of paths) {
    const outcome = outcomes.get(path);
    if (outcome === undefined) continue;
    diagnostics.push(...outcome.diagnostics);
    diagnosticsOmitted += outcome.omitted;
  }
  skipped = [...skippedNow.keys()].filter((path) => tree.has(path)).length;
  return {
    repo: repoName,
    commit: options.commit,
    added,
    updated,
    removed: removed.length,
    unchanged: Math.max(0, unchangedEntries),
    skipped,
    deferred: progress.deferred,
    read: progress.read,
    diagnostics,
    diagnosticsOmitted,
    lines: reportLines(paths, outcomes, options.lang ?? "en"),
  };

  /**
   * Reads and parses one round of files in path order, a batch at a time. With a worker it
   * is pipelined: while batch k is analysed, batch k − 1 is written and batch k + 1 read.
   * Batches are written in order, each after the previous one, so ids settle exactly as when
   * done one after the other.
   */
  async function runRound(blobs: KnowledgeBlob[], requeue: Set<string>): Promise<void> {
    const pending = new Set(blobs.map((blob) => blob.path));
    const tooLarge = blobs.filter(
      (blob) => blob.size > LIMITS.fileBytes || blob.refused !== undefined,
    );
    if (tooLarge.length > 0) {
      index.transaction(() => {
        for (const blob of tooLarge) {
          const diagnostic =
            blob.refused ??
            makeDiagnostic("file_too_large", {
              path: blob.path,
              params: { size: blob.size, limit: LIMITS.fileBytes },
            });
          index.putFile({
            repo: repoName,
            path: blob.path,
            blobSha: blob.sha,
            diagnostics: [diagnostic],
          });
          pending.delete(blob.path);
          record(blob.path, false, [diagnostic], []);
          progress.done += 1;
        }
      });
    }
    const toRead = blobs.filter(
      (blob) => blob.size <= LIMITS.fileBytes && blob.refused === undefined,
    );
    const analyser = await analyserFor(toRead);
    // With a worker, a batch goes to analysis in chunks as it is read, so reading, analysis
    // and writing overlap; it is still written in one transaction.
    const chunkLimit = analyser.threaded ? WORKER_CHUNK_BYTES : batchLimit;
    /** Complete batches waiting to be written, oldest first (at most two with a worker). */
    const queue: { items: BatchItem[]; analysis: Promise<BatchAnalysis>; ready: boolean }[] = [];
    let batch: BatchItem[] = [];
    let chunks: Promise<BatchAnalysis>[] = [];
    let batchBytes = 0;
    let chunkStart = 0;
    let chunkBytes = 0;
    const sendChunk = () => {
      if (chunkStart === batch.length) return;
      const chunk = analyser.analyse(toFiles(batch.slice(chunkStart)));
      // A rejection is taken when the batch is written; never an unhandled one meanwhile.
      chunk.catch(() => {});
      chunks.push(chunk);
      chunkStart = batch.length;
      chunkBytes = 0;
    };
    const writeOldest = async () => {
      const oldest = queue.shift();
      if (oldest === undefined) return;
      const analysis = await oldest.analysis;
      write(oldest.items, analysis.files, pending, requeue, analysis.stems);
      report();
    };
    const closeBatch = async () => {
      sendChunk();
      const entry = {
        items: batch,
        analysis: Promise.all(chunks).then(
          (parts): BatchAnalysis => ({
            files: parts.flatMap((part) => part.files),
            stems: parts.flatMap((part) => part.stems),
          }),
        ),
        ready: false,
      };
      entry.analysis.then(
        () => {
          entry.ready = true;
        },
        () => {
          entry.ready = true;
        },
      );
      queue.push(entry);
      batch = [];
      chunks = [];
      batchBytes = 0;
      chunkStart = 0;
      while (queue.length > (analyser.threaded ? 1 : 0)) await writeOldest();
    };
    try {
      for await (const item of source.read(toRead)) {
        options.signal?.throwIfAborted();
        progress.read += 1;
        progress.bytes += item.bytes.length;
        if (batch.length > 0 && batchBytes + item.bytes.length > batchLimit) await closeBatch();
        else if (batch.length > chunkStart && chunkBytes + item.bytes.length > chunkLimit) {
          sendChunk();
          if (queue[0]?.ready === true) await writeOldest();
        }
        batch.push(item);
        batchBytes += item.bytes.length;
        chunkBytes += item.bytes.length;
      }
      if (batch.length > 0) await closeBatch();
      while (queue.length > 0) await writeOldest();
    } finally {
      await analyser.close();
    }
  }

  /**
   * The analyser of a round: a worker thread when `analysis` is `worker` (and the round reads
   * anything) or `auto` (and the round reads at least {@link WORKER_MIN_BYTES}) and the
   * compiled worker script exists, else this thread. With bodies read back from git, the
   * worker leaves them out of its answers (never stored, so never copied back).
   */
  async function analyserFor(blobs: readonly KnowledgeBlob[]): Promise<BatchAnalyser> {
    if (options.mechanisms !== undefined) return inlineAnalyser(options.mechanisms);
    const mode = options.analysis ?? "auto";
    if (mode === "inline") return inlineAnalyser();
    const bytes = blobs.reduce((sum, blob) => sum + blob.size, 0);
    if (bytes === 0 || (mode === "auto" && bytes < WORKER_MIN_BYTES)) return inlineAnalyser();
    return startWorkerAnalyser({ dropBodies: bodyInGit }) ?? inlineAnalyser();
  }

  /**
   * Applies the batch rules (`parseBatch` over the analysed files), settles duplicate ids
   * against the index and writes the batch in one transaction; the files the parser
   * deferred (never with batches under the 10 MB limit) are written next, before any later
   * batch.
   *
   * @param analyses - `analyseFiles` of the batch, aligned with `batch`.
   * @param stems - stems the worker computed for the batch, kept in the index's memo.
   */
  function write(
    batch: BatchItem[],
    analyses: FileAnalysis[],
    pending: Set<string>,
    requeue: Set<string>,
    stems: readonly StemPair[] = [],
  ): void {
    let files = toFiles(batch);
    let preparsed = analyses.map((analysis) => analysis.parse);
    const documents = new Map<string, StoredDocument | undefined>();
    for (const [i, item] of batch.entries()) documents.set(item.blob.path, analyses[i]?.document);
    const inBatch = new Map(batch.map(({ blob }) => [blob.path, blob]));
    let result = parseBatch(files, { mode: "lenient", preparsed });
    const newIds = new Map(
      batch.map(({ blob }, i) => [blob.path, preparsed[i]?.value?.entry.id] as const),
    );
    const waiting = new Set([...pending].filter((path) => !inBatch.has(path)));
    const { knownIds, incumbents, freeFirst, retry } = settleIds(
      index,
      repoName,
      result.entries,
      newIds,
      waiting,
    );
    if (incumbents.size > 0) {
      // Files that held their id before go first, so a newcomer earlier by path loses it.
      const order = files.map((_, i) => i);
      order.sort((a, b) => {
        const ia = incumbents.has(files[a]?.path ?? "") ? 0 : 1;
        const ib = incumbents.has(files[b]?.path ?? "") ? 0 : 1;
        return ia - ib || a - b;
      });
      files = order.map((i) => files[i] as BatchFile);
      preparsed = order.map((i) => preparsed[i] as ParseResult);
    }
    if (knownIds.size > 0 || incumbents.size > 0) {
      result = parseBatch(files, { mode: "lenient", knownIds, preparsed });
    }
    for (const path of retry) requeue.add(path);
    const deferred = new Set(result.deferred);
    const replaced = [...inBatch.keys()].filter((path) => !fresh.has(path));
    if (replaced.length > 0) index.preloadBodies?.(repoName, replaced);
    index.transaction(() => {
      if (stems.length > 0) index.keepStems?.(stems);
      // An id held by the old version of another file of the batch is freed first, so
      // files may swap ids in one commit.
      for (const path of freeFirst) {
        if (!deferred.has(path)) index.deleteFile(repoName, path);
      }
      for (const item of result.entries) {
        const blob = inBatch.get(item.path);
        if (blob === undefined) continue;
        const document = documents.get(item.path);
        const put = index.putFile({
          repo: repoName,
          path: item.path,
          blobSha: blob.sha,
          parsed: item.parsed,
          diagnostics: item.diagnostics,
          ...(document === undefined ? {} : { document }),
          ...(bodyInGit ? { bodyInGit } : {}),
        });
        if (put.stored === "entry") {
          record(item.path, true, item.diagnostics, item.parsed.unmetMechanisms);
        } else {
          // Another writer took the id meanwhile; the index kept the file as skipped.
          const other = put.duplicateOf;
          const duplicate = makeDiagnostic("duplicate_id", {
            path: item.path,
            at: "id",
            params: { id: item.parsed.entry.id, other: other ? `${other.repo}:${other.path}` : "" },
          });
          record(item.path, false, [...item.diagnostics, duplicate], []);
        }
      }
      for (const item of result.skipped) {
        const blob = inBatch.get(item.path);
        if (blob === undefined) continue;
        index.putFile({
          repo: repoName,
          path: item.path,
          blobSha: blob.sha,
          diagnostics: item.diagnostics,
        });
        record(item.path, false, item.diagnostics, []);
      }
    });
    for (const path of inBatch.keys()) {
      if (deferred.has(path)) continue;
      pending.delete(path);
      progress.done += 1;
    }
    progress.deferred += deferred.size;
    const carried: BatchItem[] = [];
    const carriedAnalyses: FileAnalysis[] = [];
    for (const [i, item] of batch.entries()) {
      const analysis = analyses[i];
      if (!deferred.has(item.blob.path) || analysis === undefined) continue;
      carried.push(item);
      carriedAnalyses.push(analysis);
    }
    if (carried.length === 0) return;
    if (carried.length === batch.length) {
      // The parser took nothing: never loop; a lone file goes through as skipped.
      const head = carried[0] as BatchItem;
      if (batch.length === 1) storeDeferredAlone(head.blob, pending);
      else write(carried.slice(0, 1), carriedAnalyses.slice(0, 1), pending, requeue);
      carried.shift();
      carriedAnalyses.shift();
    }
    if (carried.length > 0) write(carried, carriedAnalyses, pending, requeue);
  }

  /** A file the parser deferred even alone (cannot happen under 64 KB): kept with a report. */
  function storeDeferredAlone(blob: KnowledgeBlob, pending: Set<string>): void {
    const diagnostic = makeDiagnostic("batch_limit", {
      path: blob.path,
      params: { limit: LIMITS.batchBytes },
    });
    index.transaction(() => {
      index.putFile({
        repo: repoName,
        path: blob.path,
        blobSha: blob.sha,
        diagnostics: [diagnostic],
      });
    });
    pending.delete(blob.path);
    record(blob.path, false, [diagnostic], []);
    progress.done += 1;
  }
}

/** What a run has to do: files to read (changed, in path order) and paths to drop. */
function plan(listing: KnowledgeBlob[], stored: Map<string, string>, others?: TreeView) {
  const listed = new Map(listing.map((blob) => [blob.path, blob]));
  const tree: TreeView =
    others === undefined
      ? listed
      : {
          has: (path) => listed.has(path) || (!stored.has(path) && others.has(path)),
          get: (path) => listed.get(path) ?? (stored.has(path) ? undefined : others.get(path)),
        };
  const work: KnowledgeBlob[] = [];
  const fresh = new Set<string>();
  let unchanged = 0;
  for (const blob of listing) {
    const sha = stored.get(blob.path);
    if (sha === blob.sha) unchanged += 1;
    else {
      if (sha === undefined) fresh.add(blob.path);
      work.push(blob);
    }
  }
  const removed = [...stored.keys()].filter((path) => !listed.has(path));
  return { tree, work, removed, fresh, unchanged };
}

/** The report lines of the files parsed in this run (seed 004, "Отчёт разбора"). */
function reportLines(paths: string[], outcomes: Map<string, Outcome>, lang: Lang): string[] {
  const files: ReportFile[] = [];
  for (const path of paths) {
    const outcome = outcomes.get(path);
    if (outcome === undefined) continue;
    if (outcome.diagnostics.length === 0 && outcome.unmet.length === 0) continue;
    files.push({ path, diagnostics: outcome.diagnostics, unmetMechanisms: outcome.unmet });
  }
  return formatReport({ files }, lang);
}
