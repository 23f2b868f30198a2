import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { initializeRequest } from "../helpers/mcp-messages.js";
import { knowledgeFiles, MIGRATION_ID, ROLLBACK_ID } from "./fixture-entries.js";
import { isolatedEnv, LORE_BIN } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

/** The 4 MiB limit of one MCP message (README "Limits"). */
const LIMIT = 4_194_304;

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

/** A JSON-RPC line of exactly `bytes` bytes (without its newline): a ping padded in `_meta`. */
function pingOfSize(id: number, bytes: number): string {
  const head = `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"_meta":{"pad":"`;
  const tail = '"}}}';
  return `${head}${"x".repeat(bytes - head.length - tail.length)}${tail}`;
}

describe("lore mcp: a message over the limit is refused, the session goes on", () => {
  it("the SDK client gets request_too_large for its call, then the next call answers", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--repo", repo.dir],
      env: sandbox.env,
      cwd: sandbox.dir,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    try {
      const huge = "x".repeat(5 * 1024 * 1024);
      const refused = await client
        .callTool({ name: "knowledge_recall", arguments: { query: huge } })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(McpError);
      const error = refused as McpError;
      expect(error.code).toBe(-32000);
      expect(error.data).toMatchObject({
        error: { code: "request_too_large", data: { limit: LIMIT } },
      });
      expect(error.message).toContain(`over the ${LIMIT}-byte limit of one MCP message`);

      const result = await client.callTool({
        name: "knowledge_recall",
        arguments: { tool: "run_migration" },
      });
      const answer = result.structuredContent as { hits: { id: string }[] };
      expect(answer.hits.map((h) => h.id)).toEqual([MIGRATION_ID]);
      const lines = stderr.split("\n").filter((line) => line.includes("request_too_large"));
      expect(lines).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it("a line of exactly 4 MiB is read; one byte more is refused by id; garbage gets id null (ru)", async () => {
    const child = spawn(process.execPath, [LORE_BIN, "mcp", "--repo", repo.dir], {
      cwd: sandbox.dir,
      env: { ...sandbox.env, LORE_LANG: "ru" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stderr: Buffer[] = [];
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    const answers: Record<string, unknown>[] = [];
    let waiting: (() => void) | undefined;
    createInterface({ input: child.stdout }).on("line", (line) => {
      answers.push(JSON.parse(line) as Record<string, unknown>);
      waiting?.();
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const answered = (count: number) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (answers.length >= count) resolve();
        };
        waiting = check;
        check();
        void exited.then((code) => reject(new Error(`lore mcp exited ${code}`)));
      });
    child.stdin.write(`${JSON.stringify(initializeRequest())}\n`);
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    child.stdin.write(`${pingOfSize(2, LIMIT)}\n`);
    child.stdin.write(`${pingOfSize(3, LIMIT + 1)}\n`);
    child.stdin.write(`${"y".repeat(LIMIT + 10)}\n`);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "knowledge_recall", arguments: { query: "как откатить релиз" } } })}\n`,
    );
    await answered(5);
    child.stdin.end();
    expect(await exited).toBe(0);

    expect(answers[1]).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(answers[2]).toMatchObject({
      id: 3,
      error: {
        code: -32000,
        message: `запрос больше предела одного сообщения MCP в ${LIMIT} байт (${LIMIT + 1} байт); он не прочитан, сервер работает дальше`,
        data: { error: { code: "request_too_large", data: { limit: LIMIT, size: LIMIT + 1 } } },
      },
    });
    expect(answers[3]).toMatchObject({
      id: null,
      error: { data: { error: { code: "request_too_large", data: { size: LIMIT + 10 } } } },
    });
    const recall = answers[4] as {
      id: number;
      result: { structuredContent: { hits: { id: string }[] } };
    };
    expect(recall.id).toBe(4);
    expect(recall.result.structuredContent.hits[0]?.id).toBe(ROLLBACK_ID);
    const lines = Buffer.concat(stderr)
      .toString("utf8")
      .split("\n")
      .filter((line) => line.includes("request_too_large"));
    expect(lines).toEqual([
      `lore: запрос больше предела одного сообщения MCP в ${LIMIT} байт (${LIMIT + 1} байт); он не прочитан, сервер работает дальше (request_too_large, id 3)`,
      `lore: запрос больше предела одного сообщения MCP в ${LIMIT} байт (${LIMIT + 10} байт); он не прочитан, сервер работает дальше (request_too_large)`,
    ]);
  });
});

describe("lore serve: a body over the limit gets 413, the server goes on", () => {
  let served: ServedLore;
  let url: URL;
  let headers: Record<string, string>;

  beforeAll(async () => {
    served = await startServe(["--port", "0", "--repo", repo.dir], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    url = served.url;
    headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...served.headers,
    };
  });
  afterAll(async () => {
    await served?.stop();
  });
  const bigCall = () =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "knowledge_recall", arguments: { query: "x".repeat(LIMIT) } },
    });

  it("413 with request_too_large for a declared length and for a streamed body", async () => {
    const declared = await fetch(url, { method: "POST", headers, body: bigCall() });
    expect(declared.status).toBe(413);
    const size = Buffer.byteLength(bigCall());
    expect(await declared.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32000,
        data: { error: { code: "request_too_large", data: { limit: LIMIT, size } } },
      },
    });
    const bytes = Buffer.from(bigCall());
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 65_536)
          controller.enqueue(bytes.subarray(i, i + 65_536));
        controller.close();
      },
    });
    const streamed = await fetch(url, {
      method: "POST",
      headers,
      body,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const refusal = (await streamed.json()) as { error: { message: string; data: unknown } };
    expect(refusal.error.message).toBe(
      `the request is over the ${LIMIT}-byte limit of one MCP message (more than ${LIMIT} bytes); it was not read, the server goes on`,
    );
    expect(refusal.error.data).toMatchObject({ error: { data: { limit: LIMIT } } });
    // One log line per refusal (stderr may arrive after the answer).
    await vi.waitFor(() =>
      expect(
        served
          .stderr()
          .split("\n")
          .filter((line) => line.includes("(request_too_large)")),
      ).toHaveLength(2),
    );
  });

  it("the SDK client is refused for the big call, then its next call answers", async () => {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: served.headers } }),
    );
    try {
      await expect(
        client.callTool({ name: "knowledge_recall", arguments: { query: "x".repeat(LIMIT) } }),
      ).rejects.toThrow(/Error POSTing to endpoint.*"code":"request_too_large"/);
      const result = await client.callTool({
        name: "knowledge_recall",
        arguments: { query: "как откатить релиз" },
      });
      const answer = result.structuredContent as { hits: { id: string }[] };
      expect(answer.hits[0]?.id).toBe(ROLLBACK_ID);
    } finally {
      await client.close();
    }
  });
});
