/**
 * The secret guard on writes made for an agent (seed 004, "Как знание выходит наружу"),
 * through the real interfaces: a real MCP SDK client on `lore mcp` (stdio) calling
 * `knowledge_write_file` and `knowledge_draft`, the CLI (`lore write`, `lore draft add`:
 * exit 2), and a real `lore serve` over HTTP (REST `POST …/knowledge/drafts`: 400, and
 * `knowledge_draft` on its /mcp). Each refusal is `secret_detected` with `{line, rule}`,
 * never the secret, and nothing lands: no file, no draft.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { lookAlikes, secretShapes } from "../helpers/secret-shapes.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

const shape = (name: string): string => {
  const found = secretShapes().find((s) => s.name === name);
  if (found === undefined) throw new Error(`no shape ${name}`);
  return found.text;
};
const TOKEN = shape("GitHub classic token"); // token: ghp_…
const SECRET = TOKEN.slice("token: ".length);
const GITHUB = "@secretlint/secretlint-rule-github";

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((c) => c.text).join("");
}
function errorOf(result: unknown): { code: string; message: string; data?: unknown } {
  return JSON.parse(textOf(result)).error;
}

describe("lore mcp (stdio) and the CLI, local mode", () => {
  let sandbox: ReturnType<typeof isolatedEnv>;
  let repo: TestRepo;
  let client: Client;
  let knowledge: string;
  let config: string;

  beforeAll(async () => {
    sandbox = isolatedEnv({});
    const notes = join(sandbox.dir, "notes");
    knowledge = join(notes, "knowledge");
    mkdirSync(knowledge, { recursive: true });
    config = join(sandbox.dir, "lore.toml");
    writeFileSync(config, `[knowledge]\nprimary = '${notes}'\n`);
    repo = await makeRepo({ "src/app.ts": "export const a = 1;\n" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--config", config],
      cwd: repo.dir,
      env: { ...sandbox.env, XDG_STATE_HOME: join(sandbox.dir, "state") },
      stderr: "pipe",
    });
    client = new Client({ name: "secret-guard", version: "1" });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
    await repo?.cleanup();
    sandbox?.cleanup();
  });

  it("knowledge_write_file refuses a credential, names line and rule, writes nothing", async () => {
    const result = await client.callTool({
      name: "knowledge_write_file",
      arguments: { file_path: "deploy.md", content: `# Deploy\n\nThe bot:\n${TOKEN}\n` },
    });
    expect(result.isError).toBe(true);
    const error = errorOf(result);
    expect(error.code).toBe("secret_detected");
    expect(error.data).toEqual({ line: 4, rule: GITHUB });
    expect(error.message).toContain("line 4");
    expect(textOf(result)).not.toContain(SECRET.slice(4));
    expect(existsSync(join(knowledge, "deploy.md"))).toBe(false);
    expect(readdirSync(knowledge).filter((name) => !name.startsWith("."))).toEqual([]);
  });

  it("an append with a credential leaves the file as it was", async () => {
    writeFileSync(join(knowledge, "notes.md"), "# Notes\n");
    const result = await client.callTool({
      name: "knowledge_write_file",
      arguments: {
        file_path: "notes.md",
        content: shape("Slack incoming webhook"),
        mode: "append",
      },
    });
    expect(errorOf(result)).toMatchObject({
      code: "secret_detected",
      data: { line: 1, rule: "@secretlint/secretlint-rule-slack" },
    });
    const read = await client.callTool({
      name: "knowledge_read_file",
      arguments: { file_path: "notes.md" },
    });
    expect(textOf(read)).toContain("# Notes");
    expect(textOf(read)).not.toContain("hooks.slack.com");
  });

  it("look-alikes are written", async () => {
    const body = lookAlikes()
      .map((look) => look.text)
      .join("\n\n");
    const result = await client.callTool({
      name: "knowledge_write_file",
      arguments: { file_path: "look-alikes.md", content: `${body}\n` },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(existsSync(join(knowledge, "look-alikes.md"))).toBe(true);
  });

  it("knowledge_draft refuses a credential in the body; no draft is stored", async () => {
    const result = await client.callTool({
      name: "knowledge_draft",
      arguments: {
        title: "Deploy with the bot",
        body: `Use the bot's token.\n\n${shape("Stripe live secret key")}`,
        words: ["deploy"],
      },
    });
    expect(result.isError).toBe(true);
    const error = errorOf(result);
    expect(error.code).toBe("secret_detected");
    expect(error.data).toMatchObject({ rule: expect.stringMatching(/^lore\//) });
    expect(textOf(result)).not.toContain("sk_live_");
    const listed = await client.callTool({ name: "knowledge_drafts", arguments: {} });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    expect(JSON.stringify(listed.structuredContent)).not.toContain("Deploy with the bot");
  });

  it("lore write and lore draft add exit 2 with the code and write nothing", async () => {
    const write = await runLore(
      ["write", "cli.md", "--config", config, "--text", `x\n${shape("npm access token")}\n`],
      { cwd: repo.dir, env: sandbox.env },
    );
    expect(write.code).toBe(2);
    expect(write.stderr).toContain("secret_detected");
    expect(write.stderr).toContain("line 2");
    expect(write.stderr).toContain("@secretlint/secretlint-rule-npm");
    expect(existsSync(join(knowledge, "cli.md"))).toBe(false);
    const draft = await runLore(
      ["draft", "add", "--title", "Keys", "--body", shape("password assignment"), "--json"],
      { cwd: repo.dir, env: sandbox.env },
    );
    expect(draft.code).toBe(2);
    expect(draft.stderr + draft.stdout).toContain("lore/high-entropy-assignment");
    const listed = await runLore(["draft", "list", "--json"], { cwd: repo.dir, env: sandbox.env });
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });
});

describe("lore serve: REST and /mcp drafts", () => {
  let home: ReturnType<typeof isolatedEnv>;
  let served: ServedLore;
  const DRAFTS = "/api/v1/repos/acme/app/knowledge/drafts";
  const base = () => `${served.url.protocol}//${served.url.host}`;

  beforeAll(async () => {
    home = isolatedEnv();
    served = await startServe(["--port", "0"], { cwd: home.dir, env: home.env });
    const made = await runLore(["repo", "create", "acme/app"], { cwd: home.dir, env: home.env });
    if (made.code !== 0) throw new Error(made.stderr);
  }, 120_000);

  afterAll(async () => {
    await served?.stop();
    home?.cleanup();
  });

  it("POST …/knowledge/drafts with a credential is 400 secret_detected; GET lists none", async () => {
    const response = await fetch(`${base()}${DRAFTS}`, {
      method: "POST",
      headers: { ...served.headers, "content-type": "application/json" },
      body: JSON.stringify({
        branch: "main",
        title: "AWS for the deploy job",
        body: `The job reads:\n\n${shape("AWS access key id")}`,
      }),
    });
    const text = await response.text();
    expect(response.status).toBe(400);
    const body = JSON.parse(text);
    expect(body.error.code).toBe("secret_detected");
    expect(body.error.data).toMatchObject({ rule: "@secretlint/secretlint-rule-aws" });
    expect(text).not.toContain("AKIA");
    const listed = await fetch(`${base()}${DRAFTS}`, { headers: served.headers });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { items: unknown[] }).items).toEqual([]);
  });

  it("knowledge_draft on the server's /mcp is an isError result with the code", async () => {
    const client = new Client({ name: "secret-guard", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(served.url, { requestInit: { headers: served.headers } }),
    );
    try {
      const result = await client.callTool({
        name: "knowledge_draft",
        arguments: {
          repo: "acme/app",
          branch: "main",
          text: `---\nsummary: Deploy keys\n---\n\n${shape("RSA private key (PEM)")}\n`,
        },
      });
      expect(result.isError).toBe(true);
      expect(errorOf(result)).toMatchObject({
        code: "secret_detected",
        data: { rule: "@secretlint/secretlint-rule-privatekey" },
      });
      expect(textOf(result)).not.toContain("BEGIN");
    } finally {
      await client.close();
    }
    const listed = await fetch(`${base()}${DRAFTS}`, { headers: served.headers });
    expect(((await listed.json()) as { items: unknown[] }).items).toEqual([]);
  });
});
