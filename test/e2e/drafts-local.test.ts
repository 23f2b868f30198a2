import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { knowledgeFiles } from "./fixture-entries.js";
import { freePort } from "./git-client.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";

// Drafts on one machine (the "Agents and the CLI"): `lore draft` and `lore deliver`
// in local mode on a real repository with uncommitted work, and `lore mcp` whose [server]
// url points at a dead port: the draft tools say so, recall keeps answering.

let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;

beforeAll(async () => {
  repo = await makeRepo({ ...knowledgeFiles(), "src/app.ts": "export const a = 1;\n" });
  sandbox = isolatedEnv();
});

afterAll(async () => {
  await repo?.cleanup();
  sandbox?.cleanup();
});

const lore = (args: readonly string[], input?: string) =>
  runLore(args, { cwd: repo.dir, env: sandbox.env, ...(input === undefined ? {} : { input }) });

describe("local drafts: lore draft and lore deliver", () => {
  it("deliver commits the drafts into the checked-out branch and leaves uncommitted work untouched", async () => {
    // Uncommitted work of every kind: a modified tracked file, a staged file, an untracked one.
    writeFileSync(join(repo.dir, "src/app.ts"), "export const a = 2; // work in progress\n");
    writeFileSync(join(repo.dir, "staged.txt"), "staged\n");
    await repo.git(["add", "staged.txt"]);
    writeFileSync(join(repo.dir, "scratch.txt"), "untracked\n");
    const statusBefore = await repo.git(["status", "--porcelain"]);
    const stagedBefore = await repo.git(["diff", "--cached", "--name-only"]);
    const headBefore = (await repo.git(["rev-parse", "HEAD"])).trim();

    const added = await lore([
      "draft",
      "add",
      "--title",
      "Restart the watcher after a rebase",
      "--body",
      "It keeps the old inode and misses edits.",
      "--words",
      "watcher,rebase",
      "--json",
    ]);
    expect(added.code).toBe(0);
    const draft = JSON.parse(added.stdout) as { id: string; branch: string; author: string };
    expect(draft).toMatchObject({ branch: "main", author: "tester" });
    const listed = await lore(["draft", "list", "--json"]);
    expect(JSON.parse(listed.stdout).map((d: { id: string }) => d.id)).toEqual([draft.id]);
    // A label names a separate branch only.
    const labelled = await lore(["deliver", "--label", "x"]);
    expect(labelled.code).toBe(2);
    expect(labelled.stderr).toContain("give it with mode separate");

    const delivered = await lore(["deliver", "--json"]);
    expect(delivered.code).toBe(0);
    const answer = JSON.parse(delivered.stdout) as {
      commits: string[];
      branch: string;
      delivered: string[];
    };
    expect(answer).toMatchObject({ branch: "main", delivered: [draft.id] });
    expect(answer.commits).toHaveLength(1);
    expect((await repo.git(["rev-parse", "HEAD"])).trim()).toBe(answer.commits[0]);
    expect((await repo.git(["rev-parse", "HEAD^"])).trim()).toBe(headBefore);
    // The commit holds only the draft's file.
    const files = await repo.git(["diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD"]);
    expect(files.trim()).toBe(`.gitriver/knowledge/${draft.id}.md`);
    // Uncommitted work as it was: the same status, the same staged files, the same content.
    expect(await repo.git(["status", "--porcelain"])).toBe(statusBefore);
    expect(await repo.git(["diff", "--cached", "--name-only"])).toBe(stagedBefore);
    expect(await repo.git(["diff", "--name-only"])).toBe("src/app.ts\n");
    // Delivered into the default branch: a draft no more, and recall finds the entry at
    // once (the delivery indexed the new commit), as a file, not a draft.
    expect(JSON.parse((await lore(["draft", "list", "--json"])).stdout)).toEqual([]);
    const recalled = await lore(["recall", "watcher", "--json"]);
    expect(recalled.code).toBe(0);
    const hits = (JSON.parse(recalled.stdout) as { hits: { id: string; draft?: true }[] }).hits;
    expect(hits.map((hit) => [hit.id, hit.draft])).toEqual([[draft.id, undefined]]);
  });

  it("separate: into knowledge/<branch>-<label>, the checked-out branch unmoved; rm removes a draft", async () => {
    const head = (await repo.git(["rev-parse", "HEAD"])).trim();
    const text = "---\nsummary: Keep fixtures small\n---\n\nLarge fixtures slow every test run.\n";
    const added = await lore(["draft", "add", "-", "--json"], text);
    expect(added.code).toBe(0);
    const id = (JSON.parse(added.stdout) as { id: string }).id;
    const delivered = await lore([
      "deliver",
      "--branch-mode",
      "separate",
      "--label",
      "notes",
      "--json",
    ]);
    expect(delivered.code).toBe(0);
    const answer = JSON.parse(delivered.stdout) as { commits: string[]; branch: string };
    expect(answer.branch).toBe("knowledge/main-notes");
    expect((await repo.git(["rev-parse", "HEAD"])).trim()).toBe(head);
    expect((await repo.git(["rev-parse", "knowledge/main-notes"])).trim()).toBe(answer.commits[0]);
    const kept = JSON.parse((await lore(["draft", "list", "--json"])).stdout) as {
      id: string;
      delivered?: { branch: string };
    }[];
    expect(kept).toMatchObject([{ id, delivered: { branch: "knowledge/main-notes" } }]);
    const removed = await lore(["draft", "rm", id]);
    expect(removed.code).toBe(0);
    expect(JSON.parse((await lore(["draft", "list", "--json"])).stdout)).toEqual([]);
    const missing = await lore(["draft", "rm", id]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("draft_not_found");
  });

  it("strict: an unknown key is refused naming the nearest (exit 2)", async () => {
    const refused = await lore(["draft", "add", "-"], "---\nsumary: x\n---\n\nBody.\n");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("summary");
  });
});

describe("lore mcp with [server] url pointing at a dead port", () => {
  it("the draft tools answer server_unreachable with what to do; recall keeps answering from local knowledge", async () => {
    const port = await freePort();
    const config = join(sandbox.dir, "lore.toml");
    writeFileSync(config, `[server]\nurl = "http://127.0.0.1:${port}"\n`);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--repo", repo.dir],
      env: { ...sandbox.env, LORE_CONFIG: config, LORE_TOKEN: "lore_test_token" },
      cwd: repo.dir,
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining([
          "knowledge_draft",
          "knowledge_drafts",
          "knowledge_discard",
          "knowledge_deliver",
        ]),
      );
      const draft = await client.callTool({
        name: "knowledge_draft",
        arguments: { repo: "acme/app", branch: "main", title: "t", body: "b" },
      });
      expect(draft.isError).toBe(true);
      const said = JSON.stringify(draft.content);
      expect(said).toContain("server_unreachable");
      expect(said).toContain("lore serve");
      const recalled = await client.callTool({
        name: "knowledge_recall",
        arguments: { query: "откат релиз" },
      });
      expect(recalled.isError).toBeFalsy();
      expect((recalled.structuredContent as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
