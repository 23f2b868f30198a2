import { type ChildProcess, spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { knowledgeFiles, ROLLBACK_ID } from "./fixture-entries.js";
import { isolatedEnv, LORE_BIN } from "./run-lore.js";

let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let child: ChildProcess;
let url: URL;
let stderr = "";

beforeAll(async () => {
  repo = await makeRepo(knowledgeFiles());
  sandbox = isolatedEnv();
  child = spawn(process.execPath, [LORE_BIN, "serve", "--port", "0", "--repo", repo.dir], {
    cwd: sandbox.dir,
    env: sandbox.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  url = await new Promise<URL>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match = /serving MCP over HTTP at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match?.[1]) resolve(new URL(match[1]));
    });
    child.on("close", (code) => reject(new Error(`lore serve exited ${code}: ${stderr}`)));
  });
});

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("close", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await repo.cleanup();
  sandbox.cleanup();
});

function get(path: string, host?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: "GET", headers: host ? { host } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("lore serve", () => {
  it("listens on 127.0.0.1 by default and answers GET /healthz", async () => {
    expect(url.hostname).toBe("127.0.0.1");
    const health = await get("/healthz");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: "ok" });
  });

  it("serves the MCP tools over Streamable HTTP", async () => {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(url));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        "knowledge_recall",
        "knowledge_open",
        "knowledge_check",
        "knowledge_read_file",
        "knowledge_write_file",
        "knowledge_route_context",
        "knowledge_status",
      ]);
      const result = await client.callTool({
        name: "knowledge_recall",
        arguments: { query: "как откатить релиз" },
      });
      const answer = result.structuredContent as { hits: { id: string }[] };
      expect(answer.hits[0]?.id).toBe(ROLLBACK_ID);
      const opened = await client.callTool({
        name: "knowledge_open",
        arguments: { id: ROLLBACK_ID },
      });
      expect((opened.structuredContent as { body: string }).body).toContain("helm rollback");
    } finally {
      await client.close();
    }
  });

  it("refuses a non-loopback Host header (DNS rebinding) and unknown paths", async () => {
    expect((await get("/healthz", "evil.example")).status).toBe(403);
    expect((await get("/nope")).status).toBe(404);
    expect((await get("/mcp")).status).toBe(405);
  });

  it("stops on SIGTERM with exit 0", async () => {
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
