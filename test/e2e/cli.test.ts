import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEntry } from "../../src/core/entry/parse-entry.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import {
  knowledgeFiles,
  LETTERHEAD,
  MIGRATION_ID,
  ROLLBACK_ID,
  UNREACHABLE_ID,
} from "./fixture-entries.js";
import { isolatedEnv, runLore } from "./run-lore.js";

let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;

beforeAll(async () => {
  repo = await makeRepo(knowledgeFiles());
  sandbox = isolatedEnv();
});
afterAll(async () => {
  await repo.cleanup();
  sandbox.cleanup();
});

const lore = (args: string[], cwd = repo.dir, env = sandbox.env) => runLore(args, { cwd, env });

describe("lore --help / --version", () => {
  it("prints the version and the command list", async () => {
    const version = await lore(["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = await lore(["--help"]);
    expect(help.code).toBe(0);
    for (const name of [
      "init",
      "index",
      "recall",
      "get",
      "check",
      "new",
      "import",
      "mcp",
      "serve",
    ]) {
      expect(help.stdout).toContain(`  ${name} `);
    }
  });

  it("prints per-command help", async () => {
    const run = await lore(["recall", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: lore recall");
  });

  it("refuses an unknown command and an unknown option with exit 2", async () => {
    const command = await lore(["frobnicate"]);
    expect(command.code).toBe(2);
    expect(command.stderr).toBe(
      "lore: unknown command “frobnicate”; see lore --help [invalid_input]\n",
    );
    const option = await lore(["recall", "x", "--colour"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^lore: invalid input: .*--colour.* \[invalid_input\]\n$/);
    expect(option.stdout).toBe("");
  });
});

describe("lore index / recall / get", () => {
  it("indexes a repository and prints the parse report; --json gives the report", async () => {
    const run = await lore(["index", "."]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "1 entry needs mechanism “on_path”, which this version does not know",
    );
    expect(run.stdout).toMatch(/3 added, 0 updated, 0 removed, 0 unchanged, 0 skipped/);
    const again = await lore(["index", repo.dir, "--json"]);
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout);
    expect(report).toMatchObject({
      kind: "git",
      target: repo.dir,
      added: 0,
      unchanged: 3,
      skipped: 0,
      lines: [],
    });
    expect(report.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it("recalls by words in another form and by tool; --json gives {hits, total, next_cursor}", async () => {
    const text = await lore(["recall", "как", "откатить", "релиз"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("1. Откат релиза — это helm rollback");
    expect(text.stdout).toContain(ROLLBACK_ID);
    const json = await lore(["recall", "--tool", "run_migration", "--json"]);
    expect(json.code).toBe(0);
    const answer = JSON.parse(json.stdout);
    expect(Object.keys(answer).sort()).toEqual(["hits", "next_cursor", "total", "total_exact"]);
    expect(answer.hits.map((h: { id: string }) => h.id)).toEqual([MIGRATION_ID]);
    expect(answer.hits[0]).toMatchObject({
      path: ".gitriver/knowledge/migrations.md",
      why: [{ kind: "on_tool", name: "run_migration" }],
    });
    expect(answer.hits[0].body).toBeUndefined();
  });

  it("refuses an empty recall with exit 2 and a bad limit with exit 2", async () => {
    const empty = await lore(["recall"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/\[empty_query\]\n$/);
    const limit = await lore(["recall", "git", "--limit", "0"]);
    expect(limit.code).toBe(2);
  });

  it("gets an entry whole, as its file or as JSON; unknown ids exit 3", async () => {
    const file = await lore(["get", UNREACHABLE_ID]);
    expect(file.code).toBe(0);
    const parsed = parseEntry(file.stdout, { mode: "lenient" });
    expect(parsed.value?.entry.id).toBe(UNREACHABLE_ID);
    expect(parsed.value?.unmetMechanisms).toEqual(["on_path"]);
    const json = await lore(["get", ROLLBACK_ID, "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: ROLLBACK_ID,
      path: ".gitriver/knowledge/deploy-rollback.md",
      reachable: true,
    });
    const missing = await lore(["get", "01a00000-0000-7000-8000-000000000001"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe(
      "lore: no entry with id 01a00000-0000-7000-8000-000000000001 [entry_not_found]\n",
    );
  });

  it("speaks Russian with LORE_LANG=ru", async () => {
    const missing = await lore(["get", "01a00000-0000-7000-8000-000000000001"], repo.dir, {
      ...sandbox.env,
      LORE_LANG: "ru",
    });
    expect(missing.stderr).toBe(
      "lore: нет записи с идентификатором 01a00000-0000-7000-8000-000000000001 [entry_not_found]\n",
    );
  });

  it("refuses a folder that is neither a repository nor holds .gitriver/knowledge/", async () => {
    const dir = join(sandbox.dir, "plain");
    mkdirSync(dir, { recursive: true });
    const run = await lore(["index", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\[not_a_repository\]\n$/);
    const missing = await lore(["index", join(sandbox.dir, "nope")]);
    expect(missing.code).toBe(3);
  });
});

describe("lore check", () => {
  it("passes a clean folder and exits 7 on a wrong file, for pre-commit", async () => {
    const bad = await makeRepo(knowledgeFiles({ ".gitriver/knowledge/letterhead.md": LETTERHEAD }));
    try {
      const run = await lore(["check"], bad.dir);
      expect(run.code).toBe(7);
      expect(run.stdout).toMatch(
        /^\.gitriver\/knowledge\/letterhead\.md:2(:\d+)?: .*\[yaml_syntax\]$/m,
      );
      const json = await lore(["check", ".gitriver/knowledge", "--json"], bad.dir);
      expect(json.code).toBe(7);
      const summary = JSON.parse(json.stdout);
      expect(summary).toMatchObject({
        ok: false,
        files: 4,
        entries: 3,
        skipped: 1,
        unreachable: 1,
      });
      expect(summary.diagnostics).toContainEqual(
        expect.objectContaining({ path: ".gitriver/knowledge/letterhead.md", severity: "error" }),
      );
      const clean = await lore(["check", ".gitriver/knowledge/migrations.md"], bad.dir);
      expect(clean.code).toBe(0);
    } finally {
      await bad.cleanup();
    }
  });

  it("exits 3 for a path that does not exist", async () => {
    const run = await lore(["check", "nowhere"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/\[path_not_found\]\n$/);
  });
});

describe("lore init / new", () => {
  it("sets up .gitriver/knowledge/ with an example, writes new entries, and checks clean", async () => {
    const fresh = await makeRepo({ "README.md": "hello\n" });
    try {
      const init = await lore(["init"], fresh.dir);
      expect(init.code).toBe(0);
      const folder = join(fresh.dir, ".gitriver", "knowledge");
      expect(readdirSync(folder)).toHaveLength(1);
      expect(existsSync(join(fresh.dir, "lore.toml"))).toBe(false);
      const again = await lore(["init"], fresh.dir);
      expect(again.code).toBe(0);
      expect(readdirSync(folder)).toHaveLength(1);

      const made = await lore(
        [
          "new",
          "--title",
          "Restart the worker after changing queues",
          "--words",
          "worker,queue",
          "--tool",
          "deploy",
        ],
        fresh.dir,
      );
      expect(made.code).toBe(0);
      const path = made.stdout.trim();
      expect(path).toMatch(/^\.gitriver\/knowledge\/[0-9a-f-]{36}\.md$/);
      const parsed = parseEntry(readFileSync(join(fresh.dir, path)), { mode: "strict" });
      expect(parsed.value?.summary).toBe("Restart the worker after changing queues");
      expect(parsed.value?.entry.contract).toEqual([
        { mechanism: "on_query", params: { words: ["worker", "queue"] } },
        { mechanism: "on_tool", params: { name: "deploy" } },
      ]);
      expect(`${parsed.value?.entry.id}.md`).toBe(path.split("/").pop());

      const check = await lore(["check"], fresh.dir);
      expect(check.code).toBe(0);
    } finally {
      await fresh.cleanup();
    }
  });
});

describe("configuration", () => {
  it("refuses an invalid lore.toml naming line and key, exit 2", async () => {
    const dir = join(sandbox.dir, "with-config");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "lore.toml"), 'user = "anna"\n\n[server]\nprot = 80\n');
    const run = await lore(["recall", "git"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `lore: configuration error: ${join(dir, "lore.toml")}:4: key “server.prot” is not known, the nearest known is “port” (key server.prot) [config_invalid]\n`,
    );
  });

  it("reads --config and LORE_CONFIG", async () => {
    const file = join(sandbox.dir, "custom.toml");
    writeFileSync(file, "[index]\nrepos = 5\n");
    const flagged = await lore(["recall", "git", "--config", file]);
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain(`${file}:2: “index.repos” must be a list`);
    const viaEnv = await lore(["recall", "git"], repo.dir, { ...sandbox.env, LORE_CONFIG: file });
    expect(viaEnv.code).toBe(2);
    const missing = await lore(["recall", "git", "--config", join(sandbox.dir, "none.toml")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("[config_invalid]");
  });
});

describe("lore import", () => {
  it("turns a folder of rules into entries that check clean and index", async () => {
    const fresh = await makeRepo({ "README.md": "hello\n" });
    const source = join(sandbox.dir, "rules");
    mkdirSync(source, { recursive: true });
    writeFileSync(
      join(source, "testing.mdc"),
      "---\ndescription: How to run the integration tests\nglobs: tests/**\n---\n\n# Integration tests\n\nRun them with `make itest`; they need Docker.\n",
    );
    writeFileSync(
      join(source, "style.md"),
      "# Code style\n\nUse tabs in Go files and spaces elsewhere.\n",
    );
    try {
      const run = await lore(["import", source, "--json"], fresh.dir);
      expect(run.code).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(Object.keys(report).sort()).toEqual(["imported", "skipped", "written"]);
      expect(report.written.length).toBeGreaterThanOrEqual(1);
      for (const file of report.written as string[]) {
        expect(file.startsWith(join(fresh.dir, ".gitriver", "knowledge", "imported"))).toBe(true);
      }
      const check = await lore(["check"], fresh.dir);
      expect(check.code).toBe(0);
      const missing = await lore(["import", join(sandbox.dir, "none")], fresh.dir);
      expect(missing.code).toBe(3);
    } finally {
      await fresh.cleanup();
    }
  });
});

describe("lore index on folders", () => {
  it("indexes a plain folder with .gitriver/knowledge/, and a repository with no commit yet", async () => {
    const folder = join(sandbox.dir, "notes");
    mkdirSync(join(folder, ".gitriver", "knowledge"), { recursive: true });
    writeFileSync(
      join(folder, ".gitriver", "knowledge", "a.md"),
      knowledgeFiles()[".gitriver/knowledge/migrations.md"] ?? "",
    );
    const env = { ...sandbox.env, LORE_DB: join(sandbox.dir, "folders.db") };
    const run = await lore(["index", folder, "--json"], sandbox.dir, env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ kind: "folder", commit: null, added: 1 });

    const empty = await makeRepo({});
    try {
      const init = await lore(["init"], empty.dir, env);
      expect(init.code).toBe(0);
      const indexed = await lore(["index", "--json"], empty.dir, env);
      expect(indexed.code).toBe(0);
      expect(JSON.parse(indexed.stdout)).toMatchObject({ kind: "folder", added: 1 });
      expect(indexed.stderr).toContain("has no commit yet");
      const recall = await lore(["recall", "knowledge", "--json"], empty.dir, env);
      expect(JSON.parse(recall.stdout).total).toBeGreaterThanOrEqual(1);
    } finally {
      await empty.cleanup();
    }
  });

  it("indexes an older commit with --commit", async () => {
    const history = await makeRepo(knowledgeFiles());
    try {
      const first = history.initial ?? "";
      await history.remove([".gitriver/knowledge/migrations.md"]);
      const env = { ...sandbox.env, LORE_DB: join(sandbox.dir, "history.db") };
      const head = await lore(["index", "--json"], history.dir, env);
      expect(JSON.parse(head.stdout)).toMatchObject({ added: 2 });
      const old = await lore(["index", "--commit", first, "--json"], history.dir, env);
      expect(JSON.parse(old.stdout)).toMatchObject({ commit: first, added: 1, unchanged: 2 });
      const bad = await lore(["index", "--commit", "no-such-branch"], history.dir, env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/\[git_failed\]\n$/);
    } finally {
      await history.cleanup();
    }
  });
});
