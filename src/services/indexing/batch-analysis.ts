/**
 * Parsing and text analysis of one indexing batch, in this thread or in a worker thread
 * (the index build benchmark: the index build overlaps reading git, analysing text and writing
 * SQLite). Both ways run the same pure function, {@link analyseFiles}, so they give the same
 * result; the worker only moves the CPU work off the thread that reads git and writes SQLite.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ParseResult } from "../../core/entry/entry.js";
import { indexDocument, type StoredDocument } from "../../core/entry/index-document.js";
import type { BatchFile } from "../../core/entry/parse-batch.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { withStemStore } from "../../core/text/stem.js";

/** One file parsed leniently, with the analysed document of its entry. */
export interface FileAnalysis {
  /** `parseEntry(bytes, { mode: "lenient", path })`. */
  parse: ParseResult;
  /**
   * `indexDocument(parse.value)`; absent when the file is skipped. From a worker thread its
   * full-text columns are UTF-8 bytes (see {@link packTexts}).
   */
  document?: StoredDocument;
}

/** A token and its stem (`stemToken`), as the index keeps them in its memo (`stems`). */
export type StemPair = [token: string, stem: string];

/** The analysis of one call: the files, and the stems it computed that the index should keep. */
export interface BatchAnalysis {
  /** One analysis per file, in order. */
  files: FileAnalysis[];
  /**
   * The stems the analysis computed (missed in the thread's memo), for the index's lasting
   * memo (`stems`, migration 11), which the worker thread cannot reach. Empty in this thread:
   * the index then stems through its memo itself as it stores each entry.
   */
  stems: StemPair[];
}

/** Options of {@link analyseFiles} and {@link startWorkerAnalyser}. */
export interface AnalysisOptions {
  /**
   * Leaves each entry's body out of the result (`entry.body` = `""`), once its document is
   * computed: for an index that reads bodies back from git (`bodyInGit`), which then never
   * stores the body, so it is not copied back from the worker. Default: false.
   */
  dropBodies?: boolean;
}

/** Parses and analyses files; see {@link inlineAnalyser} and {@link startWorkerAnalyser}. */
export interface BatchAnalyser {
  /** Whether the work runs in a worker thread. */
  readonly threaded: boolean;
  /**
   * Parses `files` leniently and analyses each entry, independently of one another.
   * Calls may overlap; each promise settles with its own files, in their order.
   *
   * @throws LoreError `index_failed` (through the promise) when the worker failed or died.
   */
  analyse(files: readonly BatchFile[]): Promise<BatchAnalysis>;
  /** Stops the worker, if any; pending calls fail with `index_failed`. Idempotent. */
  close(): Promise<void>;
}

/**
 * The work on each file: lenient `parseEntry`, then `indexDocument` of the entry. Pure but
 * for the thread's stem memo; the batch rules (size limit, duplicate ids) are applied
 * afterwards by `parseBatch` with `preparsed`.
 *
 * @param files - the files.
 * @param options - see {@link AnalysisOptions}.
 * @returns one analysis per file, in order, and the stems computed meanwhile (every stem
 *   this thread's memo did not hold yet).
 */
export function analyseFiles(
  files: readonly BatchFile[],
  options: AnalysisOptions = {},
): BatchAnalysis {
  const stems: StemPair[] = [];
  const collect = {
    get: () => undefined,
    put: (token: string, stem: string) => stems.push([token, stem]),
  };
  const analysed = withStemStore(collect, () =>
    files.map((file): FileAnalysis => {
      const parse = parseEntry(file.bytes, { mode: "lenient", path: file.path });
      if (parse.value === undefined) return { parse };
      const document = indexDocument(parse.value);
      if (options.dropBodies !== true) return { parse, document };
      const value = { ...parse.value, entry: { ...parse.value.entry, body: "" } };
      return { parse: { ...parse, value }, document };
    }),
  );
  return { files: analysed, stems };
}

/**
 * An analyser that parses in this thread and leaves `document` absent: the index computes
 * each entry's document as it stores it, so a batch's analysed text is never all alive at
 * once (the least memory; the same result). `mechanisms` reads the files as a version
 * knowing only those would (see `parseEntry`); default: this version's.
 */
export function inlineAnalyser(mechanisms?: readonly string[]): BatchAnalyser {
  return {
    threaded: false,
    analyse: async (files) => ({
      files: files.map((file) => ({
        parse: parseEntry(file.bytes, {
          mode: "lenient",
          path: file.path,
          ...(mechanisms === undefined ? {} : { mechanisms }),
        }),
      })),
      stems: [],
    }),
    close: async () => {},
  };
}

/** A request to the worker: the batch's bytes packed in one transferred buffer. */
export interface WorkerRequest {
  /** Sequence number, echoed in the answer. */
  seq: number;
  /** The bytes of every file, back to back. */
  buffer: ArrayBuffer;
  /** Each file's path and its byte range `[start, end)` in `buffer`. */
  files: { path: string; start: number; end: number }[];
  /** See {@link AnalysisOptions}. */
  options: AnalysisOptions;
}

/** The worker's answer to a {@link WorkerRequest}. */
export type WorkerAnswer =
  | { seq: number; ok: true; analysis: BatchAnalysis; texts: PackedTexts }
  | { seq: number; ok: false; reason: string };

/**
 * The full-text columns of a call's documents as UTF-8, back to back in one buffer (moved,
 * not copied, to the receiving thread): two byte offsets per file, `[summary end, body end]`,
 * each column starting where the previous one ended (0 for the first; a file without a
 * document adds two equal offsets).
 */
export interface PackedTexts {
  buffer: ArrayBuffer;
  ends: Uint32Array;
}

/**
 * Moves the documents' `summaryText` and `bodyText` into one UTF-8 buffer, leaving `""` in
 * their place (in the worker thread, before answering). Undo with {@link unpackTexts}.
 *
 * @param files - the analyses; their documents are changed in place.
 * @returns the packed columns.
 */
export function packTexts(files: FileAnalysis[]): PackedTexts {
  let total = 0;
  for (const { document } of files) {
    if (document === undefined) continue;
    total += Buffer.byteLength(document.summaryText as string, "utf8");
    total += Buffer.byteLength(document.bodyText as string, "utf8");
  }
  const bytes = Buffer.from(new ArrayBuffer(total));
  const ends = new Uint32Array(files.length * 2);
  let at = 0;
  for (const [i, { document }] of files.entries()) {
    if (document !== undefined) {
      at += bytes.write(document.summaryText as string, at, "utf8");
      ends[2 * i] = at;
      at += bytes.write(document.bodyText as string, at, "utf8");
      document.summaryText = "";
      document.bodyText = "";
    } else ends[2 * i] = at;
    ends[2 * i + 1] = at;
  }
  return { buffer: bytes.buffer as ArrayBuffer, ends };
}

/**
 * Points each document's `summaryText` and `bodyText` at its bytes in `texts` (views, no
 * copy): the inverse of {@link packTexts}.
 *
 * @param files - the analyses as answered; their documents are changed in place.
 * @param texts - the packed columns of the same answer.
 */
export function unpackTexts(files: FileAnalysis[], texts: PackedTexts): void {
  let at = 0;
  for (const [i, { document }] of files.entries()) {
    const summaryEnd = texts.ends[2 * i] as number;
    const bodyEnd = texts.ends[2 * i + 1] as number;
    if (document !== undefined) {
      document.summaryText = new Uint8Array(texts.buffer, at, summaryEnd - at);
      document.bodyText = new Uint8Array(texts.buffer, summaryEnd, bodyEnd - summaryEnd);
    }
    at = bodyEnd;
  }
}

/** Heap limits of the worker, MB: a batch is at most 10 MB of text (seed 004, "Пределы"). */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 };

/**
 * The compiled worker script: next to this module when it runs from `dist/`; when it runs
 * from TypeScript sources (vitest), the built `dist/services/indexing/index-worker.js` of the same
 * checkout. `undefined` when there is none (e.g. sources never built).
 */
export function workerScript(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  const file = here.endsWith(".ts")
    ? join(dirname(here), "..", "..", "..", "dist", "services", "indexing", "index-worker.js")
    : join(dirname(here), "index-worker.js");
  return existsSync(file) ? file : undefined;
}

/**
 * Starts one worker thread that runs {@link analyseFiles} with `options` (its old generation
 * capped at 128 MB). Requests are answered in order. When the worker throws, runs out of memory or
 * exits, every pending and later `analyse` fails with LoreError `index_failed` — never hangs.
 * The worker does not keep the process alive.
 *
 * @returns the analyser, or `undefined` when no compiled worker script exists.
 */
export function startWorkerAnalyser(options: AnalysisOptions = {}): BatchAnalyser | undefined {
  const script = workerScript();
  if (script === undefined) return undefined;
  const worker = new Worker(script, { resourceLimits: WORKER_LIMITS });
  worker.unref();
  const pending = new Map<
    number,
    { resolve: (a: BatchAnalysis) => void; reject: (e: LoreError) => void }
  >();
  let failure: LoreError | undefined;
  let seq = 0;
  const fail = (reason: string, cause?: unknown) => {
    failure ??= new LoreError(
      "index_failed",
      { reason: `analysis worker: ${reason}` },
      cause === undefined ? undefined : { cause },
    );
    for (const { reject } of pending.values()) reject(failure);
    pending.clear();
  };
  worker.on("message", (answer: WorkerAnswer) => {
    const waiting = pending.get(answer.seq);
    if (waiting === undefined) return;
    pending.delete(answer.seq);
    if (answer.ok) {
      unpackTexts(answer.analysis.files, answer.texts);
      waiting.resolve(answer.analysis);
    } else waiting.reject(new LoreError("index_failed", { reason: answer.reason }));
  });
  worker.on("error", (error) => fail(String(error), error));
  worker.on("messageerror", (error) => fail(String(error), error));
  worker.on("exit", (code) => fail(`exited with code ${code}`));
  return {
    threaded: true,
    analyse(files) {
      if (failure !== undefined) return Promise.reject(failure);
      let total = 0;
      for (const file of files) total += file.bytes.byteLength;
      const buffer = new ArrayBuffer(total);
      const view = new Uint8Array(buffer);
      const ranges: WorkerRequest["files"] = [];
      let at = 0;
      for (const file of files) {
        view.set(file.bytes, at);
        ranges.push({ path: file.path, start: at, end: at + file.bytes.byteLength });
        at += file.bytes.byteLength;
      }
      const request: WorkerRequest = { seq: seq++, buffer, files: ranges, options };
      return new Promise<BatchAnalysis>((resolve, reject) => {
        pending.set(request.seq, { resolve, reject });
        worker.postMessage(request, [buffer]);
      });
    },
    async close() {
      fail("closed");
      await worker.terminate();
    },
  };
}
