/**
 * The draft limit under concurrent writers in several processes on one index file (seed
 * 004, "Пределы"): the count and the insert share one `BEGIN IMMEDIATE` transaction, so
 * the writers together never pass the limit.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { openIndex } from "../../src/index/entry-index.js";

const DIST = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "dist");
const url = (path: string) => pathToFileURL(join(DIST, path)).href;

/** A writer process: tries `tries` drafts for `anna`, limit 30; prints `written refused`. */
const WRITER = `
import { openIndex } from ${JSON.stringify(url("index/entry-index.js"))};
import { writeDraft } from ${JSON.stringify(url("services/drafts/write-draft.js"))};
const [file, tries] = process.argv.slice(1);
const index = openIndex(file);
let written = 0, refused = 0;
for (let i = 0; i < Number(tries); i += 1) {
  try {
    await writeDraft({ index, limitFor: async () => 30 }, {
      repo: "acme/app", author: "anna",
      input: { branch: "main", title: "Lesson " + process.pid + " " + i, body: "b", words: ["w"] },
    });
    written += 1;
  } catch (error) {
    if (error.code !== "draft_limit_reached") throw error;
    refused += 1;
  }
}
index.close();
process.stdout.write(written + " " + refused);
`;

function runWriter(file: string, tries: number): Promise<{ written: number; refused: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--input-type=module", "-e", WRITER, file, String(tries)],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`writer exited ${code}: ${err}`));
      else {
        const [written, refused] = out.split(" ").map(Number);
        resolve({ written: written ?? -1, refused: refused ?? -1 });
      }
    });
  });
}

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the draft limit across processes", () => {
  it("four writers of 20 drafts each at a limit of 30 store exactly 30", async () => {
    dir = mkdtempSync(join(tmpdir(), "lore-draft-race-"));
    const file = join(dir, "index.db");
    openIndex(file).close(); // migrated once, before the writers start
    const results = await Promise.all([1, 2, 3, 4].map(() => runWriter(file, 20)));
    expect(results.reduce((sum, r) => sum + r.written, 0)).toBe(30);
    expect(results.reduce((sum, r) => sum + r.refused, 0)).toBe(50);
    const index = openIndex(file);
    try {
      expect(index.drafts.countByAuthor("anna")).toBe(30);
    } finally {
      index.close();
    }
  });
});
