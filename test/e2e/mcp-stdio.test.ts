import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { knowledgeFiles, LETTERHEAD, MIGRATION_ID, ROLLBACK_ID } from "./fixture-entries.js";
import { isolatedEnv, LORE_BIN } from "./run-lore.js";

let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;

beforeAll(async () => {
  // The `**Team letterhead**` file beside valid ones.
  repo = await makeRepo(knowledgeFiles({ ".gitriver/knowledge/letterhead.md": LETTERHEAD }));
  sandbox = isolatedEnv();
});
afterAll(async () => {
  await repo.cleanup();
  sandbox.cleanup();
});

describe("lore mcp over stdio", () => {
  it("case 9: every stdout line is JSON-RPC; the bad file's diagnostic is on stderr only", async () => {
    const child = spawn(process.execPath, [LORE_BIN, "mcp", "--repo", repo.dir], {
      cwd: sandbox.dir,
      env: sandbox.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stdoutLines: string[] = [];
    const stderr: Buffer[] = [];
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    const responses = new Map<number, (message: Record<string, unknown>) => void>();
    createInterface({ input: child.stdout }).on("line", (line) => {
      stdoutLines.push(line);
      const message = JSON.parse(line) as { id?: number };
      if (typeof message.id === "number") responses.get(message.id)?.(message);
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const request = (id: number, method: string, params: unknown) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        responses.set(id, resolve);
        // Fail at once, with the server's stderr, if it dies instead of answering.
        void exited.then((code) =>
          reject(new Error(`lore mcp exited ${code}: ${Buffer.concat(stderr).toString("utf8")}`)),
        );
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });

    await request(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "case-9", version: "1" },
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
    );
    const listed = await request(2, "tools/list", {});
    const called = await request(3, "tools/call", {
      name: "knowledge_recall",
      arguments: { tool: "run_migration" },
    });
    child.stdin.end();
    expect(await exited).toBe(0);

    expect(stdoutLines.length).toBeGreaterThanOrEqual(3);
    for (const line of stdoutLines) {
      const message = JSON.parse(line);
      expect(message.jsonrpc).toBe("2.0");
    }
    expect(JSON.stringify(listed)).toContain("knowledge_recall");
    const result = called.result as { structuredContent: { hits: { id: string }[] } };
    expect(result.structuredContent.hits.map((h) => h.id)).toEqual([MIGRATION_ID]);

    const err = Buffer.concat(stderr).toString("utf8");
    expect(err).toMatch(/\.gitriver\/knowledge\/letterhead\.md:2(:\d+)?: .*\[yaml_syntax\]/);
    expect(err).toContain("1 skipped");
    expect(stdoutLines.join("\n")).not.toContain("letterhead");
  });

  it("serves the SDK's own stdio client, with dotted names on request", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--repo", repo.dir, "--tool-names=dotted"],
      env: sandbox.env,
      cwd: sandbox.dir,
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        "knowledge.recall",
        "knowledge.open",
        "knowledge.check",
        "knowledge.draft",
        "knowledge.drafts",
        "knowledge.discard",
        "knowledge.deliver",
        "knowledge.stats",
        "knowledge.receipts",
        "knowledge.read_file",
        "knowledge.write_file",
        "knowledge.route_context",
        "knowledge.status",
        // No forge and no shared wiki configured: none of the federation tools is listed.
      ]);
      const result = await client.callTool({
        name: "knowledge.recall",
        arguments: { query: "откатить релиз" },
      });
      const answer = result.structuredContent as { hits: { id: string }[] };
      expect(answer.hits[0]?.id).toBe(ROLLBACK_ID);
    } finally {
      await client.close();
    }
  });

  it("refuses a bad --tool-names value with exit 2 before speaking the protocol", async () => {
    const child = spawn(process.execPath, [LORE_BIN, "mcp", "--tool-names=camel"], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    const out: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(2);
    expect(Buffer.concat(out).length).toBe(0);
  });
});
