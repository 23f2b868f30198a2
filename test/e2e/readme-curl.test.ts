import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";

const README = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), "..", "..", "README.md"),
  "utf8",
);
const run = promisify(execFile);

/** The lines of the fenced block after the README's `<!-- curl-examples … -->` marker. */
function curlExamples(): string[] {
  const block = /<!-- curl-examples[^>]*-->\n```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? "";
  return block.split("\n").filter((line) => line.startsWith("curl "));
}

let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let child: ChildProcess;
let port = "";

beforeAll(async () => {
  // A repository set up as a newcomer does: `lore init`, no commit (read from disk).
  repo = await makeRepo({});
  sandbox = isolatedEnv();
  const init = await runLore(["init"], { cwd: repo.dir, env: sandbox.env });
  expect(init.code).toBe(0);
  child = spawn(process.execPath, [LORE_BIN, "serve", "--port", "0", "--repo", repo.dir], {
    cwd: sandbox.dir,
    env: sandbox.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  port = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match = /serving MCP over HTTP at http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
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

/** Runs one README line with real curl against the test server; the status comes last. */
async function curl(line: string): Promise<{ status: number; body: unknown }> {
  const command = `${line.replaceAll("127.0.0.1:7377", `127.0.0.1:${port}`)} -w '\\n%{http_code}'`;
  const { stdout } = await run("sh", ["-c", command]);
  const at = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(at + 1)), body: JSON.parse(stdout.slice(0, at)) };
}

describe("the README's curl examples against a real lore serve", () => {
  it("has one example per endpoint: GET /healthz, tools/list, tools/call knowledge_recall", () => {
    const lines = curlExamples();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain("/healthz");
    expect(lines[1]).toContain('"method":"tools/list"');
    expect(lines[2]).toContain('"name":"knowledge_recall"');
  });

  it("GET /healthz answers 200 with status ok", async () => {
    const answer = await curl(curlExamples()[0] ?? "");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: "ok", version: expect.any(String) });
  });

  it("tools/list answers 200 with the seven tools, no initialize first", async () => {
    const answer = await curl(curlExamples()[1] ?? "");
    expect(answer.status).toBe(200);
    const tools = (answer.body as { result: { tools: { name: string }[] } }).result.tools;
    expect(tools.map((t) => t.name)).toHaveLength(7);
    expect(tools.map((t) => t.name)).toContain("knowledge_recall");
  });

  it("tools/call knowledge_recall answers 200 with the lore init entry as the hit", async () => {
    const answer = await curl(curlExamples()[2] ?? "");
    expect(answer.status).toBe(200);
    const result = (
      answer.body as {
        result: { isError?: boolean; structuredContent: { hits: { summary: string }[] } };
      }
    ).result;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent.hits[0]?.summary).toMatch(/^Team knowledge lives in/);
  });
});

describe("a federation tool called over lore serve", () => {
  it("is federation_disabled saying lore mcp serves it", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "knowledge_ask_projects", arguments: { query: "x", projects: ["a"] } },
      }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(answer.result.isError).toBe(true);
    const error = JSON.parse(answer.result.content[0]?.text ?? "{}").error;
    expect(error.code).toBe("federation_disabled");
    expect(error.message).toContain("served by lore mcp (stdio) only");
  });
});
