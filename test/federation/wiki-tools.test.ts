/**
 * Federation, “Tools”: knowledge.search / get (the shared wiki only), knowledge.ingest (the
 * current project's `.wiki/`, or another project's through the forge), suggest_promote /
 * promote, tasks.create, projects.status — each through a real MCP client, against real
 * folders and a local forge of real git repositories; and the `disabled` answers.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseStatusMd } from "../../src/core/wiki/tasks-status.js";
import { parseWikiIndex } from "../../src/core/wiki/wiki-index.js";
import { makeLocalForge, type TestForge } from "../helpers/make-forge.js";
import { connectFederation, type FederationClient, jsonOf } from "./federation-client.js";

const NOW = new Date("2026-04-30T12:00:00.000Z");

let tmp: string;
let shared: string;
let project: string;
let forge: TestForge;
let fed: FederationClient;
let cacheFile: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "lore-wiki-tools-"));
  shared = join(tmp, "projects-wiki");
  project = join(tmp, "node-utils");
  await mkdir(join(shared, "concepts"), { recursive: true });
  await mkdir(join(shared, "entities"), { recursive: true });
  await writeFile(
    join(shared, "index.md"),
    "# Wiki Index\n\n## Entities\n\n- [ёлка](entities/ёлка.md) — Ёлка\n\n## Concepts\n\n- [git-lfs](concepts/git-lfs.md) — Git LFS setup\n",
  );
  await writeFile(
    join(shared, "concepts/git-lfs.md"),
    "---\ntitle: Git LFS setup\n---\n\nRun git lfs install once per machine.\n",
  );
  await writeFile(
    join(shared, "entities/ёлка.md"),
    "# Ёлка\n\nДерево, которое ставят на Новый год.\n",
  );
  await writeFile(
    join(shared, "concepts/windows-paths.md"),
    "Backslashes in TOML need single quotes, e.g. yarn paths.\n",
  );
  forge = await makeLocalForge({
    docs: { ".wiki/index.md": "# Wiki Index\n\n## Concepts\n\n<!-- (none yet) -->\n" },
    tasks: {
      ".tasks/STATUS.md":
        "# Tasks\n\n| slug | status | next |\n| --- | --- | --- |\n| old | done | — |\n",
    },
  });
  cacheFile = join(tmp, "cache.json");
  fed = await connectFederation({
    forgeRoot: forge.root,
    cacheFile,
    sharedWiki: shared,
    projectDir: project,
    now: () => NOW,
  });
});

afterAll(async () => {
  await fed.close();
  await forge.cleanup();
  await rm(tmp, { recursive: true, force: true });
});

describe("knowledge.search and knowledge.get (the shared wiki)", () => {
  it("finds by slug or title first, then by body, with a snippet; ё ≡ е", async () => {
    const r = jsonOf(await fed.call("knowledge_search", { query: "YARN" }));
    expect(r.results).toEqual([
      {
        slug: "concepts/windows-paths",
        type: "concepts",
        title: "concepts/windows-paths",
        snippet: "Backslashes in TOML need single quotes, e.g. yarn paths.",
        matched: "body",
      },
    ]);
    const ru = jsonOf(await fed.call("knowledge_search", { query: "елка" }));
    expect(ru.results).toMatchObject([{ slug: "entities/ёлка", title: "Ёлка", matched: "name" }]);
    const lfs = jsonOf(await fed.call("knowledge_search", { query: "lfs" }));
    expect(lfs.results).toMatchObject([{ slug: "concepts/git-lfs", title: "Git LFS setup" }]);
  });

  it("get returns the raw page; a missing page and an escaping slug are refused", async () => {
    const page = await fed.call("knowledge_get", { slug: "concepts/git-lfs" });
    expect(page.content[0]?.text).toBe(
      "---\ntitle: Git LFS setup\n---\n\nRun git lfs install once per machine.\n",
    );
    const missing = await fed.call("knowledge_get", { slug: "concepts/nope" });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]?.text).toContain("page_not_found");
    const escaping = await fed.call("knowledge_get", { slug: "../cache" });
    expect(escaping.content[0]?.text).toContain("invalid_slug");
  });

  it("a symbolic link out of the shared wiki is refused", async () => {
    await writeFile(join(tmp, "outside.md"), "secret");
    await symlink(join(tmp, "outside.md"), join(shared, "concepts", "link.md"));
    const r = await fed.call("knowledge_get", { slug: "concepts/link" });
    expect(r.isError).toBe(true);
    expect(r.content[0]?.text).toContain("invalid_slug");
    await rm(join(shared, "concepts", "link.md"));
  });
});

describe("knowledge.ingest, suggest_promote, promote", () => {
  it("ingest writes a page into the current project's .wiki/, the canonical index and log.md", async () => {
    const r = jsonOf(
      await fed.call("knowledge_ingest", {
        title: "Yarn on Windows",
        type: "concepts",
        body: "yarn install on windows needs --network-timeout.",
      }),
    );
    expect(r).toMatchObject({
      slug: "concepts/yarn-on-windows",
      project: null,
      created: true,
      index_updated: true,
    });
    const page = await readFile(join(project, ".wiki/concepts/yarn-on-windows.md"), "utf8");
    expect(page).toBe(
      "---\ntitle: Yarn on Windows\ntype: concepts\nupdated: '2026-04-30'\n---\n\nyarn install on windows needs --network-timeout.\n",
    );
    const index = await readFile(join(project, ".wiki/index.md"), "utf8");
    expect(parseWikiIndex(index)).toEqual([
      { slug: "concepts/yarn-on-windows", type: "concepts", title: "Yarn on Windows" },
    ]);
    expect(index).toContain("<!-- (none yet) -->"); // the other sections keep the placeholder
    expect(await readFile(join(project, ".wiki/log.md"), "utf8")).toBe(
      "# Wiki Log\n\n## [2026-04-30] ingest | concepts/yarn-on-windows — Yarn on Windows\n",
    );
    // The same page again: replaced, the index line not doubled.
    const again = jsonOf(
      await fed.call("knowledge_ingest", {
        title: "Yarn on Windows",
        type: "concepts",
        body: "v2",
      }),
    );
    expect(again).toMatchObject({ created: false, index_updated: false });
    expect(parseWikiIndex(await readFile(join(project, ".wiki/index.md"), "utf8"))).toHaveLength(1);
  });

  it("ingest with target_project commits into that repository through the forge", async () => {
    const r = jsonOf(
      await fed.call("knowledge_ingest", {
        title: "Ёлка в репозитории",
        type: "entities",
        slug: "yolka",
        body: "Страница, записанная через forge.",
        target_project: "docs",
      }),
    );
    expect(r).toMatchObject({ slug: "entities/yolka", project: "docs", wiki: "docs:.wiki" });
    const index = await forge.forge.getRawFile("u", "docs", ".wiki/index.md");
    expect(parseWikiIndex(index ?? "")).toEqual([
      { slug: "entities/yolka", type: "entities", title: "Ёлка в репозитории" },
    ]);
    expect(await forge.forge.getRawFile("u", "docs", ".wiki/entities/yolka.md")).toContain(
      "Страница, записанная через forge.",
    );
    expect(await forge.forge.getRawFile("u", "docs", ".wiki/log.md")).toContain(
      "ingest | entities/yolka",
    );
  });

  it("ingest refuses a slug whose type prefix is another type, and ../", async () => {
    const wrong = await fed.call("knowledge_ingest", {
      title: "x",
      type: "concepts",
      body: "b",
      slug: "entities/x",
    });
    expect(wrong.content[0]?.text).toContain("invalid_slug");
    const escaping = await fed.call("knowledge_ingest", {
      title: "x",
      type: "concepts",
      body: "b",
      slug: "../../x",
    });
    expect(escaping.content[0]?.text).toContain("invalid_slug");
  });

  it("suggest_promote lists what the shared wiki lacks; promote copies one and indexes it", async () => {
    await mkdir(join(project, ".wiki/concepts"), { recursive: true });
    await writeFile(
      join(project, ".wiki/concepts/git-lfs.md"),
      "---\ntitle: Git LFS setup\n---\n\nRun git lfs install once per machine.\n",
    );
    await writeFile(
      join(project, ".wiki/concepts/windows-paths.md"),
      "Backslashes in TOML need single quotes, e.g. yarn paths.\n",
    );
    const s = jsonOf(await fed.call("knowledge_suggest_promote"));
    expect(s.suggestions).toEqual([
      {
        slug: "concepts/windows-paths",
        type: "concepts",
        title: "concepts/windows-paths",
        reason: "not_in_index",
        why: "the shared wiki has the page file but its index.md does not list it",
      },
      {
        slug: "concepts/yarn-on-windows",
        type: "concepts",
        title: "Yarn on Windows",
        reason: "absent",
        why: "the shared wiki has no page with this slug",
      },
    ]);
    const p = jsonOf(await fed.call("knowledge_promote", { slug: "concepts/yarn-on-windows" }));
    expect(p).toMatchObject({
      slug: "concepts/yarn-on-windows",
      title: "Yarn on Windows",
      copied: true,
      index_updated: true,
    });
    expect(await readFile(join(shared, "concepts/yarn-on-windows.md"), "utf8")).toBe(
      await readFile(join(project, ".wiki/concepts/yarn-on-windows.md"), "utf8"),
    );
    const sharedIndex = parseWikiIndex(await readFile(join(shared, "index.md"), "utf8"));
    expect(sharedIndex.map((e) => e.slug)).toEqual([
      "entities/ёлка",
      "concepts/git-lfs",
      "concepts/yarn-on-windows",
    ]);
    expect(await readFile(join(shared, "log.md"), "utf8")).toContain(
      "promote | concepts/yarn-on-windows",
    );
    const after = jsonOf(await fed.call("knowledge_suggest_promote"));
    expect((after.suggestions as { slug: string }[]).map((x) => x.slug)).toEqual([
      "concepts/windows-paths",
    ]);
    // Every word of the query: by name the promoted page; by body (and slug) windows-paths.
    const found = jsonOf(await fed.call("knowledge_search", { query: "yarn on windows" }));
    expect(
      (found.results as { slug: string; matched: string }[]).map((r) => [r.slug, r.matched]),
    ).toEqual([
      ["concepts/yarn-on-windows", "name"],
      ["concepts/windows-paths", "body"],
    ]);
  });

  it("promote refuses a different page already at the slug, and a page the project lacks", async () => {
    await writeFile(join(project, ".wiki/concepts/git-lfs.md"), "a different text\n");
    const clash = await fed.call("knowledge_promote", { slug: "concepts/git-lfs" });
    expect(clash.content[0]?.text).toContain("file_exists");
    const none = await fed.call("knowledge_promote", { slug: "concepts/none" });
    expect(none.content[0]?.text).toContain("page_not_found");
  });
});

describe("tasks.create and projects.status", () => {
  it("adds a task file and a todo row through the forge; status shows it after a sync", async () => {
    const made = jsonOf(
      await fed.call("tasks_create", {
        target_project: "tasks",
        body: "Write down the knowledge about yarn on Windows in .wiki/concepts/yarn.md\n\nAsked by node-utils.",
      }),
    );
    expect(made).toMatchObject({
      project: "tasks",
      slug: "write-down-the-knowledge-about-yarn-on-windows-in-wiki-conce",
      status: "todo",
    });
    const board = parseStatusMd(
      (await forge.forge.getRawFile("u", "tasks", ".tasks/STATUS.md")) ?? "",
    );
    expect(board.tasks.map((t) => [t.slug, t.status])).toEqual([
      ["old", "done"],
      [made.slug, "todo"],
    ]);
    expect(await forge.forge.getRawFile("u", "tasks", `.tasks/${made.slug}.md`)).toContain(
      "Asked by node-utils.",
    );
    // The same title again gets a new slug.
    const twice = jsonOf(
      await fed.call("tasks_create", {
        target_project: "tasks",
        body: "Write down the knowledge about yarn on Windows in .wiki/concepts/yarn.md",
      }),
    );
    expect(twice.slug).toBe(`${made.slug}-2`);

    const before = jsonOf(await fed.call("projects_status"));
    expect(before.synced_at).toBeNull();
    const synced = jsonOf(await fed.call("projects_sync"));
    expect(synced).toMatchObject({ projects: 2, with_wiki: 1, active_tasks: 2, errors: [] });
    const status = jsonOf(await fed.call("projects_status"));
    expect(status).toMatchObject({
      synced_at: NOW.toISOString(),
      age_seconds: 0,
      machine: "test-machine",
    });
    expect(status.projects).toEqual([
      expect.objectContaining({ name: "docs", has_wiki: true, wiki_pages: 1, active_tasks: [] }),
      expect.objectContaining({
        name: "tasks",
        has_wiki: false,
        wiki_pages: 0,
        all_tasks_count: 3,
      }),
    ]);
  });

  it("an unknown repository is refused with the forge's code", async () => {
    const r = await fed.call("tasks_create", { target_project: "ghost", body: "x" });
    expect(r.isError).toBe(true);
    expect(r.content[0]?.text).toContain("forge_not_found");
  });
});

describe("disabled answers when nothing is configured", () => {
  it("each federation tool names the setting; the project's own ingest still works", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lore-off-"));
    const off = await connectFederation({
      forgeRoot: null,
      cacheFile: null,
      sharedWiki: null,
      projectDir: dir,
    });
    try {
      const calls: [string, Record<string, unknown>, string][] = [
        ["knowledge_search", { query: "x" }, "[wiki] shared"],
        ["knowledge_get", { slug: "concepts/x" }, "[wiki] shared"],
        ["knowledge_ask_projects", { query: "x", projects: ["a"] }, "[forge]"],
        ["knowledge_get_from", { project: "a", slug: "concepts/x" }, "[forge]"],
        ["knowledge_suggest_promote", {}, "[wiki] shared"],
        ["knowledge_promote", { slug: "concepts/x" }, "[wiki] shared"],
        ["tasks_create", { target_project: "a", body: "x" }, "[forge]"],
        ["projects_sync", {}, "[forge]"],
        ["projects_status", {}, "[projects] cache"],
        [
          "knowledge_ingest",
          { title: "t", type: "concepts", body: "b", target_project: "a" },
          "[forge]",
        ],
      ];
      for (const [name, args, setting] of calls) {
        const r = await off.call(name, args);
        expect(r.isError, name).toBe(true);
        const error = (jsonOf(r) as { error: { code: string; message: string } }).error;
        expect(error.code).toBe("federation_disabled");
        expect(error.message).toContain(`${name} disabled`);
        expect(error.message).toContain(setting);
      }
      const local = await off.call("knowledge_ingest", {
        title: "Local",
        type: "concepts",
        body: "b",
      });
      expect(local.isError).toBeFalsy();
    } finally {
      await off.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
