/**
 * Federation, “Tests”, end to end with real git: a local forge of real repositories (one with a
 * wiki and tasks, one wiki-only, one with tasks only, one empty), `lore sync`, then
 * ask_projects and get_from through a real MCP client over stdio (the built CLI), then
 * tasks.create and a second sync that shows the new active task; the CLI commands too.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeLocalForge, type TestForge } from "../helpers/make-forge.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";

const WEB_INDEX = `# Wiki Index

## Overview

- [overview.md](overview.md) — project overview

## Concepts

- [yarn-on-windows](concepts/yarn-on-windows.md) — Yarn on Windows
- [deploy](concepts/deploy.md) — Deploying the web app
`;
const YARN =
  "---\ntitle: Yarn on Windows\n---\n\nyarn install on Windows needs --network-timeout 600000.\n";
const BOARD =
  "# Tasks\n\n| slug | status | next |\n| --- | --- | --- |\n| login | in_progress | write the test |\n| docs | done | — |\n";

let forge: TestForge;
let sandbox: ReturnType<typeof isolatedEnv>;
let config: string;
let client: Client;

type Json = Record<string, unknown>;
const call = async (name: string, args: Json = {}) =>
  (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
    structuredContent?: Json;
  };

beforeAll(async () => {
  forge = await makeLocalForge({
    web: {
      ".wiki/index.md": WEB_INDEX,
      ".wiki/concepts/yarn-on-windows.md": YARN,
      ".wiki/concepts/deploy.md": "Deploy with `make deploy` from main.\n",
      ".tasks/STATUS.md": BOARD,
    },
    "wiki-only": {
      ".wiki/index.md":
        "# Wiki Index\n\n## Entities\n\n- [postgres](entities/postgres.md) — PostgreSQL\n",
      ".wiki/entities/postgres.md": "Postgres 16 with yarn-free tooling.\n",
    },
    "tasks-only": { ".tasks/STATUS.md": BOARD },
    empty: {},
  });
  sandbox = isolatedEnv();
  const shared = join(sandbox.dir, "projects-wiki");
  mkdirSync(join(shared, "concepts"), { recursive: true });
  writeFileSync(
    join(shared, "concepts", "git.md"),
    "---\ntitle: Git basics\n---\n\nUse git switch.\n",
  );
  config = join(sandbox.dir, "lore.toml");
  writeFileSync(
    config,
    [
      'machine = "e2e"',
      "",
      "[forge]",
      'kind = "local"',
      `root = '${forge.root}'`,
      "",
      "[wiki]",
      `shared = '${shared}'`,
      "",
      "[projects]",
      `cache = '${join(sandbox.dir, "cache.json")}'`,
      "",
    ].join("\n"),
  );
});

afterAll(async () => {
  await client?.close();
  await forge.cleanup();
  sandbox.cleanup();
});

const lore = (args: string[]) =>
  runLore([...args, "--config", config], { cwd: sandbox.dir, env: sandbox.env });

describe("federation end to end (real git, built CLI, MCP over stdio)", () => {
  it("lore sync caches the three repositories with a board or a wiki; the empty one is skipped", async () => {
    const run = await lore(["sync"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("synced 3 project(s)");
    expect(run.stdout).toContain("(2 with a wiki, 2 active task(s), 0 error(s))");
  });

  it("ask_projects and get_from through a real MCP client over stdio", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--config", config],
      env: sandbox.env,
      cwd: sandbox.dir,
      stderr: "pipe",
    });
    client = new Client({ name: "e2e-federation", version: "1" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        "knowledge_recall",
        "knowledge_ask_projects",
        "knowledge_get_from",
        "tasks_create",
      ]),
    );

    const asked = await call("knowledge_ask_projects", {
      query: "yarn",
      projects: ["web", "wiki-only", "tasks-only", "empty"],
    });
    expect(asked.isError).toBeFalsy();
    expect(asked.structuredContent).toEqual({
      asked_projects: ["web", "wiki-only", "tasks-only", "empty"],
      results: [
        {
          project: "web",
          matches: [
            {
              slug: "concepts/yarn-on-windows",
              type: "concepts",
              title: "Yarn on Windows",
              snippet: "yarn install on Windows needs --network-timeout 600000.",
            },
          ],
        },
        { project: "wiki-only", matches: [] },
        { project: "tasks-only", error: "no wiki — repo has no .wiki/index.md" },
        // Synced but skipped (no board, no wiki): it has no wiki, it is not unknown.
        { project: "empty", error: "no wiki — repo has no .wiki/index.md" },
      ],
      // English by default (the configured language); the seed's Russian text with lang = ru.
      next_action_hint:
        "knowledge_get_from(project, slug) for the full text; tasks_create(target_project, body) if the knowledge is not written down",
    });

    const page = await call("knowledge_get_from", {
      project: "web",
      slug: "concepts/yarn-on-windows",
    });
    expect(page.content[0]?.text).toBe(YARN);
    const shared = await call("knowledge_search", { query: "git" });
    expect(shared.structuredContent?.total).toBe(1);
  });

  it("tasks_create, then a second sync shows the new active task", async () => {
    const made = await call("tasks_create", {
      target_project: "tasks-only",
      body: "Write down the knowledge about yarn on Windows in .wiki/concepts/yarn.md",
    });
    expect(made.isError).toBeFalsy();
    const slug = made.structuredContent?.slug as string;
    expect(slug).toMatch(/^write-down-the-knowledge-about-yarn-on-windows/);

    const before = await call("projects_status");
    const tasksOnly = ((before.structuredContent?.projects ?? []) as Json[]).find(
      (p) => p.name === "tasks-only",
    );
    expect(((tasksOnly?.active_tasks ?? []) as Json[]).map((t) => t.slug)).toEqual(["login"]);

    const run = await lore(["sync", "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ projects: 3, with_wiki: 2, active_tasks: 3 });
    const after = await call("projects_status");
    const updated = ((after.structuredContent?.projects ?? []) as Json[]).find(
      (p) => p.name === "tasks-only",
    );
    expect(updated?.active_tasks).toEqual([
      { slug: "login", status: "in_progress", next: "write the test" },
      {
        slug,
        status: "todo",
        next: "Write down the knowledge about yarn on Windows in .wiki/concepts/yarn.md",
      },
    ]);
  });

  it("the CLI: lore ask, lore wiki get --project, lore tasks create, lore wiki check", async () => {
    const ask = await lore(["ask", "postgres", "--projects", "web,wiki-only", "--json"]);
    expect(ask.code).toBe(0);
    const answer = JSON.parse(ask.stdout) as {
      results: { project: string; matches: { slug: string }[] }[];
    };
    expect(answer.results.map((r) => r.matches.map((m) => m.slug))).toEqual([
      [],
      ["entities/postgres"],
    ]);
    const human = await lore(["ask", "yarn", "--projects", "web"]);
    expect(human.stdout).toContain("concepts/yarn-on-windows — Yarn on Windows");

    const get = await lore(["wiki", "get", "concepts/yarn-on-windows", "--project", "web"]);
    expect(get.stdout).toBe(YARN);
    const missing = await lore(["wiki", "get", "concepts/nope", "--project", "web"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("page not found: web/.wiki/concepts/nope.md [page_not_found]");

    const task = await lore([
      "tasks",
      "create",
      "--project",
      "wiki-only",
      "--body",
      "Document the backup",
    ]);
    expect(task.code).toBe(0);
    expect(task.stdout).toContain("task document-the-backup added to wiki-only");

    const check = await lore(["wiki", "check", "--project", "web"]);
    expect(check.stdout).toContain("web: 2 page(s) read, 0 line(s) not read");
    expect(check.code).toBe(0);
  });

  it("lore sync with one unreadable repository: the others synced, its last entry kept, exit 6", async () => {
    const head = join(forge.dir("tasks-only"), "HEAD");
    const before = readFileSync(head, "utf8");
    writeFileSync(head, "garbage\n");
    try {
      const run = await lore(["sync"]);
      expect(run.code).toBe(6);
      expect(run.stdout).toContain("synced 3 project(s)");
      expect(run.stdout).toContain("1 error(s))");
      expect(run.stdout).toMatch(
        / {2}tasks-only: git failed: .* \(kept the entry from \S+, \d+ s old\)/,
      );
    } finally {
      writeFileSync(head, before);
    }
    expect((await lore(["sync"])).code).toBe(0);
  });

  it("without [forge] the CLI and the tools answer federation_disabled; recall still works", async () => {
    const bare = join(sandbox.dir, "bare.toml");
    writeFileSync(bare, 'lang = "en"\n');
    const run = await runLore(["ask", "x", "--projects", "a", "--config", bare], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    expect(run.code).toBe(6);
    expect(run.stderr).toContain("lore ask disabled");
    expect(run.stderr).toContain("[federation_disabled]");
  });
});
