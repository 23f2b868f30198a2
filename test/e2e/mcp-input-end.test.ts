/**
 * `lore mcp` over stdio when the client closes its end early or reads slowly: requests
 * written before the input ended are all answered before the process exits (`printf '…' |
 * lore mcp`), and a client that reads its answers late gets every one.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { INITIALIZED_NOTIFICATION, initializeRequest } from "../helpers/mcp-messages.js";
import { knowledgeFiles, MIGRATION_ID } from "./fixture-entries.js";
import { isolatedEnv, LORE_BIN } from "./run-lore.js";

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

const recall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "knowledge_recall", arguments: { tool: "run_migration" } },
});

/** Runs `lore mcp`, writes `messages` and ends its input; `readAfter` delays reading stdout. */
function runSession(
  messages: readonly object[],
  readAfter: Promise<void> = Promise.resolve(),
): Promise<{ answers: { id?: number; result?: unknown }[]; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LORE_BIN, "mcp", "--repo", repo.dir], {
      cwd: sandbox.dir,
      env: sandbox.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.pause();
    void readAfter.then(() => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stdout.resume();
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const answers = stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { id?: number; result?: unknown });
      resolve({ answers, stderr, code });
    });
    child.stdin.end(messages.map((m) => `${JSON.stringify(m)}\n`).join(""));
  });
}

describe("lore mcp: the end of the input", () => {
  it("answers every request written before the input ended, then exits 0", async () => {
    const { answers, code } = await runSession([
      initializeRequest(),
      INITIALIZED_NOTIFICATION,
      recall(2),
      recall(3),
    ]);
    expect(code).toBe(0);
    // Requests are handled concurrently: their answers may come in any order.
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
    for (const answer of answers.slice(1)) {
      const { hits } = (answer.result as { structuredContent: { hits: { id: string }[] } })
        .structuredContent;
      expect(hits.map((h) => h.id)).toEqual([MIGRATION_ID]);
    }
  });

  it("answers all of many requests while the client reads late: none lost", async () => {
    // Far more than a pipe holds (64 KiB), so the server is still writing when reading
    // starts (a process that had exited would have its unread output discarded).
    const count = 200;
    const calls = Array.from({ length: count }, (_, i) => recall(i + 2));
    // stdout is read only after a while, so the answers fill the pipe first.
    const later = new Promise<void>((done) => setTimeout(done, 1500));
    const { answers, stderr, code } = await runSession(
      [initializeRequest(), INITIALIZED_NOTIFICATION, ...calls],
      later,
    );
    expect(code).toBe(0);
    expect(stderr).not.toContain("MaxListenersExceededWarning");
    expect(answers.map((a) => a.id).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([
      1,
      ...calls.map((c) => c.id),
    ]);
  });
});
