/**
 * Federation that reads what real wikis hold and loses nothing, over a real MCP client, a
 * real local forge of git repositories (and the fake Gitea where a forge's races matter),
 * a real cache file: multi-word matching, parallel wiki writes, one unreadable repository,
 * size limits, non-canonical index lines, empty and missing wikis, the language of the
 * hint, a symlinked type folder, a too-long slug.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GiteaForge } from "../../src/adapters/gitea/gitea-forge.js";
import { parseWikiIndex } from "../../src/core/wiki/wiki-index.js";
import { WIKI_LIMITS } from "../../src/core/wiki/wiki-limits.js";
import {
  type CacheFile,
  readCache,
  writeCache,
} from "../../src/services/federation/projects-cache.js";
import { syncSummary } from "../../src/services/federation/projects-status.js";
import { syncToCache } from "../../src/services/federation/sync.js";
import { ingestPage } from "../../src/services/wiki/ingest-page.js";
import { forgeWikiStore } from "../../src/services/wiki/wiki-store.js";
import { startFakeGitea } from "../helpers/fake-gitea.js";
import { makeLocalForge, type TestForge } from "../helpers/make-forge.js";
import { connectFederation, type FederationClient, jsonOf } from "./federation-client.js";

type Ask = {
  results: {
    project: string;
    matches?: { slug: string; title: string; snippet: string }[];
    error?: string;
  }[];
};

const nodeUtilsIndex = `# Wiki Index

## Concepts

- [ci-cache](concepts/ci-cache.md) — Cache rules in CI
- [windows-paths](concepts/windows-paths.md) — Paths on Windows
- [yarn-windows](concepts/yarn-windows.md) — Yarn on Windows

## Entities

- [tree](entities/tree.md) — Зелёная ёлка у дома
`;

/** What real wikis hold: two hyphens, no title, decorated headings, plus lines not read. */
const realIndex = `# Wiki Index

## Concepts · 12

- [Caching](concepts/caching.md) -- Cache rules
- [concepts/retry](concepts/retry.md)
- [[wikilink-page]]

## 🧠 Sources

- [paper](sources/paper.md) — A paper
- [x](https://example.com) — External
| concept | search | concepts/search.md |
`;

let forge: TestForge;
let fed: FederationClient;
let tmp: string;
let cacheFile: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "lore-fed-hard-"));
  cacheFile = join(tmp, "cache.json");
  forge = await makeLocalForge({
    "node-utils": {
      ".wiki/index.md": nodeUtilsIndex,
      ".wiki/concepts/yarn-windows.md":
        "---\ntitle: Yarn on Windows\n---\n\nUse yarn with --network-timeout on Windows.\n",
      ".wiki/concepts/windows-paths.md": "Backslashes.\n",
      ".wiki/concepts/ci-cache.md": "Cache node_modules.\n",
      ".wiki/entities/tree.md": "Ёлка растёт у дома.\n",
    },
    real: {
      ".wiki/index.md": realIndex,
      ".wiki/concepts/caching.md": "Cache for an hour.\n",
      ".wiki/concepts/retry.md": "Retry three times.\n",
      ".wiki/sources/paper.md": "A paper.\n",
    },
    "empty-wiki": { ".wiki/index.md": "" },
    "prose-wiki": {
      ".wiki/index.md": "# Our wiki\n\nSee [[home]] and the pages below.\n\n- [[page-one]]\n",
    },
    "bare-repo": { "README.md": "no board, no wiki\n" },
    "huge-index": {
      ".wiki/index.md": `## Concepts\n${"- [a](concepts/a.md) — A\n".repeat(WIKI_LIMITS.wikiIndexBytes / 24 + 10)}`,
    },
    "huge-page": {
      ".wiki/index.md": "## Concepts\n\n- [big](concepts/big.md) — Big page\n",
      ".wiki/concepts/big.md": "x".repeat(WIKI_LIMITS.wikiPageBytes + 1),
    },
  });
  fed = await connectFederation({ forgeRoot: forge.root, cacheFile });
  const synced = await fed.call("projects_sync");
  expect(synced.isError).toBeFalsy();
});

afterAll(async () => {
  await fed.close();
  await forge.cleanup();
  await rm(tmp, { recursive: true, force: true });
});

const ask = async (query: string, projects: string[]) => {
  const r = await fed.call("knowledge_ask_projects", { query, projects });
  expect(r.isError).toBeFalsy();
  return jsonOf(r) as Ask;
};

describe("multi-word wiki queries", () => {
  it('`lore ask "yarn windows" --projects node-utils` finds `- [yarn-windows](concepts/yarn-windows.md) — Yarn on Windows`', async () => {
    const r = await ask("yarn windows", ["node-utils"]);
    expect(r.results[0]?.matches?.map((m) => [m.slug, m.title])).toEqual([
      ["concepts/yarn-windows", "Yarn on Windows"],
    ]);
    expect(r.results[0]?.matches?.[0]?.snippet).toContain("yarn");
  });

  it("`Windows yarn` finds the same page; `windows` alone ranks two words in the title first", async () => {
    expect(
      (await ask("Windows yarn", ["node-utils"])).results[0]?.matches?.map((m) => m.slug),
    ).toEqual(["concepts/yarn-windows"]);
    expect(
      (await ask("on windows", ["node-utils"])).results[0]?.matches?.map((m) => m.slug),
    ).toEqual(["concepts/windows-paths", "concepts/yarn-windows"]);
    // `paths windows`: both words in the title of windows-paths only.
    expect(
      (await ask("windows paths", ["node-utils"])).results[0]?.matches?.map((m) => m.slug),
    ).toEqual(["concepts/windows-paths"]);
  });

  it("`ёлка зелёная` finds `Зелёная ёлка у дома`; with е for ё too", async () => {
    for (const q of ["ёлка зелёная", "елка зеленая", "ЗЕЛЁНАЯ ЁЛКА"])
      expect((await ask(q, ["node-utils"])).results[0]?.matches?.map((m) => m.title)).toEqual([
        "Зелёная ёлка у дома",
      ]);
  });

  it("a two-letter word next to another word counts: `ci cache` matches, `ci yarn` does not", async () => {
    expect((await ask("ci cache", ["node-utils"])).results[0]?.matches?.map((m) => m.slug)).toEqual(
      ["concepts/ci-cache"],
    );
    expect((await ask("ci yarn", ["node-utils"])).results[0]?.matches).toEqual([]);
  });

  it("knowledge_search: every word, by name first, then over the body text", async () => {
    const shared = join(tmp, "shared");
    await mkdir(join(shared, "entities"), { recursive: true });
    await mkdir(join(shared, "concepts"), { recursive: true });
    await writeFile(
      join(shared, "entities/tree.md"),
      "---\ntitle: Зелёная ёлка у дома\n---\n\nСтоит во дворе.\n",
    );
    await writeFile(
      join(shared, "concepts/winter.md"),
      "---\ntitle: Winter\n---\n\nЁлка, зелёная круглый год.\n",
    );
    await writeFile(
      join(shared, "concepts/yarn-windows.md"),
      "---\ntitle: Yarn on Windows\n---\n\nx\n",
    );
    const s = await connectFederation({ forgeRoot: null, cacheFile: null, sharedWiki: shared });
    try {
      const found = jsonOf(await s.call("knowledge_search", { query: "ёлка зелёная" }));
      expect(
        (found.results as { slug: string; matched: string }[]).map((r) => [r.slug, r.matched]),
      ).toEqual([
        ["entities/tree", "name"],
        ["concepts/winter", "body"],
      ]);
      const yarn = jsonOf(await s.call("knowledge_search", { query: "Windows yarn" }));
      expect((yarn.results as { slug: string }[]).map((r) => r.slug)).toEqual([
        "concepts/yarn-windows",
      ]);
    } finally {
      await s.close();
    }
  });
});

describe("federation reads what real wikis hold, and says what it could not read", () => {
  it("`-- ` titles, link text as title and decorated headings are served by ask", async () => {
    const r = await ask("cache", ["real"]);
    expect(r.results[0]?.matches?.map((m) => [m.slug, m.title])).toEqual([
      ["concepts/caching", "Cache rules"],
    ]);
    expect((await ask("retry", ["real"])).results[0]?.matches?.map((m) => m.title)).toEqual([
      "concepts/retry",
    ]);
    expect((await ask("paper", ["real"])).results[0]?.matches?.map((m) => m.slug)).toEqual([
      "sources/paper",
    ]);
  });

  it("projects_status and the sync summary count each wiki's pages and lines not read", async () => {
    const status = jsonOf(await fed.call("projects_status")) as {
      projects: { name: string; wiki: string; wiki_pages: number; wiki_lines_not_read: number }[];
    };
    const real = status.projects.find((p) => p.name === "real");
    // 3 pages; not read: the wikilink, the external link, the table row.
    expect(real).toMatchObject({
      wiki_pages: 3,
      wiki_lines_not_read: 3,
      wiki: "wiki: 3 pages, 3 lines not read",
    });
    expect(status.projects.find((p) => p.name === "node-utils")?.wiki).toBe("wiki: 4 pages");
    const sync = jsonOf(await fed.call("projects_sync")) as {
      wikis: { project: string; summary: string; lines_not_read: number }[];
    };
    expect(sync.wikis.find((w) => w.project === "real")).toEqual({
      project: "real",
      pages: 3,
      lines_not_read: 3,
      summary: "wiki: 3 pages, 3 lines not read",
    });
  });

  it("an empty or unreadable index is reported as such, never `matches: []`", async () => {
    const r = await ask("anything", ["empty-wiki", "prose-wiki", "huge-index"]);
    expect(r.results).toEqual([
      { project: "empty-wiki", error: "wiki index empty — .wiki/index.md lists no pages" },
      {
        project: "prose-wiki",
        error: expect.stringMatching(/^wiki index malformed: line 5: a \[\[wikilink\]\]/),
      },
      {
        project: "huge-index",
        error: expect.stringMatching(
          /^wiki index unreadable: \.wiki\/index\.md in huge-index is over the 2097152-byte limit of a wiki index/,
        ),
      },
    ]);
  });

  it("a synced repository without a wiki answers `no wiki`, not `unknown project`", async () => {
    const r = await ask("x", ["bare-repo", "never-heard-of"]);
    expect(r.results).toEqual([
      { project: "bare-repo", error: "no wiki — repo has no .wiki/index.md" },
      { project: "never-heard-of", error: "unknown project — run sync first" },
    ]);
  });

  it("a page over 1 MiB: ask marks it, get_from refuses it with remote_file_too_large", async () => {
    const r = await ask("big", ["huge-page"]);
    expect(r.results[0]?.matches).toEqual([
      {
        slug: "concepts/big",
        type: "concepts",
        title: "Big page",
        snippet: "(page over the size limit)",
      },
    ]);
    const g = await fed.call("knowledge_get_from", { project: "huge-page", slug: "concepts/big" });
    expect(g.isError).toBe(true);
    expect(g.content[0]?.text).toContain("remote_file_too_large");
    expect(g.content[0]?.text).toContain("1048576");
  });
});

describe("sync: one unreadable repository does not fail the others", () => {
  it("per-project errors in the cache and summary; the last good entry kept with its age", async () => {
    const local = await makeLocalForge({
      good: { ".wiki/index.md": "## Concepts\n\n- [a](concepts/a.md) — A\n" },
      flaky: { ".tasks/STATUS.md": "| slug | status | next |\n|-|-|-|\n| t | todo | x |\n" },
    });
    const file = join(tmp, "sync-cache.json");
    let clock = new Date("2026-05-01T10:00:00Z");
    const s = await connectFederation({ forgeRoot: local.root, cacheFile: file, now: () => clock });
    try {
      expect(jsonOf(await s.call("projects_sync")).errors).toEqual([]);
      // `flaky` breaks (a bad HEAD), and a folder that only looks like a bare repository appears.
      await writeFile(join(local.dir("flaky"), "HEAD"), "garbage\n");
      const fake = join(local.root, "fake.git");
      await mkdir(join(fake, "objects"), { recursive: true });
      await mkdir(join(fake, "refs"), { recursive: true });
      await writeFile(join(fake, "HEAD"), "not a ref\n");
      clock = new Date("2026-05-01T11:00:00Z");
      const r = await s.call("projects_sync");
      expect(r.isError).toBeFalsy();
      const summary = jsonOf(r) as { projects: number; errors: Record<string, unknown>[] };
      expect(summary.errors.map((e) => e.project)).toEqual(["fake", "flaky"]);
      expect(summary.errors[1]).toMatchObject({
        project: "flaky",
        kept_from: "2026-05-01T10:00:00.000Z",
        kept_age_seconds: 3600,
      });
      const cache = await readCache(file);
      expect(cache?.projects.map((p) => p.name)).toEqual(["flaky", "good"]);
      expect(cache?.projects[0]).toMatchObject({
        fetched_at: "2026-05-01T10:00:00.000Z",
        all_tasks_count: 1,
        sync_error: expect.any(String),
      });
      expect(cache?.errors.map((e) => e.project)).toEqual(["fake", "flaky"]);
      const status = jsonOf(await s.call("projects_status")) as {
        projects: { name: string; sync_error?: string }[];
      };
      expect(status.projects.find((p) => p.name === "flaky")?.sync_error).toEqual(
        expect.any(String),
      );
    } finally {
      await s.close();
      await local.cleanup();
    }
  });
});

describe("sync: reads that time out never replace a good cached entry", () => {
  it("a forge whose reads time out: the previous entry stays, the error is reported", async () => {
    const server = createServer((req, res) => {
      if (req.url?.startsWith("/api/v1/user/repos")) {
        res.writeHead(200, { "Content-Type": "application/json", "X-Total-Count": "1" });
        res.end(JSON.stringify([{ name: "p", default_branch: "main" }]));
      }
      // every file read: no answer at all (a timeout)
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const file = join(tmp, "timeout-cache.json");
    const good: CacheFile = {
      synced_at: "2026-05-01T10:00:00.000Z",
      synced_from: url,
      machine: "m",
      projects: [
        {
          name: "p",
          default_branch: "main",
          fetched_at: "2026-05-01T10:00:00.000Z",
          active_tasks: [{ slug: "t", status: "todo", next: "x" }],
          all_tasks_count: 1,
          raw: "| slug | status | next |\n|-|-|-|\n| t | todo | x |\n",
          wiki_index: "## Concepts\n\n- [a](concepts/a.md) — A\n",
        },
      ],
      errors: [],
    };
    await writeCache(file, good);
    try {
      const cache = await syncToCache({
        forge: new GiteaForge({ url, token: "t", timeoutMs: 300 }),
        owner: "u",
        syncedFrom: url,
        machine: "m",
        cacheFile: file,
        now: () => new Date("2026-05-01T12:00:00.000Z"),
      });
      expect(cache.projects).toEqual([
        { ...good.projects[0], sync_error: expect.stringContaining("TimeoutError") },
      ]);
      expect(cache.errors).toEqual([
        {
          project: "p",
          reason: expect.stringContaining("forge is unavailable"),
          kept_from: "2026-05-01T10:00:00.000Z",
        },
      ]);
      expect(
        syncSummary(cache, new Date("2026-05-01T12:00:00.000Z")).errors[0]?.kept_age_seconds,
      ).toBe(7200);
      expect(await readCache(file)).toEqual(cache);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    }
  });
});

/** N parallel ingests through one MCP client. */
async function ingestMany(
  client: FederationClient,
  n: number,
  extra: Record<string, unknown> = {},
) {
  const results = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      client.call("knowledge_ingest", {
        title: `Page ${i}`,
        type: "concepts",
        body: `Body of page ${i}.`,
        ...extra,
      }),
    ),
  );
  for (const r of results) expect(r.isError, r.content[0]?.text).toBeFalsy();
}

const logLines = (text: string) => text.split("\n").filter((l) => l.startsWith("## [")).length;

describe("concurrent wiki writes lose nothing", () => {
  it("12 parallel knowledge_ingest into the project's folder → 12 pages, 12 index lines, 12 log lines", async () => {
    const project = await mkdtemp(join(tmpdir(), "lore-par-"));
    const s = await connectFederation({ forgeRoot: null, cacheFile: null, projectDir: project });
    try {
      await ingestMany(s, 12);
      const index = await readFile(join(project, ".wiki/index.md"), "utf8");
      expect(parseWikiIndex(index)).toHaveLength(12);
      expect(logLines(await readFile(join(project, ".wiki/log.md"), "utf8"))).toBe(12);
      for (let i = 0; i < 12; i++)
        expect(await readFile(join(project, `.wiki/concepts/page-${i}.md`), "utf8")).toContain(
          `page ${i}`,
        );
    } finally {
      await s.close();
      await rm(project, { recursive: true, force: true });
    }
  });

  it("12 parallel knowledge_promote into the shared wiki → 12 pages, 12 index lines, 12 log lines", async () => {
    const project = await mkdtemp(join(tmpdir(), "lore-par-"));
    const shared = await mkdtemp(join(tmpdir(), "lore-par-shared-"));
    const s = await connectFederation({
      forgeRoot: null,
      cacheFile: null,
      projectDir: project,
      sharedWiki: shared,
    });
    try {
      await ingestMany(s, 12);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          s.call("knowledge_promote", { slug: `concepts/page-${i}` }),
        ),
      );
      for (const r of results) expect(r.isError, r.content[0]?.text).toBeFalsy();
      expect(parseWikiIndex(await readFile(join(shared, "index.md"), "utf8"))).toHaveLength(12);
      expect(logLines(await readFile(join(shared, "log.md"), "utf8"))).toBe(12);
    } finally {
      await s.close();
      await rm(project, { recursive: true, force: true });
      await rm(shared, { recursive: true, force: true });
    }
  });

  it("12 parallel knowledge_ingest through the local forge → 12 pages, 12 index lines, 12 log lines", async () => {
    const local = await makeLocalForge({ target: { "README.md": "r\n" } });
    const s = await connectFederation({
      forgeRoot: local.root,
      cacheFile: join(tmp, "par-cache.json"),
    });
    try {
      await ingestMany(s, 12, { target_project: "target" });
      const index = await local.forge.getRawFile("u", "target", ".wiki/index.md");
      expect(parseWikiIndex(index ?? "")).toHaveLength(12);
      expect(logLines((await local.forge.getRawFile("u", "target", ".wiki/log.md")) ?? "")).toBe(
        12,
      );
      for (let i = 0; i < 12; i++)
        expect(
          await local.forge.getRawFile("u", "target", `.wiki/concepts/page-${i}.md`),
        ).toContain(`page ${i}`);
    } finally {
      await s.close();
      await local.forge.close();
      await local.cleanup();
    }
  });

  it("12 parallel knowledge_ingest through the fake Gitea → 12 pages, 12 index lines, 12 log lines", async () => {
    const gitea = await startFakeGitea();
    await gitea.addRepo("target", { "README.md": "r\n" });
    const giteaForge = new GiteaForge({ url: gitea.url, token: gitea.token });
    const s = await connectFederation({
      forgeRoot: null,
      cacheFile: join(tmp, "gitea-cache.json"),
      forge: { forge: giteaForge, owner: gitea.user, where: gitea.url },
    });
    try {
      await ingestMany(s, 12, { target_project: "target" });
      const index = await giteaForge.getRawFile(gitea.user, "target", ".wiki/index.md");
      expect(parseWikiIndex(index ?? "")).toHaveLength(12);
      expect(
        logLines((await giteaForge.getRawFile(gitea.user, "target", ".wiki/log.md")) ?? ""),
      ).toBe(12);
    } finally {
      await s.close();
      await gitea.close();
    }
  });
});

describe("what a break-it pass found", () => {
  it("a shared page over 1 MiB is left out of knowledge_search, not the whole answer; log.md may grow past 1 MiB", async () => {
    const shared = await mkdtemp(join(tmpdir(), "lore-big-shared-"));
    await mkdir(join(shared, "concepts"), { recursive: true });
    await writeFile(
      join(shared, "concepts/huge.md"),
      `yarn ${"x".repeat(WIKI_LIMITS.wikiPageBytes)}`,
    );
    await writeFile(join(shared, "concepts/yarn.md"), "---\ntitle: Yarn\n---\n\nyarn\n");
    const project = await mkdtemp(join(tmpdir(), "lore-big-log-"));
    await mkdir(join(project, ".wiki"), { recursive: true });
    await writeFile(
      join(project, ".wiki/log.md"),
      `# Wiki Log\n\n${"## [2026-01-01] ingest | x\n".repeat(60_000)}`,
    );
    const s = await connectFederation({
      forgeRoot: null,
      cacheFile: null,
      sharedWiki: shared,
      projectDir: project,
    });
    try {
      const found = await s.call("knowledge_search", { query: "yarn" });
      expect(found.isError, found.content[0]?.text).toBeFalsy();
      expect((jsonOf(found).results as { slug: string }[]).map((r) => r.slug)).toEqual([
        "concepts/yarn",
      ]);
      const got = await s.call("knowledge_get", { slug: "concepts/huge" });
      expect(JSON.parse(got.content[0]?.text ?? "{}").error.code).toBe("remote_file_too_large");
      const r = await s.call("knowledge_ingest", {
        title: "After a long log",
        type: "concepts",
        body: "b",
      });
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      expect(logLines(await readFile(join(project, ".wiki/log.md"), "utf8"))).toBe(60_001);
    } finally {
      await s.close();
      await rm(shared, { recursive: true, force: true });
      await rm(project, { recursive: true, force: true });
    }
  });

  it("hostile index lines (200 KB of `[`, `](`, `[[a`) do not stall sync, ask or status", async () => {
    const n = 200_000;
    const local = await makeLocalForge({
      hostile: {
        ".wiki/index.md": `## Concepts\n\n- [ok](concepts/ok.md) — OK\n- ${"[".repeat(n)}\n- ${"](".repeat(n / 2)}\n- ${"[[a".repeat(n / 3)}\n`,
        ".wiki/concepts/ok.md": "ok\n",
      },
    });
    const s = await connectFederation({
      forgeRoot: local.root,
      cacheFile: join(tmp, "hostile-cache.json"),
    });
    try {
      expect((await s.call("projects_sync")).isError).toBeFalsy();
      const r = jsonOf(
        await s.call("knowledge_ask_projects", { query: "ok", projects: ["hostile"] }),
      ) as Ask;
      expect(r.results[0]?.matches?.map((m) => m.slug)).toEqual(["concepts/ok"]);
      const status = jsonOf(await s.call("projects_status")) as { projects: { wiki: string }[] };
      // Not read: the `- [[[…` and `- [[a[[a…` lines (the `- ](](…` line links nothing).
      expect(status.projects[0]?.wiki).toBe("wiki: 1 page, 2 lines not read");
    } finally {
      await s.close();
      await local.cleanup();
    }
  });
});

describe("a cancelled ingest through a forge writes nothing", () => {
  it("an aborted signal before the page is written: `cancelled`, no commit", async () => {
    const local = await makeLocalForge({ target: { "README.md": "r\n" } });
    try {
      const head = await local.forge.getFileWithSha("u", "target", "README.md");
      const aborted = new AbortController();
      aborted.abort();
      await expect(
        ingestPage(
          forgeWikiStore(local.forge, "u", "target"),
          { title: "T", type: "concepts", body: "b" },
          new Date(),
          aborted.signal,
        ),
      ).rejects.toMatchObject({ code: "cancelled" });
      expect(await local.forge.getRawFile("u", "target", ".wiki/index.md")).toBeNull();
      expect(await local.forge.getRawFile("u", "target", ".wiki/concepts/t.md")).toBeNull();
      expect((await local.forge.getFileWithSha("u", "target", "README.md"))?.sha).toBe(head?.sha);
    } finally {
      await local.forge.close();
      await local.cleanup();
    }
  });
});

describe("small refusals", () => {
  it("a symlinked type folder in .wiki/ is skipped by suggest_promote with a notice", async () => {
    const project = await mkdtemp(join(tmpdir(), "lore-link-"));
    const shared = await mkdtemp(join(tmpdir(), "lore-link-shared-"));
    const outside = await mkdtemp(join(tmpdir(), "lore-link-outside-"));
    await writeFile(join(outside, "secret.md"), "---\ntitle: Secret\n---\n\nnot in the wiki\n");
    await mkdir(join(project, ".wiki/entities"), { recursive: true });
    await writeFile(join(project, ".wiki/entities/kept.md"), "---\ntitle: Kept\n---\n\nok\n");
    await symlink(outside, join(project, ".wiki/concepts"));
    const s = await connectFederation({
      forgeRoot: null,
      cacheFile: null,
      projectDir: project,
      sharedWiki: shared,
    });
    try {
      const r = await s.call("knowledge_suggest_promote");
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      const body = jsonOf(r) as { suggestions: { slug: string }[]; notices: unknown[] };
      expect(body.suggestions.map((x) => x.slug)).toEqual(["entities/kept"]);
      expect(body.notices).toEqual([
        {
          code: "symlinked_type_folder",
          folder: "concepts",
          message:
            "concepts/ is a symbolic link and was skipped: its pages could lie outside the wiki",
        },
      ]);
    } finally {
      await s.close();
      for (const d of [project, shared, outside]) await rm(d, { recursive: true, force: true });
    }
  });

  it("a too-long slug (ENAMETOOLONG) is invalid_slug, not internal", async () => {
    const project = await mkdtemp(join(tmpdir(), "lore-long-"));
    const s = await connectFederation({ forgeRoot: null, cacheFile: null, projectDir: project });
    try {
      for (const slug of [`concepts/${"a".repeat(300)}`, `concepts/${"ё".repeat(130)}`]) {
        const r = await s.call("knowledge_ingest", {
          title: "Long",
          type: "concepts",
          body: "b",
          slug,
        });
        expect(r.isError).toBe(true);
        expect(JSON.parse(r.content[0]?.text ?? "{}").error.code).toBe("invalid_slug");
      }
    } finally {
      await s.close();
      await rm(project, { recursive: true, force: true });
    }
  });
});
