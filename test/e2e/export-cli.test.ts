/**
 * `lore export` and `lore import` of what it wrote, as users run them: `node
 * dist/cli/main.js` spawned on a real temp git repository (export and import, both ways).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEntry } from "../../src/core/entry/parse-entry.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { knowledgeFiles, MIGRATION_ID, ROLLBACK_ID, UNREACHABLE_ID } from "./fixture-entries.js";
import { isolatedEnv, runLore } from "./run-lore.js";

let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let elsewhere: string;
/** Removed at the end: the index keeps reading a repository's blobs from its folder. */
const others: TestRepo[] = [];

beforeAll(async () => {
  repo = await makeRepo(
    knowledgeFiles({ "AGENTS.md": "# Our agents\n\nAlways run `npm test` first.\n" }),
  );
  sandbox = isolatedEnv();
  elsewhere = await mkdtemp(join(tmpdir(), "lore-export-out-"));
});
afterAll(async () => {
  await repo.cleanup();
  sandbox.cleanup();
  await rm(elsewhere, { recursive: true, force: true });
  for (const other of others) await other.cleanup();
});

const lore = (args: string[], cwd = repo.dir) => runLore(args, { cwd, env: sandbox.env });

/** Every file under a folder with its bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, name);
    try {
      out[name] = readFileSync(path, "utf8");
    } catch {
      // a folder
    }
  }
  return out;
}

describe("lore export", () => {
  it("agents-md: indexes the current repository, writes Lore's section, keeps the user's text", async () => {
    const run = await lore(["export", "agents-md"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `wrote AGENTS.md\nexported 2 entries (agents-md): 1 written, 0 unchanged, 0 removed; left out 1 unreachable, 0 drafts → .\n`,
    );
    const text = readFileSync(join(repo.dir, "AGENTS.md"), "utf8");
    expect(text.startsWith("# Our agents\n\nAlways run `npm test` first.\n\n<!-- lore:begin")).toBe(
      true,
    );
    expect(text).toContain(`<!-- lore:entry {"id":"${ROLLBACK_ID}"`);
    expect(text).toContain(`<!-- lore:entry {"id":"${MIGRATION_ID}"`);
    expect(text).not.toContain(UNREACHABLE_ID);
    const again = await lore(["export", "agents-md"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("0 written, 1 unchanged");
    expect(readFileSync(join(repo.dir, "AGENTS.md"), "utf8")).toBe(text);
  });

  it("cursor and skills --json: the report, the files, and a byte-identical second run", async () => {
    for (const format of ["cursor", "skills"]) {
      const run = await lore(["export", format, "--out", elsewhere, "--json"]);
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(report).toMatchObject({
        format,
        out: elsewhere,
        unchanged: [],
        removed: [],
        left_out: [],
        unreachable: 1,
        drafts: 0,
      });
      expect([...report.ids].sort()).toEqual([MIGRATION_ID, ROLLBACK_ID].sort());
      expect(report.written).toHaveLength(2);
      for (const path of report.written) expect(existsSync(join(elsewhere, path))).toBe(true);
    }
    const before = tree(elsewhere);
    for (const format of ["cursor", "skills"]) {
      const again = JSON.parse(
        (await lore(["export", format, "--out", elsewhere, "--json"])).stdout,
      );
      expect(again.written).toEqual([]);
      expect(again.unchanged).toHaveLength(2);
    }
    expect(tree(elsewhere)).toEqual(before);
    const rules = readdirSync(join(elsewhere, ".cursor", "rules", "lore"));
    expect(rules.every((name) => name.endsWith(".mdc"))).toBe(true);
    const rule = readFileSync(join(elsewhere, ".cursor", "rules", "lore", rules[0] ?? ""), "utf8");
    expect(rule).toMatch(
      /^---\ndescription: ".+"\nglobs:\nalwaysApply: false\n---\n<!-- lore:entry /u,
    );
  });

  it("lore import of the exported files gives back the same ids and summaries", async () => {
    const into = join(elsewhere, "imported");
    for (const [from, out] of [
      [join(elsewhere, ".cursor"), join(into, "cursor")],
      [join(elsewhere, ".claude"), join(into, "skills")],
      [join(repo.dir, "AGENTS.md"), join(into, "agents")],
    ] as const) {
      const run = await lore(["import", from, "--out", out, "--json"]);
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(report.skipped).toEqual([]);
      const ids = report.imported.flatMap((file: { ids: string[] }) => file.ids);
      // AGENTS.md also gives the user's own text as a fresh entry.
      expect(ids).toEqual(expect.arrayContaining([MIGRATION_ID, ROLLBACK_ID]));
      expect(ids).toHaveLength(from.endsWith("AGENTS.md") ? 3 : 2);
      const rollback = parseEntry(readFileSync(join(out, `${ROLLBACK_ID}.md`)), {
        mode: "strict",
      }).value;
      expect(rollback?.summary).toBe(
        "Откат релиза — это helm rollback, а не повторный деплой старого тега.",
      );
      expect(rollback?.entry.contract).toEqual([
        { mechanism: "on_query", params: { words: ["откат", "релиз"] } },
      ]);
      const migration = parseEntry(readFileSync(join(out, `${MIGRATION_ID}.md`)), {
        mode: "strict",
      }).value;
      expect(migration?.summary).toBe("Run production migrations with a lock timeout.");
      expect(migration?.entry.contract).toEqual([
        { mechanism: "on_tool", params: { name: "run_migration" } },
      ]);
    }
  });

  it("lore import into the repository the entries live in takes no id twice", async () => {
    const run = await lore(["import", join(elsewhere, ".cursor")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("[id_taken]");
    expect(run.stdout).toContain("imported 0 files as 0 entries, skipped 2");
  });

  it("--repo exports another indexed repository, named by its folder", async () => {
    // Other content: the same files and dates would make the same root commit, so the same
    // identity as the first repository (a clone of it).
    const other = await makeRepo(knowledgeFiles({ "README.md": "Another repository.\n" }));
    others.push(other);
    {
      expect((await lore(["index", other.dir])).code).toBe(0);
      const out = join(elsewhere, "other");
      const run = await lore(["export", "skills", "--repo", other.dir, "--out", out, "--json"]);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).ids).toHaveLength(2);
    }
  });

  it("bad input: an unknown format, an --out that is a file, a user's file in the way", async () => {
    const format = await lore(["export", "cursr"]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("did you mean “cursor”?");
    expect(format.stderr.trim().endsWith("[invalid_input]")).toBe(true);
    const none = await lore(["export"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("a format is needed");

    const file = join(elsewhere, "a-file.txt");
    writeFileSync(file, "x");
    const out = await lore(["export", "cursor", "--out", file]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("is a file, not a folder");
    expect(out.stderr.trim().endsWith("[invalid_input]")).toBe(true);

    const mine = join(elsewhere, "mine");
    const first = JSON.parse((await lore(["export", "cursor", "--out", mine, "--json"])).stdout);
    const path = join(mine, first.written[0]);
    writeFileSync(path, "---\ndescription: my own rule now\n---\nMine.\n");
    const blocked = await lore(["export", "cursor", "--out", mine]);
    expect(blocked.code).toBe(4);
    expect(blocked.stderr.trim().endsWith("[file_exists]")).toBe(true);
    expect(readFileSync(path, "utf8")).toContain("my own rule now");

    const repoFlag = await lore(["export", "cursor", "--repo", "nowhere/at-all"]);
    expect(repoFlag.code).toBe(3);
    expect(repoFlag.stderr.trim().endsWith("[repo_not_indexed]")).toBe(true);
  });

  it("names entry files that differ from HEAD, exporting what is committed", async () => {
    const dir = join(repo.dir, ".gitriver", "knowledge");
    await mkdir(dir, { recursive: true });
    writeFileSync(
      join(dir, "migrations.md"),
      readFileSync(join(dir, "migrations.md"), "utf8").replace(
        "lock timeout",
        "short lock timeout",
      ),
    );
    const run = await lore(["export", "cursor", "--out", join(elsewhere, "head")]);
    expect(run.stderr).toContain("migrations.md");
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("[worktree_differs]");
    const worktree = await lore([
      "export",
      "cursor",
      "--worktree",
      "--out",
      join(elsewhere, "wt"),
      "--json",
    ]);
    expect(worktree.stderr).toBe("");
    expect(worktree.code).toBe(0);
    const rules = readdirSync(join(elsewhere, "wt", ".cursor", "rules", "lore"));
    const texts = rules.map((name) =>
      readFileSync(join(elsewhere, "wt", ".cursor", "rules", "lore", name), "utf8"),
    );
    expect(texts.some((text) => text.includes("short lock timeout"))).toBe(true);
    await repo.git(["checkout", "--", "."]);
  });
});
