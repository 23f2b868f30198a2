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
import { type IndexDocument, indexDocument } from "../../core/entry/index-document.js";
import type { BatchFile } from "../../core/entry/parse-batch.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import { LoreError } from "../../core/errors/lore-error.js";

/** One file parsed leniently, with the analysed document of its entry. */
export interface FileAnalysis {
  /** `parseEntry(bytes, { mode: "lenient", path })`. */
  parse: ParseResult;
  /** `indexDocument(parse.value)`; absent when the file is skipped. */
  document?: IndexDocument;
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
  analyse(files: readonly BatchFile[]): Promise<FileAnalysis[]>;
  /** Stops the worker, if any; pending calls fail with `index_failed`. Idempotent. */
  close(): Promise<void>;
}

/**
 * The work on each file: lenient `parseEntry`, then `indexDocument` of the entry. Pure; the
 * batch rules (size limit, duplicate ids) are applied afterwards by `parseBatch` with
 * `preparsed`.
 *
 * @param files - the files.
 * @returns one analysis per file, in order.
 */
export function analyseFiles(files: readonly BatchFile[]): FileAnalysis[] {
  return files.map((file) => {
    const parse = parseEntry(file.bytes, { mode: "lenient", path: file.path });
    return parse.value === undefined ? { parse } : { parse, document: indexDocument(parse.value) };
  });
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
    analyse: async (files) =>
      files.map((file) => ({
        parse: parseEntry(file.bytes, {
          mode: "lenient",
          path: file.path,
          ...(mechanisms === undefined ? {} : { mechanisms }),
        }),
      })),
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
}

/** The worker's answer to a {@link WorkerRequest}. */
export type WorkerAnswer =
  | { seq: number; ok: true; analysis: FileAnalysis[] }
  | { seq: number; ok: false; reason: string };

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
 * Starts one worker thread that runs {@link analyseFiles} (its old generation capped at
 * 128 MB). Requests are answered in order. When the worker throws, runs out of memory or
 * exits, every pending and later `analyse` fails with LoreError `index_failed` — never hangs.
 * The worker does not keep the process alive.
 *
 * @returns the analyser, or `undefined` when no compiled worker script exists.
 */
export function startWorkerAnalyser(): BatchAnalyser | undefined {
  const script = workerScript();
  if (script === undefined) return undefined;
  const worker = new Worker(script, { resourceLimits: WORKER_LIMITS });
  worker.unref();
  const pending = new Map<
    number,
    { resolve: (a: FileAnalysis[]) => void; reject: (e: LoreError) => void }
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
    if (answer.ok) waiting.resolve(answer.analysis);
    else waiting.reject(new LoreError("index_failed", { reason: answer.reason }));
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
      const request: WorkerRequest = { seq: seq++, buffer, files: ranges };
      return new Promise<FileAnalysis[]>((resolve, reject) => {
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
