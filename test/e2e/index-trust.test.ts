/**
 * An index you can see and trust, through the built CLI and the MCP SDK's client: `lore
 * repos` / `forget`, `recall --repo`, repository identity (moved, cloned twice), the
 * duplicate-id rule (previous holder keeps it; byte order without history, the same in
 * `check` and `index`), entry files that differ from HEAD and `--worktree`, summary counts
 * and wrong files reported on every run, `get` printing the stored bytes, a read-only
 * root's note never shadowing a team entry, and `lore mcp` seeing a new commit.
 */

import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { makeRepo } from "../helpers/make-repo.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";
import { startServe } from "./serve-lore.js";

const K = ".gitriver/knowledge";
const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const entry = (n: number, body = `Entry number ${n} about deploys.`, words = ["deploy"]) =>
  `---\nid: ${id(n)}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [${words.map((w) => `"${w}"`).join(", ")}]\n---\n\n${body}\n`;

let sandbox: ReturnType<typeof isolatedEnv>;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(() => {
  sandbox = isolatedEnv();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  sandbox.cleanup();
});
const lore = (args: string[], cwd = sandbox.dir) => runLore(args, { cwd, env: sandbox.env });
const repoOf = async (files: Record<string, string>) => {
  const repo = await makeRepo(files);
  cleanups.push(() => repo.cleanup());
  return repo;
};
const reposJson = async () =>
  (JSON.parse((await lore(["repos", "--json"])).stdout) as { repos: Record<string, unknown>[] })
    .repos;

describe("lore repos, forget, recall --repo", () => {
  it("lists each repository, filters recall by it, prints each hit's repository, forgets it", async () => {
    const a = await repoOf({ [`${K}/a.md`]: entry(1, "Alpha deploy notes.") });
    const b = await repoOf({ [`${K}/b.md`]: entry(2, "Beta deploy notes.") });
    await a.git(["remote", "add", "origin", "git@github.com:Acme/Alpha.git"]);
    expect((await lore(["index", a.dir])).code).toBe(0);
    expect((await lore(["index", b.dir])).code).toBe(0);
    const repos = await reposJson();
    expect(repos).toEqual([
      {
        repo: `commit:${b.initial}`,
        path: b.dir,
        kind: "git",
        commit: b.initial,
        entries: 1,
        skipped: 0,
        drafts: 0,
        indexed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      {
        repo: "github.com/acme/alpha",
        path: a.dir,
        kind: "git",
        commit: a.initial,
        entries: 1,
        skipped: 0,
        drafts: 0,
        indexed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    const text = await lore(["repos"]);
    expect(text.stdout).toContain("github.com/acme/alpha  git  commit");
    expect(text.stdout).toContain("1 entry, 0 skipped, 0 drafts");

    const both = await lore(["recall", "deploy"]);
    expect(both.stdout).toContain(`${id(1)}  entry github.com/acme/alpha  ${K}/a.md`);
    expect(both.stdout).toContain(`${id(2)}  entry commit:${b.initial}  ${K}/b.md`);
    const onlyA = JSON.parse((await lore(["recall", "deploy", "--repo", a.dir, "--json"])).stdout);
    expect(onlyA.hits.map((h: { id: string }) => h.id)).toEqual([id(1)]);
    const byName = JSON.parse(
      (await lore(["recall", "deploy", "--repo", "github.com/acme/alpha", "--json"])).stdout,
    );
    expect(byName.hits.map((h: { repo: string }) => h.repo)).toEqual(["github.com/acme/alpha"]);
    const unknown = await lore(["recall", "deploy", "--repo", "nowhere/else"]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain("[repo_not_indexed]");

    const forgot = await lore(["forget", "github.com/acme/alpha"]);
    expect(forgot.stdout.trim()).toBe("github.com/acme/alpha: dropped from the index (1 file)");
    const after = JSON.parse((await lore(["recall", "deploy", "--json"])).stdout);
    expect(after.hits.map((h: { id: string }) => h.id)).toEqual([id(2)]);
    expect((await lore(["forget", "github.com/acme/alpha"])).code).toBe(3);
  });

  it("drops the entries of a deleted repository and of a root removed from the config", async () => {
    const a = await repoOf({ [`${K}/a.md`]: entry(1, "Alpha deploy notes.") });
    const gone = await repoOf({ [`${K}/g.md`]: entry(2, "Gone deploy notes.") });
    const root = join(sandbox.dir, "group");
    await mkdir(join(root, "knowledge"), { recursive: true });
    await writeFile(join(root, "knowledge", "note.md"), "Group deploy checklist.\n");
    await mkdir(join(sandbox.dir, "cfg"), { recursive: true });
    const config = join(sandbox.dir, "cfg", "lore.toml");
    await writeFile(config, `[[knowledge.read_only]]\nid = "group"\npath = '${root}'\n`);
    await lore(["index", a.dir]);
    await lore(["index", gone.dir]);
    const ids = async (args: string[] = []) =>
      (
        JSON.parse((await lore(["recall", "deploy", "--json", ...args])).stdout).hits as {
          id: string;
        }[]
      ).map((h) => h.id);
    expect(await ids(["--config", config])).toEqual([id(1), id(2), "note:group:note.md"]);
    await rm(gone.dir, { recursive: true, force: true });
    expect(await ids(["--config", config])).toEqual([id(1), "note:group:note.md"]);
    // The root is no longer configured: its notes drop out too.
    expect(await ids()).toEqual([id(1)]);
    expect((await reposJson()).map((r) => r.repo)).toEqual([`commit:${a.initial}`]);
  });
});

describe("repository identity", () => {
  it("a moved repository and a second clone are one repository, never duplicate_id", async () => {
    const a = await repoOf({ [`${K}/a.md`]: entry(1), [`${K}/b.md`]: entry(2) });
    await lore(["index", a.dir]);
    const moved = `${a.dir}-moved`;
    await rename(a.dir, moved);
    cleanups.push(() => rm(moved, { recursive: true, force: true }));
    const again = await lore(["index", moved]);
    expect(again.stdout).toContain("0 added, 0 updated, 0 removed, 2 unchanged, 0 skipped");
    expect((await reposJson()).map((r) => [r.path, r.entries])).toEqual([[moved, 2]]);

    const clone = `${a.dir}-clone`;
    await runGit({ cwd: moved, args: ["clone", "-q", moved, clone] });
    cleanups.push(() => rm(clone, { recursive: true, force: true }));
    // The clone's origin is the first copy; give both the same remote, as two clones of
    // one forge repository have.
    await runGit({ cwd: moved, args: ["remote", "add", "origin", "https://git.example.com/t/kb"] });
    await runGit({
      cwd: clone,
      args: ["remote", "set-url", "origin", "git@git.example.com:t/kb.git"],
    });
    await lore(["index", moved]);
    const second = await lore(["index", clone]);
    expect(second.stdout).not.toContain("duplicate_id");
    expect(second.stdout).toContain("0 skipped");
    expect((await reposJson()).map((r) => [r.repo, r.path, r.entries])).toEqual([
      ["git.example.com/t/kb", clone, 2],
    ]);
    const hits = JSON.parse((await lore(["recall", "deploy", "--json"])).stdout).hits;
    expect(hits).toHaveLength(2);
  });
});

describe("repository identity, the first commit", () => {
  it("a repository indexed before its first commit and after it is one repository, no id_clash", async () => {
    const repo = await repoOf({});
    await mkdir(join(repo.dir, K), { recursive: true });
    await writeFile(join(repo.dir, K, "a.md"), entry(1));
    await writeFile(join(repo.dir, K, "b.md"), entry(2));
    const before = await lore(["index", repo.dir]);
    expect(before.stderr).toContain("has no commit yet");
    expect(before.stdout).toContain("2 added");
    await runGit({ cwd: repo.dir, args: ["add", "-A"] });
    await runGit({
      cwd: repo.dir,
      args: ["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "first"],
    });
    const after = await lore(["index", repo.dir]);
    expect(after.stdout).not.toContain("id_clash");
    expect(after.stdout).toContain("2 added, 0 updated, 0 removed, 0 unchanged, 0 skipped");
    const repos = await reposJson();
    expect(repos.map((r) => [r.path, r.entries])).toEqual([[repo.dir, 2]]);
    expect(repos[0]?.repo).toMatch(/^commit:[0-9a-f]{40}$/);
  });
});

describe("duplicate ids", () => {
  it("byte order of paths decides without history, the same in lore check and lore index", async () => {
    // U+FF21 (UTF-8 EF BC A1) sorts before U+1F600 (F0 9F 98 80) in bytes, after it in UTF-16.
    const wide = `${K}/\uFF21.md`;
    const emoji = `${K}/\u{1F600}.md`;
    const repo = await repoOf({ [wide]: entry(1, "Wide."), [emoji]: entry(1, "Emoji.") });
    const check = await lore(["check", "--json"], repo.dir);
    const checked = JSON.parse(check.stdout) as { diagnostics: { path: string; code: string }[] };
    const dup = checked.diagnostics.filter((d) => d.code === "duplicate_id");
    expect(dup).toHaveLength(1);
    expect(dup[0]?.path.endsWith("\u{1F600}.md")).toBe(true);
    const indexed = JSON.parse((await lore(["index", repo.dir, "--json"])).stdout);
    expect(
      indexed.diagnostics
        .filter((d: { code: string }) => d.code === "duplicate_id")
        .map((d: { path: string }) => d.path),
    ).toEqual([emoji]);
  });

  it("a copy made to start a new entry is reported; the untouched original keeps its id", async () => {
    const repo = await repoOf({ [`${K}/rollback.md`]: entry(1, "The original.") });
    await lore(["index", repo.dir]);
    await repo.commit({ [`${K}/a-new-entry.md`]: entry(1, "Copied to start a new one.") });
    const run = await lore(["index", repo.dir]);
    expect(run.stdout).toContain(`${K}/a-new-entry.md`);
    expect(run.stdout).toContain("[duplicate_id]");
    expect(run.stdout).not.toMatch(/^\.gitriver\/knowledge\/rollback\.md:/m);
    const got = await lore(["get", id(1)]);
    expect(got.stdout).toContain("The original.");
  });
});

describe("lore index", () => {
  it("counts right and reports a wrong file on every run until it is fixed", async () => {
    const files: Record<string, string> = {};
    for (let n = 1; n <= 5; n++) files[`${K}/e${n}.md`] = entry(n);
    files[`${K}/wrong.md`] = "---\nid: not-a-uuid\n---\n\nBody.\n";
    const repo = await repoOf(files);
    const first = await lore(["index", repo.dir]);
    expect(first.stdout).toContain("5 added, 0 updated, 0 removed, 0 unchanged, 1 skipped");
    expect(first.stdout).toContain(`${K}/wrong.md`);
    const second = await lore(["index", repo.dir]);
    expect(second.stdout).toContain(`${K}/wrong.md`);
    expect(second.stdout).toContain("[invalid_id]");
    expect(second.stdout).toContain("0 added, 0 updated, 0 removed, 5 unchanged, 1 skipped");
    await repo.commit({ [`${K}/wrong.md`]: entry(6) });
    const fixed = await lore(["index", repo.dir]);
    expect(fixed.stdout).not.toContain("wrong.md:");
    expect(fixed.stdout).toContain("0 added, 1 updated, 0 removed, 5 unchanged, 0 skipped");
  });

  it("says which entry files differ from HEAD; --worktree indexes the working files", async () => {
    const repo = await repoOf({ [`${K}/a.md`]: entry(1, "Committed.") });
    await writeFile(join(repo.dir, K, "a.md"), entry(1, "Edited, not committed."));
    await writeFile(join(repo.dir, K, "b.md"), entry(2, "New, not committed."));
    const run = await lore(["index", repo.dir]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `lore: 2 entry files differ from HEAD and were not indexed: ${K}/a.md, ${K}/b.md — commit them, or --worktree`,
    );
    expect((await lore(["get", id(1)])).stdout).toContain("Committed.");
    const worktree = await lore(["index", repo.dir, "--worktree"]);
    expect(worktree.code).toBe(0);
    expect(worktree.stderr).not.toContain("differ from HEAD");
    expect((await lore(["get", id(1)])).stdout).toContain("Edited, not committed.");
    expect((await lore(["get", id(2)])).stdout).toContain("New, not committed.");
  });
});

describe("lore get", () => {
  it("prints the file's bytes as stored at the indexed commit", async () => {
    const text = `---\nid: '${id(7)}'\nsummary: "A summary, quoted"\n---\n\nBody with 'quotes'.\n\nSecond paragraph.\n`;
    const repo = await repoOf({ [`${K}/q.md`]: text });
    await lore(["index", repo.dir]);
    // The work tree changes afterwards; the indexed commit's bytes are printed.
    await writeFile(join(repo.dir, K, "q.md"), "changed\n");
    const got = await lore(["get", id(7)]);
    expect(got.code).toBe(0);
    expect(got.stdout).toBe(text);
  });
});

describe("sources never shadow each other", () => {
  it("a read-only root's note holding a team entry's id is kept beside it; the clash is reported", async () => {
    const team = await repoOf({
      [`${K}/deploy.md`]: entry(1, "Team: deploy with the release train.", ["deploy"]),
    });
    const root = join(sandbox.dir, "group");
    await mkdir(join(root, "knowledge"), { recursive: true });
    await writeFile(
      join(root, "knowledge", "copy.md"),
      entry(1, "Group note: deploy by hand.", ["deploy"]),
    );
    await mkdir(join(sandbox.dir, "cfg"), { recursive: true });
    const config = join(sandbox.dir, "cfg", "lore.toml");
    await writeFile(config, `[[knowledge.read_only]]\nid = "group"\npath = '${root}'\n`);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--repo", team.dir, "--config", config],
      env: sandbox.env,
      cwd: sandbox.dir,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    try {
      const answer = await client.callTool({
        name: "knowledge_recall",
        arguments: { query: "deploy" },
      });
      const hits = (
        answer.structuredContent as { hits: { id: string; repo: string; summary: string }[] }
      ).hits;
      expect(hits.map((h) => [h.id, h.repo]).sort()).toEqual(
        [
          [id(1), `commit:${team.initial}`],
          [id(1), "root:group"],
        ].sort(),
      );
      expect(hits.map((h) => h.summary).sort()).toEqual([
        "Group note: deploy by hand.",
        "Team: deploy with the release train.",
      ]);
    } finally {
      await client.close();
    }
    expect(stderr).toContain(
      `${K}/deploy.md: id ${id(1)} is also held by root:group:copy.md; both are kept`,
    );
    const indexed = await lore(["index", team.dir, "--config", config]);
    expect(indexed.stdout).toContain("[id_clash]");
    const ambiguous = await lore(["get", id(1), "--config", config]);
    expect(ambiguous.code).toBe(4);
    expect(ambiguous.stderr).toContain("[ambiguous_id]");
    const chosen = await lore(["get", id(1), "--repo", "root:group", "--config", config]);
    expect(chosen.stdout).toContain("Group note: deploy by hand.");
  });
});

describe("lore mcp sees new commits", () => {
  it("answers from the existing index at once, and a commit made while serving before the next answer", async () => {
    const repo = await repoOf({ [`${K}/a.md`]: entry(1, "First deploy note.") });
    expect((await lore(["index", repo.dir])).code).toBe(0);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--repo", repo.dir],
      env: sandbox.env,
      cwd: sandbox.dir,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    const ids = async () =>
      (
        (await client.callTool({ name: "knowledge_recall", arguments: { query: "deploy" } }))
          .structuredContent as { hits: { id: string }[] }
      ).hits
        .map((h) => h.id)
        .sort();
    try {
      expect(await ids()).toEqual([id(1)]);
      await repo.commit({ [`${K}/b.md`]: entry(2, "Second deploy note.") });
      expect(await ids()).toEqual([id(1), id(2)]);
      await repo.remove([`${K}/a.md`]);
      expect(await ids()).toEqual([id(2)]);
      // The repository is deleted while the server runs: its entries drop out.
      await rm(repo.dir, { recursive: true, force: true });
      expect(await ids()).toEqual([]);
    } finally {
      await client.close();
    }
    // The restart with nothing changed did no indexing work: no summary line for it.
    expect(stderr.match(/added/g) ?? []).toHaveLength(2);
  });
});

describe("lore serve sees new commits", () => {
  it("a commit made while serving is indexed before the next answer over HTTP", async () => {
    const repo = await repoOf({ [`${K}/a.md`]: entry(1, "First deploy note.") });
    const served = await startServe(["--port", "0", "--repo", repo.dir], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    try {
      const ask = async () => {
        const client = new Client({ name: "test", version: "1" });
        await client.connect(
          new StreamableHTTPClientTransport(served.url, {
            requestInit: { headers: served.headers },
          }),
        );
        try {
          const answer = await client.callTool({
            name: "knowledge_recall",
            arguments: { query: "deploy" },
          });
          return (answer.structuredContent as { hits: { id: string }[] }).hits
            .map((h) => h.id)
            .sort();
        } finally {
          await client.close();
        }
      };
      expect(await ask()).toEqual([id(1)]);
      await repo.commit({ [`${K}/b.md`]: entry(2, "Second deploy note.") });
      expect(await ask()).toEqual([id(1), id(2)]);
    } finally {
      await served.stop();
    }
  });
});

describe("cancellation of an index refresh over MCP", () => {
  it("a cancelled recall commits nothing of its refresh; the next call answers normally", async () => {
    const repo = await repoOf({ [`${K}/first.md`]: entry(9999, "The first deploy note.") });
    await lore(["index", repo.dir]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--repo", repo.dir],
      env: sandbox.env,
      cwd: sandbox.dir,
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    try {
      const recallIds = async (signal?: AbortSignal) =>
        (
          (
            await client.callTool(
              { name: "knowledge_recall", arguments: { query: "deploy", limit: 50 } },
              undefined,
              signal === undefined ? {} : { signal },
            )
          ).structuredContent as { total: number }
        ).total;
      expect(await recallIds()).toBe(1);
      const files: Record<string, string> = {};
      for (let n = 1; n <= 1500; n++) {
        files[`${K}/e${n}.md`] = entry(n, `Deploy note ${n}. ${"word ".repeat(200)}`);
      }
      await repo.commit(files);
      // HEAD moved: this call starts a refresh of 1500 files; cancel it at once.
      const controller = new AbortController();
      const cancelled = recallIds(controller.signal);
      setTimeout(() => controller.abort(), 20);
      await expect(cancelled).rejects.toThrow();
      // Nothing of the refresh was committed: the previous index answers.
      const between = JSON.parse((await lore(["recall", "first", "--json"])).stdout);
      expect(between.total).toBe(1);
      expect((await reposJson())[0]?.commit).toBe(repo.initial);
      // The next call refreshes again and answers normally.
      expect(await recallIds()).toBe(1501);
    } finally {
      await client.close();
    }
  });
});

describe("kill -9 during a refresh", () => {
  it("leaves the previous index readable", async () => {
    const files: Record<string, string> = {};
    for (let n = 1; n <= 400; n++)
      files[`${K}/e${n}.md`] = entry(n, `Deploy note ${n}. ${"word ".repeat(400)}`);
    const repo = await repoOf({ [`${K}/first.md`]: entry(9999, "The first deploy note.") });
    await lore(["index", repo.dir]);
    await repo.commit(files);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--repo", repo.dir],
      env: sandbox.env,
      cwd: sandbox.dir,
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    // The start-up refresh of 400 new files runs in the background: kill it mid-way.
    transport.pid !== null && process.kill(transport.pid, "SIGKILL");
    await client.close().catch(() => undefined);
    const after = await lore(["recall", "first", "--json"]);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout).hits.map((h: { id: string }) => h.id)).toContain(id(9999));
    const repos = await reposJson();
    expect(repos[0]?.commit === repo.initial || repos[0]?.entries === 401).toBe(true);
  });
});
