/**
 * When `lore mcp` refreshes an already indexed repository at start (`mcp/start-up-gate.ts`):
 * the first tool call answers from the existing index while a commit made before the start
 * is pending, the refresh then runs without a restart, and a client that disconnects before
 * the refresh began gets a clean exit with nothing refreshed. Real processes (spoken to line
 * by line, or through the SDK's client), real git repositories in temp folders.
 */
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeRepo } from "../helpers/make-repo.js";
import { INITIALIZED_NOTIFICATION, initializeRequest } from "../helpers/mcp-messages.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";

const K = ".gitriver/knowledge";
const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const entry = (n: number, body: string) =>
  `---\nid: ${id(n)}\ncontract:\n  - mechanism: on_query\n    params:\n      words: ["deploy"]\n---\n\n${body}\n`;

let sandbox: ReturnType<typeof isolatedEnv>;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(() => {
  sandbox = isolatedEnv();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  sandbox.cleanup();
});
const lore = (args: string[]) => runLore(args, { cwd: sandbox.dir, env: sandbox.env });
const indexedRepo = async () => {
  const repo = await makeRepo({ [`${K}/a.md`]: entry(1, "First deploy note.") });
  cleanups.push(() => repo.cleanup());
  expect((await lore(["index", repo.dir])).code).toBe(0);
  return repo;
};
const indexedCommit = async () =>
  (JSON.parse((await lore(["repos", "--json"])).stdout) as { repos: { commit: string }[] }).repos[0]
    ?.commit;

const INITIALIZE = initializeRequest("test");
const INITIALIZED = INITIALIZED_NOTIFICATION;
const recallRequest = (requestId: number) => ({
  jsonrpc: "2.0",
  id: requestId,
  method: "tools/call",
  params: { name: "knowledge_recall", arguments: { query: "deploy" } },
});
const hitIds = (answer: { result?: { structuredContent?: { hits: { id: string }[] } } }) =>
  (answer.result?.structuredContent?.hits ?? []).map((h) => h.id).sort();

/**
 * `lore mcp --repo <dir>` spoken to line by line: `send` writes messages (several in one
 * write), `answer` waits for the answer with an id, `stderrMatches` for a pattern on stderr,
 * `end` closes stdin and returns the exit code.
 */
function rawSession(dir: string) {
  const child = spawn(process.execPath, [LORE_BIN, "mcp", "--repo", dir], {
    cwd: sandbox.dir,
    env: sandbox.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let gone = false;
  const exited = new Promise<number | null>((done) =>
    child.once("exit", (code) => {
      gone = true;
      done(code);
    }),
  );
  const answers = new Map<number, unknown>();
  let stdout = "";
  let stderr = "";
  let changed: () => void = () => {};
  const nextChange = () =>
    new Promise<void>((done) => {
      changed = done;
    });
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString("utf8");
    let newline = stdout.indexOf("\n");
    while (newline !== -1) {
      const message = JSON.parse(stdout.slice(0, newline)) as { id?: number };
      if (typeof message.id === "number") answers.set(message.id, message);
      stdout = stdout.slice(newline + 1);
      newline = stdout.indexOf("\n");
    }
    changed();
  });
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString("utf8");
    changed();
  });
  const until = async (ready: () => boolean) => {
    while (!ready()) {
      const change = nextChange();
      if (ready()) return;
      await Promise.race([change, exited]);
      if (gone && !ready()) throw new Error(`lore mcp exited early: ${stderr}`);
    }
  };
  return {
    send: (...messages: object[]) =>
      child.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join("")),
    answer: async (requestId: number) => {
      await until(() => answers.has(requestId));
      return answers.get(requestId) as Parameters<typeof hitIds>[0];
    },
    stderrMatches: (pattern: RegExp) => until(() => pattern.test(stderr)),
    stderr: () => stderr,
    end: () => {
      child.stdin.end();
      return exited;
    },
  };
}

describe("lore mcp's start-up refresh of an indexed repository", () => {
  it("answers the first call from the existing index, then sees the pending commit without a restart", async () => {
    const repo = await indexedRepo();
    // Made before the server starts: the start-up refresh, not a HEAD move, must index it.
    await repo.commit({ [`${K}/b.md`]: entry(2, "Second deploy note.") });
    const server = rawSession(repo.dir);
    let code: number | null;
    try {
      // initialize, initialized and the first tools/call in one write: a request is in
      // flight from the first line read to the first tools/call answer, so only that answer
      // (or the 1 s cap) can open the gate — never the 200 ms idle of a client that is slow
      // to send its call, which would let the refresh commit first.
      server.send(INITIALIZE, INITIALIZED, recallRequest(2));
      expect(hitIds(await server.answer(2))).toEqual([id(1)]);
      // The start-up refresh runs after that answer and logs its summary line.
      await server.stderrMatches(/added/);
      server.send(recallRequest(3));
      expect(hitIds(await server.answer(3))).toEqual([id(1), id(2)]);
      expect(await indexedCommit()).toBe((await repo.git(["rev-parse", "HEAD"])).trim());
    } finally {
      code = await server.end();
    }
    expect(code).toBe(0);
    expect(server.stderr().match(/added/g) ?? []).toHaveLength(1);
  });

  it("exits 0 with nothing refreshed when stdin closes before the refresh began", async () => {
    const repo = await indexedRepo();
    await repo.commit({ [`${K}/b.md`]: entry(2, "Second deploy note.") });
    const child = spawn(process.execPath, [LORE_BIN, "mcp", "--repo", repo.dir], {
      cwd: sandbox.dir,
      env: sandbox.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString("utf8");
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    child.stdin.end(`${JSON.stringify(INITIALIZE)}\n`);
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
    expect(stdout === "" || stdout.includes('"id":1')).toBe(true);
    // The deferred refresh never ran: the index still holds the first commit.
    expect(await indexedCommit()).toBe(repo.initial);
  });

  it("a repository never indexed is indexed before the first answer, as before", async () => {
    const repo = await makeRepo({ [`${K}/a.md`]: entry(1, "First deploy note.") });
    cleanups.push(() => repo.cleanup());
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [LORE_BIN, "mcp", "--repo", repo.dir],
        env: sandbox.env,
        cwd: sandbox.dir,
        stderr: "pipe",
      }),
    );
    try {
      const answer = await client.callTool({
        name: "knowledge_recall",
        arguments: { query: "deploy" },
      });
      expect(
        (answer.structuredContent as { hits: { id: string }[] }).hits.map((h) => h.id),
      ).toEqual([id(1)]);
    } finally {
      await client.close();
    }
  });
});
