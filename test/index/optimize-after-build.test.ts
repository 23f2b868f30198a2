import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openIndex } from "../../src/index/entry-index.js";
import { indexFolder } from "../../src/services/indexing/index-folder.js";
import { OPTIMIZE_AFTER_ADDED } from "../../src/services/indexing/index-knowledge.js";

/**
 * Defect E: a run that adds more than `OPTIMIZE_AFTER_ADDED` files ends by merging the
 * full-text index into one segment (`EntryIndex.optimize`); a small run does not.
 */

const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const entry = (n: number) =>
  `---\nid: ${id(n)}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [w${n % 50}]\n---\n\nEntry ${n} word${n % 97} topic${n % 13}.\n`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-optimize-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The number of FTS5 segments of `entry_text` (each has rows in its `_idx` table). */
function segments(dbFile: string): number {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare("SELECT count(DISTINCT segid) FROM entry_text_idx").pluck().get() as number;
  } finally {
    db.close();
  }
}

describe("optimize after a large build", () => {
  it("merges to one segment after adding more than OPTIMIZE_AFTER_ADDED files, not after a few", async () => {
    const folder = join(dir, "repo");
    const knowledge = join(folder, ".gitriver", "knowledge");
    mkdirSync(knowledge, { recursive: true });
    const count = OPTIMIZE_AFTER_ADDED + 1;
    for (let n = 1; n <= count; n++) writeFileSync(join(knowledge, `e${n}.md`), entry(n));
    const dbFile = join(dir, "index.db");
    const index = openIndex(dbFile);
    // Small transactions: the build leaves many segments unless it is optimized.
    const run = () => indexFolder({ index, dir: folder, repoName: "acme/app", batchBytes: 20_000 });
    const first = await run();
    expect(first.added).toBe(count);
    expect(segments(dbFile)).toBe(1);

    for (let n = count + 1; n <= count + 40; n++) {
      writeFileSync(join(knowledge, `e${n}.md`), entry(n));
    }
    const second = await run();
    expect(second.added).toBe(40);
    expect(segments(dbFile)).toBeGreaterThan(1);
    index.close();
  });
});
