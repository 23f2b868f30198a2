/**
 * Parallel wiki writes from separate processes lose nothing: eight `lore wiki ingest`
 * processes at once into one project's `.wiki/` give eight pages, eight index lines and
 * eight log lines (the lock holds across processes, not only within one).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseWikiIndex } from "../../src/core/wiki/wiki-index.js";
import { isolatedEnv, runLore } from "./run-lore.js";

const sandbox = isolatedEnv();
afterAll(() => sandbox.cleanup());

describe("wiki writes from parallel processes", () => {
  it("8 `lore wiki ingest` processes at once → 8 pages, 8 index lines, 8 log lines", async () => {
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        runLore(
          [
            "wiki",
            "ingest",
            "--title",
            `Process ${i}`,
            "--type",
            "concepts",
            "--body",
            `From ${i}.`,
          ],
          { cwd: sandbox.dir, env: sandbox.env },
        ),
      ),
    );
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const wiki = join(sandbox.dir, ".wiki");
    const index = parseWikiIndex(readFileSync(join(wiki, "index.md"), "utf8"));
    expect(index.map((e) => e.slug).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `concepts/process-${i}`).sort(),
    );
    const log = readFileSync(join(wiki, "log.md"), "utf8");
    expect(log.split("\n").filter((l) => l.startsWith("## ["))).toHaveLength(8);
    for (let i = 0; i < 8; i++)
      expect(readFileSync(join(wiki, `concepts/process-${i}.md`), "utf8")).toContain(`From ${i}.`);
  });
});
