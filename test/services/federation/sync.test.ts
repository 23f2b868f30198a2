import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GiteaForge } from "../../../src/adapters/gitea/gitea-forge.js";
import type { Backend } from "../../../src/ports/forge.js";
import { readCache, writeCache } from "../../../src/services/federation/projects-cache.js";
import { runSync, syncToCache } from "../../../src/services/federation/sync.js";
import { type FakeGitea, startFakeGitea } from "../../helpers/fake-gitea.js";
import { makeLocalForge, type TestForge } from "../../helpers/make-forge.js";

const sample = `# Tasks

| slug | status | next |
| --- | --- | --- |
| login | in_progress | write test |
| docs | done | — |
| cache | todo | design |
`;
const wikiIndex = "# Wiki Index\n\n## Concepts\n\n- [foo](concepts/foo.md) — Foo\n";
const now = () => new Date("2026-04-30T12:00:00.000Z");

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function local(repos: Parameters<typeof makeLocalForge>[0]): Promise<TestForge> {
  const made = await makeLocalForge(repos);
  cleanups.push(made.cleanup);
  return made;
}

async function fakeGitea(): Promise<{ gitea: FakeGitea; forge: GiteaForge }> {
  const gitea = await startFakeGitea();
  cleanups.push(gitea.close);
  return { gitea, forge: new GiteaForge({ url: gitea.url, token: gitea.token }) };
}

const sync = (forge: Backend, extra: { concurrency?: number; owner?: string } = {}) =>
  runSync({ forge, owner: "alice", syncedFrom: "/forge", machine: "m", now, ...extra });

describe("runSync (seed 001: the 12 sync-runner tests, equivalent form, real git)", () => {
  it("caches a repository's STATUS.md with name, default branch, fetch time and raw text", async () => {
    const { forge } = await local({ a: { ".tasks/STATUS.md": sample } });
    const cache = await sync(forge);
    expect(cache.projects).toEqual([
      {
        name: "a",
        default_branch: "main",
        fetched_at: "2026-04-30T12:00:00.000Z",
        active_tasks: [
          { slug: "login", status: "in_progress", next: "write test" },
          { slug: "cache", status: "todo", next: "design" },
        ],
        all_tasks_count: 3,
        raw: sample,
      },
    ]);
  });

  it("active_tasks leave out done tasks, all_tasks_count counts every row", async () => {
    const board =
      "| slug | status | next |\n|-|-|-|\n| a | done | x |\n| b | done | y |\n| c | blocked | ask |\n";
    const { forge } = await local({ a: { ".tasks/STATUS.md": board } });
    const [project] = (await sync(forge)).projects;
    expect(project?.active_tasks).toEqual([{ slug: "c", status: "blocked", next: "ask" }]);
    expect(project?.all_tasks_count).toBe(3);
  });

  it("sets synced_at, synced_from and machine", async () => {
    const { forge } = await local({});
    const cache = await runSync({
      forge,
      owner: "u",
      syncedFrom: "https://g",
      machine: "laptop",
      now,
    });
    expect(cache).toEqual({
      synced_at: "2026-04-30T12:00:00.000Z",
      synced_from: "https://g",
      machine: "laptop",
      projects: [],
      errors: [],
    });
  });

  it("skips repositories without STATUS.md (and without a wiki)", async () => {
    const { forge } = await local({
      a: { ".tasks/STATUS.md": sample },
      plain: { "README.md": "x" },
    });
    const cache = await sync(forge);
    expect(cache.projects.map((p) => p.name)).toEqual(["a"]);
    expect(cache.errors).toEqual([]);
  });

  it("skips an empty repository (no commit) without an error", async () => {
    const { forge } = await local({ a: { ".tasks/STATUS.md": sample }, empty: {} });
    const cache = await sync(forge);
    expect(cache.projects.map((p) => p.name)).toEqual(["a"]);
    expect(cache.errors).toEqual([]);
  });

  it("reads each repository at its own default branch", async () => {
    const { forge } = await local({
      t: { files: { ".tasks/STATUS.md": sample }, branch: "trunk" },
    });
    const cache = await sync(forge);
    expect(cache.projects[0]).toMatchObject({
      name: "t",
      default_branch: "trunk",
      all_tasks_count: 3,
    });
  });

  it("a STATUS.md without a table gives a project with no tasks", async () => {
    const { forge } = await local({ a: { ".tasks/STATUS.md": "nothing planned\n" } });
    expect((await sync(forge)).projects[0]).toMatchObject({
      active_tasks: [],
      all_tasks_count: 0,
      raw: "nothing planned\n",
    });
  });

  it("records a failing repository in errors and goes on with the others (fake Gitea 500)", async () => {
    const { gitea, forge } = await fakeGitea();
    await gitea.addRepo("a", { ".tasks/STATUS.md": sample });
    await gitea.addRepo("b", { ".tasks/STATUS.md": sample });
    gitea.failWith(500, "/repos/alice/a/raw/.tasks/STATUS.md");
    const cache = await sync(forge);
    expect(cache.projects.map((p) => p.name)).toEqual(["b"]);
    expect(cache.errors).toEqual([{ project: "a", reason: expect.stringContaining("500") }]);
  });

  it("rejects when the repository list cannot be read", async () => {
    const { gitea, forge } = await fakeGitea();
    gitea.failWith(500, "/user/repos");
    await expect(sync(forge)).rejects.toMatchObject({ code: "forge_unavailable" });
  });

  it("keeps the forge's listing order and never reads more than `concurrency` repositories at once", async () => {
    const repos = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [
        `r${String(i).padStart(2, "0")}`,
        { ".tasks/STATUS.md": sample },
      ]),
    );
    const { forge } = await local(repos);
    let inFlight = 0;
    let most = 0;
    // Counts concurrent reads around the real forge (a decorator, not a stand-in).
    const counting: Backend = {
      listUserRepos: () => forge.listUserRepos(),
      getFileWithSha: (...a) => forge.getFileWithSha(...a),
      commitFile: (a) => forge.commitFile(a),
      async getRawFile(...a) {
        inFlight++;
        most = Math.max(most, inFlight);
        try {
          return await forge.getRawFile(...a);
        } finally {
          inFlight--;
        }
      },
    };
    const cache = await sync(counting, { concurrency: 3 });
    expect(cache.projects.map((p) => p.name)).toEqual(Object.keys(repos));
    expect(most).toBeLessThanOrEqual(6); // 3 repositories × 2 files
    expect(most).toBeGreaterThan(1);
  });

  it("an empty forge gives an empty cache", async () => {
    const { forge } = await local({});
    expect((await sync(forge)).projects).toEqual([]);
  });

  it("syncToCache writes cache.json atomically (no temp file left); a failed sync keeps the old cache", async () => {
    const { forge } = await local({ a: { ".tasks/STATUS.md": sample } });
    const dir = await mkdtemp(join(tmpdir(), "lore-cache-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const cacheFile = join(dir, "nested", "cache.json");
    expect(await readCache(cacheFile)).toBeNull();
    const written = await syncToCache({
      forge,
      owner: "u",
      syncedFrom: "/forge",
      machine: "m",
      now,
      cacheFile,
    });
    expect(await readCache(cacheFile)).toEqual(written);
    expect(await readdir(join(dir, "nested"))).toEqual(["cache.json"]);
    const before = await readFile(cacheFile, "utf8");
    const { gitea, forge: broken } = await fakeGitea();
    gitea.failWith(500, "/user/repos");
    await expect(
      syncToCache({ forge: broken, owner: "u", syncedFrom: "g", machine: "m", cacheFile }),
    ).rejects.toThrow();
    expect(await readFile(cacheFile, "utf8")).toBe(before);
    await writeFile(cacheFile, "{ half");
    await expect(readCache(cacheFile)).rejects.toMatchObject({ code: "cache_invalid" });
    await writeCache(cacheFile, written);
    expect(await readCache(cacheFile)).toEqual(written);
  });
});

describe("runSync and .wiki/index.md (seed 001 Task 2.4: the 5 new tests)", () => {
  it("captures wiki_index alongside STATUS.md when both exist", async () => {
    const { forge } = await local({
      a: { ".tasks/STATUS.md": sample, ".wiki/index.md": wikiIndex },
    });
    const cache = await sync(forge);
    expect(cache.projects).toHaveLength(1);
    expect(cache.projects[0]?.wiki_index).toBe(wikiIndex);
  });

  it("captures wiki-only repo (no STATUS.md) into projects list", async () => {
    const { forge } = await local({ "wiki-only": { ".wiki/index.md": wikiIndex } });
    const cache = await sync(forge);
    expect(cache.projects).toHaveLength(1);
    expect(cache.projects[0]?.name).toBe("wiki-only");
    expect(cache.projects[0]?.raw).toBe("");
    expect(cache.projects[0]?.active_tasks).toEqual([]);
    expect(cache.projects[0]?.all_tasks_count).toBe(0);
    expect(cache.projects[0]?.wiki_index).toBe(wikiIndex);
  });

  it("omits wiki_index when .wiki/index.md is absent", async () => {
    const { forge } = await local({ a: { ".tasks/STATUS.md": sample } });
    const cache = await sync(forge);
    expect(cache.projects[0]?.wiki_index).toBeUndefined();
    expect(Object.keys(cache.projects[0] ?? {})).not.toContain("wiki_index");
  });

  it("skips repo when neither STATUS.md nor wiki_index exist", async () => {
    const { forge } = await local({
      a: { ".tasks/STATUS.md": sample },
      empty: { "README.md": "r" },
    });
    const cache = await sync(forge);
    expect(cache.projects.map((p) => p.name)).toEqual(["a"]);
    expect(cache.errors).toEqual([]);
  });

  it("does not record error when wiki_index fetch fails — degrades silently (fake Gitea 500)", async () => {
    const { gitea, forge } = await fakeGitea();
    await gitea.addRepo("a", { ".tasks/STATUS.md": sample, ".wiki/index.md": wikiIndex });
    gitea.failWith(500, "/raw/.wiki/index.md");
    const cache = await sync(forge);
    expect(cache.projects).toHaveLength(1);
    expect(cache.projects[0]?.wiki_index).toBeUndefined();
    expect(cache.errors).toEqual([]);
  });
});
