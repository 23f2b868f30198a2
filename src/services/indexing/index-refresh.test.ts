/**
 * A server's index upkeep on real SQLite files and real git repositories: a cancelled
 * refresh commits nothing and the next call answers normally; an entry needing a mechanism
 * an older version lacked comes alive after the upgrade without its file changing and
 * without a rebuild (seed 004: «после обновления сервера она оживает сама, без пересборки
 * указателя»); two processes' connections refreshing at once do the work once.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../../../test/helpers/make-repo.js";
import { openGitRepo } from "../../adapters/git-cli/git-cli-repo.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import { composeLore } from "../../main/compose.js";
import type { LoreSettings } from "../../main/load-config.js";
import { recall } from "../knowledge/recall.js";
import { indexRepository } from "./index-repo.js";
import { indexTarget } from "./index-target.js";

const K = ".gitriver/knowledge";
const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const entry = (n: number, body: string) =>
  `---\nid: ${id(n)}\ncontract:\n  - mechanism: on_query\n    params:\n      words: ["deploy"]\n---\n\n${body}\n`;

let work: string;
let repo: TestRepo;
const open: EntryIndex[] = [];
const openAt = (file: string, mechanisms?: string[]) => {
  const index = openIndex(file, mechanisms === undefined ? {} : { mechanisms });
  open.push(index);
  return index;
};
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), "lore-refresh-"));
});
afterEach(async () => {
  for (const index of open.splice(0)) index.close();
  await repo?.cleanup();
  await rm(work, { recursive: true, force: true });
});
const deps = (index: EntryIndex) => ({
  index,
  lang: "en" as const,
  log: () => {},
  openRepo: (dir: string) => openGitRepo(dir),
});
const hitIds = (index: EntryIndex, query: { query?: string; tool?: string }) =>
  recall(index, { ...query, user: "t" })
    .hits.map((hit) => hit.id)
    .sort();

describe("cancelling an index refresh", () => {
  it("commits nothing, leaves the previous index readable, and the next run answers normally", async () => {
    repo = await makeRepo({ [`${K}/first.md`]: entry(1, "The first deploy note.") });
    const file = join(work, "index.db");
    const reader = openAt(file);
    await indexTarget(deps(reader), repo.dir);
    const files: Record<string, string> = {};
    for (let n = 2; n <= 300; n++) files[`${K}/e${n}.md`] = entry(n, `Deploy note ${n}.`);
    await repo.commit(files);

    const writer = openAt(file);
    expect(writer.tryBeginWrite()).toBe(true);
    const controller = new AbortController();
    const run = indexTarget(deps(writer), repo.dir, {
      signal: controller.signal,
      // Cancel once the first batch is written inside the transaction.
      onProgress: (p) => {
        if (p.done > 0) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
    writer.rollbackWrite();
    expect(hitIds(reader, { query: "deploy" })).toEqual([id(1)]);
    expect(reader.repository(reader.repositoriesAt(repo.dir)[0]?.repo ?? "")?.commit).toBe(
      repo.initial,
    );

    expect(writer.tryBeginWrite()).toBe(true);
    const next = await indexTarget(deps(writer), repo.dir);
    writer.commitWrite();
    expect(next).toMatchObject({ added: 299, skipped: 0 });
    expect(reader.entryCount()).toBe(300);
  });

  it("through the served index: a cancelled fresh() commits nothing, the next one sees HEAD", async () => {
    repo = await makeRepo({ [`${K}/first.md`]: entry(1, "The first deploy note.") });
    const settings: LoreSettings = {
      configPath: null,
      user: "t",
      lang: "en",
      database: join(work, "served.db"),
      repos: [],
      server: {
        host: "127.0.0.1",
        port: 0,
        data: join(tmpdir(), "lore-server-unused"),
        sshPort: 0,
      },
    };
    const lore = await composeLore(settings);
    try {
      const served = lore.serveIndex([repo.dir]);
      await served.ready;
      await served.fresh();
      await repo.commit({ [`${K}/second.md`]: entry(2, "The second deploy note.") });
      const controller = new AbortController();
      controller.abort();
      await expect(served.fresh(controller.signal)).rejects.toMatchObject({ name: "AbortError" });
      const before = lore.recall({ query: "deploy" }).hits.map((h) => h.id);
      expect(before).toEqual([id(1)]);
      await served.fresh();
      expect(
        lore
          .recall({ query: "deploy" })
          .hits.map((h) => h.id)
          .sort(),
      ).toEqual([id(1), id(2)]);
    } finally {
      await lore.close();
    }
  });
});

describe("an upgrade that knows a mechanism", () => {
  it("makes the entry reachable by itself: same file, no rebuild", async () => {
    const tool = `---\nid: ${id(5)}\ncontract:\n  - mechanism: on_tool\n    params:\n      name: run_migration\n---\n\nRun migrations with a lock timeout.\n`;
    repo = await makeRepo({ [`${K}/tool.md`]: tool, [`${K}/q.md`]: entry(6, "Deploy.") });
    const file = join(work, "index.db");
    // The older version knew only on_query.
    const old = openAt(file, ["on_query"]);
    const git = await openGitRepo(repo.dir);
    try {
      const report = await indexRepository({
        index: old,
        repo: git,
        repoName: "acme/app",
        mechanisms: ["on_query"],
      });
      expect(report.lines.join("\n")).toContain("on_tool");
    } finally {
      await git.close();
    }
    expect(old.getEntry(id(5))).toMatchObject({ reachable: false, unmetMechanisms: ["on_tool"] });
    expect(hitIds(old, { tool: "run_migration" })).toEqual([]);
    old.close();
    open.splice(open.indexOf(old), 1);

    // The upgrade opens the same file: nothing is indexed again.
    const upgraded = openAt(file);
    expect(upgraded.getEntry(id(5))).toMatchObject({ reachable: true, unmetMechanisms: [] });
    expect(upgraded.getEntry(id(5))?.diagnostics.map((d) => d.code)).not.toContain(
      "unknown_mechanism",
    );
    expect(hitIds(upgraded, { tool: "run_migration" })).toEqual([id(5)]);
    expect(hitIds(upgraded, { query: "deploy" })).toEqual([id(6)]);
    // Opening again with the same set does nothing.
    expect(upgraded.reevaluate()).toBe(0);
  });
});

describe("two connections refreshing at once", () => {
  it("the second waits for the lock, then finds the commit current", async () => {
    repo = await makeRepo({ [`${K}/a.md`]: entry(1, "Deploy a.") });
    const file = join(work, "index.db");
    const one = openAt(file);
    const two = openAt(file);
    expect(one.tryBeginWrite()).toBe(true);
    expect(two.tryBeginWrite()).toBe(false);
    const first = await indexTarget(deps(one), repo.dir, { skipWhenCurrent: true });
    one.commitWrite();
    expect(first.current).toBe(false);
    expect(two.tryBeginWrite()).toBe(true);
    const second = await indexTarget(deps(two), repo.dir, { skipWhenCurrent: true });
    two.commitWrite();
    expect(second).toMatchObject({ current: true, read: 0 });
  });
});

describe("usage counters while a refresh holds the write lock", () => {
  it("are kept and written with the next ones: a read never fails or waits", () => {
    const file = join(work, "index.db");
    const reader = openAt(file);
    const writer = openAt(file);
    expect(writer.tryBeginWrite()).toBe(true);
    // Without the buffer these writes would fail with SQLITE_BUSY after the busy timeout.
    reader.countShown(
      "u",
      [id(1)].map((id: string) => ({ repo: "acme/app", id })),
      1_000,
    );
    reader.countRead("u", { repo: "acme/app", id: id(1) }, 2_000);
    expect(reader.stats("u")).toEqual([]);
    writer.rollbackWrite();
    reader.countShown(
      "u",
      [id(1)].map((id: string) => ({ repo: "acme/app", id })),
      3_000,
    );
    expect(reader.stats("u")).toMatchObject([{ entryId: id(1), shown: 2, read: 1 }]);
  });
});
