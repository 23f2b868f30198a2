/**
 * `lore serve` over real HTTP: the first start makes the owner and its token (0600 file,
 * the `claude mcp add` line on stderr), `/healthz` needs no token, MCP needs one and serves
 * the owner's `--repo` sources (a site admin sees the non-hosted local sources), unknown
 * paths and methods, SIGTERM.
 */
import { statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { knowledgeFiles, ROLLBACK_ID } from "./fixture-entries.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;

beforeAll(async () => {
  repo = await makeRepo(knowledgeFiles());
  sandbox = isolatedEnv();
  served = await startServe(["--port", "0", "--repo", repo.dir], {
    cwd: sandbox.dir,
    env: sandbox.env,
  });
});

afterAll(async () => {
  await served?.stop();
  await repo.cleanup();
  sandbox.cleanup();
});

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: served.url.hostname, port: served.url.port, path, method: "GET", headers },
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
  it("on a first start writes the owner's token to <data>/owner-token, mode 0600, and says how to use it", () => {
    const file = join(sandbox.dir, "data", "lore", "server", "owner-token");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(served.token).toMatch(/^lore_[A-Za-z0-9_-]{43}$/);
    expect(served.stderr()).toContain(
      `claude mcp add --transport http lore ${served.url.href} --header "Authorization: Bearer $(cat ${file})"`,
    );
  });

  it("the owner is a site admin named after the OS user, with every scope", async () => {
    const answer = await get("/api/v1/user", served.headers);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      name: "tester",
      site_admin: true,
      scopes: ["knowledge:read", "knowledge:write", "repo:read", "repo:write", "admin"],
    });
  });

  it("listens on 127.0.0.1 by default and answers GET /healthz without a token", async () => {
    expect(served.url.hostname).toBe("127.0.0.1");
    const health = await get("/healthz");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: "ok" });
  });

  it("serves the MCP tools over Streamable HTTP with the token, the owner's --repo included", async () => {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(served.url, { requestInit: { headers: served.headers } }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        "knowledge_recall",
        "knowledge_open",
        "knowledge_check",
        "knowledge_draft",
        "knowledge_drafts",
        "knowledge_discard",
        "knowledge_deliver",
        "knowledge_stats",
        "knowledge_receipts",
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

  it("MCP without a token is 401 token_required", async () => {
    const answer = await fetch(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="lore"');
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(
      "token_required",
    );
  });

  it("refuses a non-loopback Host header (DNS rebinding), unknown paths, GET /mcp", async () => {
    expect((await get("/healthz", { host: "evil.example" })).status).toBe(403);
    expect((await get("/nope", served.headers)).status).toBe(404);
    expect((await get("/mcp", served.headers)).status).toBe(405);
  });

  it("MCP transport refusals carry Lore's code and speak the caller's language", async () => {
    const mcp = new URL("/mcp", served.url);
    type Refusal = {
      id: null;
      error: { code: number; message: string; data: { error: { code: string; message: string } } };
    };
    const call = async (init: RequestInit) => {
      const answer = await fetch(mcp, init);
      return {
        status: answer.status,
        allow: answer.headers.get("allow"),
        body: (await answer.json()) as Refusal,
      };
    };
    const both = { ...served.headers, accept: "application/json, text/event-stream" };

    const method = await call({
      method: "GET",
      headers: { ...served.headers, "accept-language": "ru" },
    });
    expect(method.status).toBe(405);
    expect(method.allow).toBe("POST");
    expect(method.body.error.data.error.code).toBe("invalid_input");
    expect(method.body.error.message).toContain("без сессий");

    const notJson = await call({
      method: "POST",
      headers: { ...both, "content-type": "application/json" },
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe(-32700);
    expect(notJson.body.error.data.error).toEqual({
      code: "invalid_input",
      message: notJson.body.error.message,
    });
    expect(notJson.body.error.message).toContain("not JSON");

    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const accept = await call({
      method: "POST",
      headers: {
        ...served.headers,
        accept: "application/json",
        "content-type": "application/json",
        "accept-language": "ru-RU,ru;q=0.9",
      },
      body: ping,
    });
    expect(accept.status).toBe(406);
    expect(accept.body.error.data.error.code).toBe("invalid_input");
    expect(accept.body.error.message).toContain("text/event-stream");
    expect(accept.body.error.message).toContain("заголовок Accept");

    // The same request with both types is answered.
    const answered = await fetch(mcp, {
      method: "POST",
      headers: { ...both, "content-type": "application/json" },
      body: ping,
    });
    expect(answered.status).toBe(200);
  });

  it("a second start keeps the owner and its token (no new user)", async () => {
    const users = await runLore(["serve", "--ssh-port", "0", "--port", String(served.url.port)], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    // The port is taken by the first server: the second refuses, and wrote no new token.
    expect(users.code).toBe(6);
    expect(users.stderr).not.toContain("first start");
  });

  it("stops on SIGTERM with exit 0", async () => {
    expect(await served.stop()).toBe(0);
  });

  it("once a user holds a token, a non-loopback address is served (token still required)", async () => {
    const wide = await startServe(["--host", "0.0.0.0", "--port", "0"], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    try {
      expect(wide.url.hostname).toBe("0.0.0.0");
      expect(wide.stderr()).not.toContain("first start");
      expect(wide.token).toBe(served.token);
      const port = wide.url.port;
      const anonymous = await fetch(`http://127.0.0.1:${port}/api/v1/user`);
      expect(anonymous.status).toBe(401);
      const owner = await fetch(`http://127.0.0.1:${port}/api/v1/user`, { headers: wide.headers });
      expect(owner.status).toBe(200);
    } finally {
      expect(await wide.stop()).toBe(0);
    }
  });
});

describe("a non-loopback address", () => {
  it("is refused with listen_needs_auth, exit 2, while no user holds a token", async () => {
    const fresh = isolatedEnv();
    try {
      const run = await runLore(["serve", "--ssh-port", "0", "--host", "0.0.0.0", "--port", "0"], {
        cwd: fresh.dir,
        env: fresh.env,
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        "lore: refusing to listen on 0.0.0.0: a non-loopback address needs users and tokens first (lore user add, lore token create) [listen_needs_auth]\n",
      );
    } finally {
      fresh.cleanup();
    }
  });
});
