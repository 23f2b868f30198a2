/**
 * Blobs read from a repository synchronously, in one `git cat-file --batch` per call: the
 * index's way back to the bodies it does not store (migration 5), called inside a write
 * transaction (better-sqlite3 is synchronous) only when an entry is replaced or removed,
 * re-evaluated or opened.
 */
import { execFileSync } from "node:child_process";
import { DEFAULT_GIT_TIMEOUT_MS, defaultHome, gitEnvironment } from "./run-git.js";

/** Most blob names sent to one `git cat-file --batch` (bounds one call's output in memory). */
const CHUNK = 1_000;

/**
 * Reads blobs by name.
 *
 * @param folder - the repository's folder.
 * @param shas - blob names (40 or 64 hex).
 * @returns sha → bytes; a missing object (or an unreadable repository) is absent.
 */
export function readBlobsSync(folder: string, shas: readonly string[]): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const wanted = [...new Set(shas)].filter((sha) => /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(sha));
  for (let start = 0; start < wanted.length; start += CHUNK) {
    let output: Buffer;
    try {
      output = execFileSync("git", ["cat-file", "--batch"], {
        cwd: folder,
        input: `${wanted.slice(start, start + CHUNK).join("\n")}\n`,
        env: gitEnvironment(defaultHome()),
        maxBuffer: 1 << 30,
        timeout: DEFAULT_GIT_TIMEOUT_MS,
        stdio: ["pipe", "pipe", "ignore"],
      });
    } catch {
      continue;
    }
    parseBatchOutput(output, out);
  }
  return out;
}

/** Parses `<sha> <type> <size>\n<bytes>\n` records (and `<sha> missing\n`) into `out`. */
function parseBatchOutput(output: Buffer, out: Map<string, Uint8Array>): void {
  let at = 0;
  while (at < output.length) {
    const lineEnd = output.indexOf(10, at);
    if (lineEnd < 0) return;
    const [sha, type, size] = output.toString("latin1", at, lineEnd).split(" ");
    at = lineEnd + 1;
    if (size === undefined || sha === undefined) continue; // `<sha> missing`
    const length = Number(size);
    if (type === "blob") out.set(sha, output.subarray(at, at + length));
    at += length + 1;
  }
}
