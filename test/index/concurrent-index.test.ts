import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openIndex } from "../../src/index/entry-index.js";
import { SCHEMA_VERSION } from "../../src/index/migrate.js";
import { search } from "../../src/services/knowledge/search.js";
import { isolatedEnv, runLore } from "../e2e/run-lore.js";

/**
 * Defect A (the index): two processes writing one index file. Each `lore index`
 * and each first open must wait for the other's write lock (busy timeout), never fail with
 * "database is locked", and the result must equal one run alone.
 */

const DIST_INDEX = new URL("../../dist/index/entry-index.js", import.meta.url).href;
const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const WORDS = ["deploy", "rollback", "migration", "cache", "queue", "schema", "index", "hook"];
const entry = (n: number) =>
  `---\nid: ${id(n)}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [${WORDS[n % WORDS.length]}]\n---\n\nEntry ${n} about ${WORDS[n % WORDS.length]} and ${WORDS[(n * 3) % WORDS.length]}.\n\n${"Some body text to index. ".repeat(40)}\n`;

let sandbox: ReturnType<typeof isolatedEnv>;
beforeEach(() => {
  sandbox = isolatedEnv();
});
afterEach(() => sandbox.cleanup());

/** A plain folder with `count` entries under `.gitriver/knowledge/`. */
function makeFolder(name: string, count: number): string {
  const dir = join(sandbox.dir, name);
  const knowledge = join(dir, ".gitriver", "knowledge");
  mkdirSync(knowledge, { recursive: true });
  for (let n = 1; n <= count; n++) writeFileSync(join(knowledge, `e${n}.md`), entry(n));
  return dir;
}

/** What an index holds, in a comparable shape: reports per path and ranked text hits. */
function snapshot(dbFile: string) {
  const index = openIndex(dbFile);
  try {
    return {
      reports: index.fileReports().map((r) => [r.repo, r.path, r.blobSha, r.entryId]),
      entries: index.entryCount(),
      hits: WORDS.map((word) =>
        search(index, { query: word, limit: 50 }).hits.map((h) => [h.id, h.score]),
      ),
    };
  } finally {
    index.close();
  }
}

/** Runs a script in a fresh node process; resolves with its exit code and stderr. */
function runNode(script: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    const err: Buffer[] = [];
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr: Buffer.concat(err).toString("utf8") }));
  });
}

describe("concurrent writers on one index file", () => {
  it("three `lore index` runs at once all succeed and equal a single run", async () => {
    const folder = makeFolder("repo", 600);
    const shared = join(sandbox.dir, "shared.db");
    const env = { ...sandbox.env, LORE_DB: shared };
    const runs = await Promise.all(
      [1, 2, 3].map(() => runLore(["index", folder, "--json"], { cwd: folder, env })),
    );
    for (const run of runs) {
      expect(run.stderr).not.toContain("locked");
      expect(run.code).toBe(0);
    }
    const single = join(sandbox.dir, "single.db");
    const alone = await runLore(["index", folder, "--json"], {
      cwd: folder,
      env: { ...sandbox.env, LORE_DB: single },
    });
    expect(alone.code).toBe(0);
    const expected = snapshot(single);
    expect(expected.entries).toBe(600);
    expect(snapshot(shared)).toEqual(expected);
  });

  it("first-time opens racing on a new file all succeed and migrate once", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const file = join(sandbox.dir, `new-${attempt}.db`);
      const script = `import { openIndex } from ${JSON.stringify(DIST_INDEX)};
openIndex(${JSON.stringify(file)}).close();`;
      const runs = await Promise.all(Array.from({ length: 6 }, () => runNode(script)));
      for (const run of runs) {
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
      }
      const index = openIndex(file);
      const version = index.withDatabase((db) => db.pragma("user_version", { simple: true }));
      index.close();
      expect(version).toBe(SCHEMA_VERSION);
    }
  });
});
