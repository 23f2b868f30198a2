import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEntry } from "../core/entry/parse-entry.js";
import { isUuidV7 } from "../core/entry/uuid7.js";
import { generateEntryFiles, writeEntryRepo } from "./generate-entries.js";

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe("generateEntryFiles", () => {
  it("gives byte-identical files for the same count and seed, different ones for another seed", () => {
    const a = [...generateEntryFiles({ count: 80, seed: 7 })];
    const b = [...generateEntryFiles({ count: 80, seed: 7 })];
    const c = [...generateEntryFiles({ count: 80, seed: 8 })];
    expect(b).toEqual(a);
    expect(c.map((f) => f.text)).not.toEqual(a.map((f) => f.text));
  });

  it("writes files that parse leniently, with unique UUIDv7 ids named <id>.md", () => {
    const files = [...generateEntryFiles({ count: 300, seed: 3 })];
    const ids = new Set<string>();
    let unreachable = 0;
    let russian = 0;
    let bodyBytes = 0;
    for (const file of files) {
      const result = parseEntry(file.text, { mode: "lenient", path: file.path });
      expect(result.value, `${file.path}: ${JSON.stringify(result.diagnostics)}`).toBeDefined();
      const parsed = result.value;
      if (parsed === undefined) continue;
      expect(isUuidV7(parsed.entry.id)).toBe(true);
      expect(file.path).toBe(`.gitriver/knowledge/${parsed.entry.id}.md`);
      ids.add(parsed.entry.id);
      if (!parsed.reachable) unreachable++;
      if (/[а-я]{4}/.test(parsed.entry.body)) russian++;
      bodyBytes += Buffer.byteLength(parsed.entry.body);
    }
    expect(ids.size).toBe(files.length);
    expect(unreachable).toBeGreaterThan(0);
    expect(unreachable).toBeLessThan(files.length / 4);
    expect(russian).toBeGreaterThan(files.length / 5);
    const meanBody = bodyBytes / files.length;
    expect(meanBody).toBeGreaterThan(1500);
    expect(meanBody).toBeLessThan(2600);
  });
});

describe("writeEntryRepo", () => {
  it("commits and checks out the files; the same input gives the same commit", async () => {
    const files = [...generateEntryFiles({ count: 25, seed: 5 })];
    const dirs = [0, 1].map(() => {
      const dir = mkdtempSync(join(tmpdir(), "lore-bench-test-"));
      temps.push(dir);
      return dir;
    });
    const [first, second] = await Promise.all(dirs.map((dir) => writeEntryRepo(dir, files)));
    expect(first?.files).toBe(25);
    expect(first?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(second?.commit).toBe(first?.commit);
    const sample = files[10];
    if (sample === undefined) throw new Error("no sample");
    expect(readFileSync(join(dirs[0] as string, sample.path), "utf8")).toBe(sample.text);
    expect(first?.bytes).toBe(files.reduce((s, f) => s + Buffer.byteLength(f.text), 0));
  });
});
