/**
 * The worker thread of an index build (see `batch-analysis.ts`): receives
 * {@link WorkerRequest}s, answers each with {@link WorkerAnswer} — `analyseFiles` of the
 * files, or `{ ok: false, reason }` when it threw. Runs only as a `worker_threads` Worker.
 */
import { parentPort } from "node:worker_threads";
import {
  analyseFiles,
  packTexts,
  type WorkerAnswer,
  type WorkerRequest,
} from "./batch-analysis.js";

const port = parentPort;
if (port === null) throw new Error("index-worker.js runs only as a worker thread");
port.on("message", (request: WorkerRequest) => {
  let answer: WorkerAnswer;
  try {
    const files = request.files.map(({ path, start, end }) => ({
      path,
      bytes: new Uint8Array(request.buffer, start, end - start),
    }));
    const analysis = analyseFiles(files, request.options);
    // The full-text columns go back as UTF-8 in one moved buffer: off the main thread's heap.
    const texts = packTexts(analysis.files);
    answer = { seq: request.seq, ok: true, analysis, texts };
  } catch (error) {
    answer = { seq: request.seq, ok: false, reason: String(error) };
  }
  port.postMessage(
    answer,
    answer.ok ? [answer.texts.buffer, answer.texts.ends.buffer as ArrayBuffer] : [],
  );
});
