import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openGitRepo } from "../../../src/adapters/git-cli/git-cli-repo.js";
import { stemToken } from "../../../src/core/text/stem.js";
import { openIndex } from "../../../src/index/entry-index.js";
import type { GitRepo } from "../../../src/ports/git-repo.js";
import { indexFolder } from "../../../src/services/indexing/index-folder.js";
import type { IndexProgress, IndexReport } from "../../../src/services/indexing/index-knowledge.js";
import { indexRepository } from "../../../src/services/indexing/index-repo.js";
import { makeRepo, type RepoFiles, type TestRepo } from "../../helpers/make-repo.js";

const K = ".gitriver/knowledge";
const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const entry = (n: number, body = `Entry number ${n} about deploys.`) =>
  `---\nid: ${id(n)}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [deploy]\n---\n\n${body}\n`;

type Index = ReturnType<typeof openIndex>;

// Every case runs with parsing and analysis in this thread and in the worker thread
// (`dist/services/indexing/index-worker.js`, built by the global setup): the results must be equal.
describe.each(["inline", "worker"] as const)("indexRepository (analysis: %s)", (analysis) => {
  let work: string;
  let repo: TestRepo;
  let git: GitRepo;
  let index: Index;
  let dbFile: string;
  const progress: IndexProgress[] = [];

  const setUp = async (files: RepoFiles) => {
    repo = await makeRepo(files);
    git = await openGitRepo(repo.dir);
  };
  const run = (commit?: string): Promise<IndexReport> =>
    indexRepository({
      index,
      repo: git,
      repoName: "acme/app",
      analysis,
      ...(commit === undefined ? {} : { commit }),
      onProgress: (p) => progress.push(p),
    });
  /** Everything the index holds for the repository, in a comparable shape. */
  const snapshot = (ids: number[]) => ({
    files: [...index.listFiles("acme/app")].sort(),
    owners: [...index.idOwners("acme/app", ids.map(id))].sort(),
    reports: [...index.fileReports("acme/app")]
      .filter((r) => r.diagnostics.length > 0)
      .map((r) => [r.path, r.diagnostics.map((d) => d.code)])
      .sort(),
  });

  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), "lore-index-"));
    dbFile = join(work, "index.db");
    index = openIndex(dbFile);
    progress.length = 0;
  });
  afterEach(async () => {
    index.close();
    await git?.close();
    await repo?.cleanup();
    await rm(work, { recursive: true, force: true });
  });

  it("indexes every entry file at HEAD, then reads nothing when nothing changed", async () => {
    await setUp({
      [`${K}/a.md`]: entry(1),
      [`${K}/sub/b.md`]: entry(2),
      [`${K}/notes.txt`]: "not an entry",
      "README.md": "outside the knowledge folder",
    });
    const first = await run();
    expect(first).toMatchObject({ commit: repo.initial, added: 2, read: 2, skipped: 0 });
    expect([...index.idOwners("acme/app", [id(1), id(2)])]).toEqual([
      [id(1), { repo: "acme/app", path: `${K}/a.md` }],
      [id(2), { repo: "acme/app", path: `${K}/sub/b.md` }],
    ]);
    progress.length = 0;
    const again = await run();
    expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 2, read: 0 });
    expect(progress.at(-1)).toMatchObject({ done: 0, total: 0, bytes: 0 });
  });

  it("re-reads only changed blobs, drops deleted files, keeps the id across a rename", async () => {
    await setUp({ [`${K}/a.md`]: entry(1), [`${K}/b.md`]: entry(2), [`${K}/c.md`]: entry(3) });
    await run();
    await repo.commit({ [`${K}/b.md`]: entry(2, "Changed text about deploys.") });
    const changed = await run();
    expect(changed).toMatchObject({ updated: 1, unchanged: 2, read: 1 });
    expect(progress.at(-1)).toMatchObject({ done: 1, total: 1 });

    await repo.remove([`${K}/c.md`]);
    const removed = await run();
    expect(removed).toMatchObject({ removed: 1, read: 0 });
    expect(index.idOwners("acme/app", [id(3)]).size).toBe(0);
    expect(index.listFiles("acme/app").has(`${K}/c.md`)).toBe(false);

    await repo.rename(`${K}/a.md`, `${K}/moved/a-renamed.md`);
    const renamed = await run();
    expect(renamed).toMatchObject({ added: 1, removed: 1, skipped: 0, read: 1 });
    expect(renamed.diagnostics.filter((d) => d.code === "duplicate_id")).toEqual([]);
    expect(index.idOwners("acme/app", [id(1)]).get(id(1))?.path).toBe(`${K}/moved/a-renamed.md`);
  });

  it("skips the second file holding an id with duplicate_id; the first by path wins", async () => {
    await setUp({ [`${K}/a.md`]: entry(1), [`${K}/b.md`]: entry(2) });
    await run();
    await repo.commit({ [`${K}/z-copy.md`]: entry(1, "A copy of a.") });
    const copy = await run();
    expect(copy.skipped).toBe(1);
    expect(copy.diagnostics).toEqual([
      expect.objectContaining({
        code: "duplicate_id",
        path: `${K}/z-copy.md`,
        params: { id: id(1), other: `${K}/a.md` },
      }),
    ]);
    expect(copy.lines.join("\n")).toContain(`${K}/z-copy.md`);
    expect(index.idOwners("acme/app", [id(1)]).get(id(1))?.path).toBe(`${K}/a.md`);

    // A copy earlier in path order (copying an entry to start a new one) is the newcomer:
    // the file that held the id at the previous commit keeps it, the copy is reported.
    await repo.commit({ [`${K}/0-first.md`]: entry(1, "A copy to start a new entry.") });
    const earlier = await run();
    expect(index.idOwners("acme/app", [id(1)]).get(id(1))?.path).toBe(`${K}/a.md`);
    expect(earlier.diagnostics.map((d) => [d.path, d.code])).toEqual([
      [`${K}/0-first.md`, "duplicate_id"],
      [`${K}/z-copy.md`, "duplicate_id"],
    ]);
    expect(earlier).toMatchObject({ added: 0, skipped: 2 });

    // Deleting the holder frees the id: among files with no history, byte order decides.
    await repo.remove([`${K}/a.md`]);
    await run();
    expect(index.idOwners("acme/app", [id(1)]).get(id(1))?.path).toBe(`${K}/0-first.md`);
    expect(snapshot([1, 2]).reports).toEqual([[`${K}/z-copy.md`, ["duplicate_id"]]]);
    const incremental = snapshot([1, 2]);

    // With no history, a fresh index of the same commit decides the same way.
    const fresh = openIndex(join(work, "fresh.db"));
    try {
      const before = index;
      index = fresh;
      await run();
      expect(snapshot([1, 2])).toEqual(incremental);
      index = before;
    } finally {
      fresh.close();
    }
  });

  it("lets two files swap ids in one commit", async () => {
    await setUp({ [`${K}/a.md`]: entry(1), [`${K}/b.md`]: entry(2) });
    await run();
    await repo.commit({ [`${K}/a.md`]: entry(2, "Now two."), [`${K}/b.md`]: entry(1, "Now one.") });
    const swapped = await run();
    expect(swapped).toMatchObject({ updated: 2, skipped: 0, diagnostics: [] });
    expect([...index.idOwners("acme/app", [id(1), id(2)])].sort()).toEqual([
      [id(1), { repo: "acme/app", path: `${K}/b.md` }],
      [id(2), { repo: "acme/app", path: `${K}/a.md` }],
    ]);
  });

  it("keeps an id held by another repository beside it, reporting the clash on every run", async () => {
    await setUp({ [`${K}/a.md`]: entry(1) });
    await indexRepository({ index, repo: git, repoName: "other/repo" });
    for (let runs = 0; runs < 2; runs++) {
      const report = await run();
      expect(report.diagnostics).toEqual([
        expect.objectContaining({
          code: "id_clash",
          params: { id: id(1), other: `other/repo:${K}/a.md` },
        }),
      ]);
      expect(report).toMatchObject({ skipped: 0 });
    }
    expect(index.idOwners("other/repo", [id(1)]).get(id(1))?.repo).toBe("other/repo");
    expect(index.idOwners("acme/app", [id(1)]).get(id(1))?.repo).toBe("acme/app");
  });

  it("case 3: a frontmatter `**Team letterhead**` is skipped with path, line and reason; the next push goes through", async () => {
    const bad = `${K}/letterhead.md`;
    await setUp({
      [`${K}/a.md`]: entry(1),
      [bad]: "---\n**Team letterhead**\n---\n\nOur team.\n",
      [`${K}/b.md`]: entry(2),
    });
    const report = await run();
    expect(report).toMatchObject({ added: 2, skipped: 1 });
    expect([...index.idOwners("acme/app", [id(1), id(2)]).keys()].sort()).toEqual([id(1), id(2)]);
    const [diagnostic] = report.diagnostics;
    expect(report.diagnostics).toHaveLength(1);
    expect(diagnostic).toMatchObject({
      path: bad,
      line: 2,
      code: "yaml_syntax",
      severity: "error",
    });
    expect(report.lines).toHaveLength(1);
    expect(report.lines[0]).toMatch(
      /^\.gitriver\/knowledge\/letterhead\.md:2:\d+: YAML error: .*alias/,
    );
    expect(report.lines[0]).toMatch(/\[yaml_syntax\]$/);
    expect(index.listFiles("acme/app").has(bad)).toBe(true);

    // The next push: another entry arrives and the bad file is fixed.
    await repo.commit({ [bad]: entry(3, "Our team letterhead."), [`${K}/c.md`]: entry(4) });
    const next = await run();
    expect(next).toMatchObject({ added: 1, updated: 1, skipped: 0, read: 2 });
    expect(next.diagnostics).toEqual([]);
    expect(index.idOwners("acme/app", [id(3), id(4)]).size).toBe(2);
  });

  it("gives the same index after the database is deleted and rebuilt", async () => {
    await setUp({
      [`${K}/a.md`]: entry(1),
      [`${K}/b.md`]: entry(2),
      [`${K}/bad.md`]: "---\nid: nope\n---\n\nBody.\n",
      [`${K}/dup.md`]: entry(1, "Duplicate."),
    });
    await run();
    await repo.commit({ [`${K}/b.md`]: entry(2, "New text.") });
    await repo.remove([`${K}/a.md`]);
    await run();
    const incremental = snapshot([1, 2]);
    index.close();
    await rm(dbFile);
    await rm(`${dbFile}-wal`, { force: true });
    await rm(`${dbFile}-shm`, { force: true });
    index = openIndex(dbFile);
    await run();
    expect(snapshot([1, 2])).toEqual(incremental);
    expect(incremental.owners).toEqual([
      [id(1), { repo: "acme/app", path: `${K}/dup.md` }],
      [id(2), { repo: "acme/app", path: `${K}/b.md` }],
    ]);
  });

  it("after any sequence of commits, the incremental index equals a fresh one", async () => {
    let seed = 20240105;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const names = ["a.md", "b.md", "c/d.md", "c/e.md", "f.md", "z.md"].map((n) => `${K}/${n}`);
    const present = new Set<string>();
    const content = () =>
      random(5) === 0
        ? "---\nid: [broken\n---\n\nBody.\n"
        : entry(1 + random(3), `v${random(1000)}`);
    await setUp({ [names[0] as string]: entry(1) });
    present.add(names[0] as string);
    await run();
    for (let step = 0; step < 14; step++) {
      const name = names[random(names.length)] as string;
      const op = random(4);
      if (op === 0 && present.has(name) && present.size > 1) {
        await repo.remove([name]);
        present.delete(name);
      } else if (op === 1 && present.has(name)) {
        const to = names.find((n) => !present.has(n));
        if (to === undefined) continue;
        await repo.rename(name, to);
        present.delete(name);
        present.add(to);
      } else {
        const more: RepoFiles = { [name]: content() };
        const other = names[random(names.length)] as string;
        more[other] = content();
        await repo.commit(more);
        present.add(name);
        present.add(other);
      }
      await run();
      const incremental = snapshot([1, 2, 3]);
      const fresh = openIndex(":memory:");
      const before = index;
      try {
        index = fresh;
        await run();
        expect(snapshot([1, 2, 3]), `step ${step}`).toEqual(incremental);
      } finally {
        index = before;
        fresh.close();
      }
    }
  });

  it("cuts batches at 10 MB and drops no file; skips files over 64 KB unread", async () => {
    const files: RepoFiles = {};
    const filler = `A large entry.\n\n${"deploy words ".repeat(4700)}`; // ~61 KB
    for (let n = 1; n <= 180; n++) files[`${K}/big-${n}.md`] = entry(n, filler);
    files[`${K}/huge.md`] = entry(999, "x".repeat(70 * 1024));
    await setUp(files);
    const report = await run();
    expect(report).toMatchObject({ added: 180, skipped: 1, read: 180 });
    expect(report.diagnostics.map((d) => [d.path, d.code])).toEqual([
      [`${K}/huge.md`, "file_too_large"],
    ]);
    expect(
      index.idOwners(
        "acme/app",
        Array.from({ length: 180 }, (_, i) => id(i + 1)),
      ).size,
    ).toBe(180);
    // More than one batch: progress was reported between batches.
    expect(progress.filter((p) => p.done > 0 && p.done < 181).length).toBeGreaterThan(0);
  });
});

describe("indexFolder", () => {
  let dir: string;
  let index: Index;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "lore-folder-"));
    index = openIndex(join(dir, "index.db"));
  });
  afterEach(async () => {
    index.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("indexes a plain folder with git's blob shas, follows no link, and is incremental", async () => {
    const repo = await makeRepo({ [`${K}/a.md`]: entry(1), [`${K}/sub/b.md`]: entry(2) });
    try {
      const git = await openGitRepo(repo.dir);
      const gitIndex = openIndex(join(dir, "git.db"));
      await indexRepository({ index: gitIndex, repo: git, repoName: "r" });
      const gitFiles = [...gitIndex.listFiles("r")];
      gitIndex.close();
      await git.close();
      const outside = join(dir, "outside.md");
      await writeFile(outside, entry(7));
      await symlink(outside, join(repo.dir, K, "link.md"));
      const report = await indexFolder({ index, dir: repo.dir, repoName: "r" });
      expect(report).toMatchObject({ commit: null, added: 2, read: 2 });
      // Same shas as git: the same incremental logic applies.
      expect([...index.listFiles("r")]).toEqual(gitFiles);
      const again = await indexFolder({ index, dir: repo.dir, repoName: "r" });
      expect(again).toMatchObject({ unchanged: 2, read: 0 });
      await writeFile(join(repo.dir, K, "sub/b.md"), entry(3));
      const changed = await indexFolder({ index, dir: repo.dir, repoName: "r" });
      expect(changed).toMatchObject({ updated: 1, read: 1 });
    } finally {
      await repo.cleanup();
    }
  });

  it("refuses a folder without .gitriver/knowledge/", async () => {
    await expect(indexFolder({ index, dir, repoName: "x" })).rejects.toMatchObject({
      code: "not_a_repository",
    });
    await expect(
      indexFolder({ index, dir: join(dir, "nope"), repoName: "x" }),
    ).rejects.toMatchObject({ code: "path_not_found" });
  });
});

describe("indexRepository: where files are analysed", () => {
  /** Every row of every table of the index file (FTS5's own tables included), in rowid order. */
  const rows = (index: Index) =>
    index.withDatabase((db) => {
      const tables = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
        )
        .pluck()
        .all() as string[];
      return Object.fromEntries(
        tables.map((table) => [table, db.prepare(`SELECT * FROM "${table}"`).raw().all()]),
      );
    });

  it("writes the same rows, stems included, whether files are analysed here or in the worker", async () => {
    const files: RepoFiles = { [`${K}/bad.md`]: "---\nid: [broken\n---\n\nBody.\n" };
    for (let n = 1; n <= 40; n++) {
      files[`${K}/e${n}.md`] = entry(n, `Запись ${n}: как откатить деплой, tokens ${n * 7} ёжик.`);
    }
    const repo = await makeRepo(files);
    const work = await mkdtemp(join(tmpdir(), "lore-index-"));
    try {
      const built: Record<string, unknown>[] = [];
      for (const analysis of ["inline", "worker"] as const) {
        const git = await openGitRepo(repo.dir);
        const index = openIndex(join(work, `${analysis}.db`), { now: () => 1_700_000_000_000 });
        try {
          const report = await indexRepository({ index, repo: git, repoName: "r", analysis });
          expect(report).toMatchObject({ added: 40, skipped: 1 });
          built.push(rows(index));
        } finally {
          index.close();
          await git.close();
        }
      }
      const [inline, worker] = built as [Record<string, unknown[]>, Record<string, unknown[]>];
      const { stems: inlineStems = [], ...inlineRest } = inline;
      const { stems: workerStems = [], ...workerRest } = worker;
      expect(workerRest).toEqual(inlineRest);
      // The memo of stems: the worker's analysis fills it as the index's own does. This
      // thread skips the words its own memo held before the run (stemmed by earlier tests);
      // the worker, fresh, keeps those too — every pair a stem of this version.
      expect(inlineStems.length).toBeGreaterThan(10);
      expect(workerStems).toEqual(expect.arrayContaining(inlineStems));
      for (const [token, stem] of workerStems as [string, string][]) {
        expect(stemToken(token)).toBe(stem);
      }
    } finally {
      await repo.cleanup();
      await rm(work, { recursive: true, force: true });
    }
  });
});
