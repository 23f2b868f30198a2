import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DIFF_MEMO_FOLDER,
  DIFF_MEMO_MAX_AGE_MS,
  DIFF_MEMO_MAX_BYTES,
  keepDiffMemo,
  takeDiffMemo,
} from "./diff-memo.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const K = ".gitriver/knowledge/";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-diff-memo-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("kept diffs", () => {
  it("are taken once, for exactly the commits and folder they were kept for", async () => {
    const raw = Buffer.from(":100644 100644 1 2 M\u0000.gitriver/knowledge/x.md\u0000", "latin1");
    await keepDiffMemo(dir, A, B, K, raw);
    expect(await takeDiffMemo(dir, A, C, K)).toBeUndefined();
    expect(await takeDiffMemo(dir, B, A, K)).toBeUndefined();
    expect(await takeDiffMemo(dir, A, B, "docs/")).toBeUndefined();
    expect(await takeDiffMemo(dir, A, B, K)).toEqual(raw);
    // Read once, then gone.
    expect(await takeDiffMemo(dir, A, B, K)).toBeUndefined();
    expect(readdirSync(join(dir, DIFF_MEMO_FOLDER))).toEqual([]);
  });

  it("an empty diff is kept too; a damaged file is not taken", async () => {
    await keepDiffMemo(dir, A, B, K, Buffer.alloc(0));
    expect(await takeDiffMemo(dir, A, B, K)).toEqual(Buffer.alloc(0));
    await keepDiffMemo(dir, A, C, K, Buffer.from("x"));
    const [name] = readdirSync(join(dir, DIFF_MEMO_FOLDER));
    writeFileSync(join(dir, DIFF_MEMO_FOLDER, name as string), "garbage");
    expect(await takeDiffMemo(dir, A, C, K)).toBeUndefined();
  });

  it("a diff too large is not kept, old ones are removed by the next write, and no folder is no error", async () => {
    await keepDiffMemo(dir, A, B, K, Buffer.alloc(DIFF_MEMO_MAX_BYTES + 1));
    expect(existsSync(join(dir, DIFF_MEMO_FOLDER))).toBe(false);
    await keepDiffMemo(dir, A, B, K, Buffer.from("old"));
    const [old] = readdirSync(join(dir, DIFF_MEMO_FOLDER));
    const past = (Date.now() - DIFF_MEMO_MAX_AGE_MS - 60_000) / 1000;
    utimesSync(join(dir, DIFF_MEMO_FOLDER, old as string), past, past);
    await keepDiffMemo(dir, A, C, K, Buffer.from("new"));
    expect(await takeDiffMemo(dir, A, B, K)).toBeUndefined();
    expect(await takeDiffMemo(dir, A, C, K)).toEqual(Buffer.from("new"));
    // A repository folder that cannot hold the memo folder: nothing kept, nothing thrown.
    const file = join(dir, "file");
    writeFileSync(file, "");
    await keepDiffMemo(file, A, B, K, Buffer.from("x"));
    expect(await takeDiffMemo(file, A, B, K)).toBeUndefined();
  });
});
