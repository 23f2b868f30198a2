/**
 * `lore serve` refusals over real HTTP on 127.0.0.1: a port in use is `address_in_use`
 * with what to do, exit 6 and nothing after it (no TypeError from an indexing that went
 * on); a request whose `Origin` is not allowed gets 403 (MCP transport spec: servers must
 * validate `Origin`), while clients that send none, or a loopback one, are served.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { initializeRequest } from "../helpers/mcp-messages.js";
import { knowledgeFiles } from "./fixture-entries.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let url: URL;

beforeAll(async () => {
  repo = await makeRepo(knowledgeFiles());
  sandbox = isolatedEnv();
  served = await startServe(["--port", "0", "--repo", repo.dir], {
    cwd: sandbox.dir,
    env: sandbox.env,
  });
  url = served.url;
});

afterAll(async () => {
  await served?.stop();
  await repo?.cleanup();
  sandbox?.cleanup();
});

const INITIALIZE = JSON.stringify(initializeRequest());

function post(path: string, origin?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...served.headers,
    };
    if (origin !== undefined) headers.origin = origin;
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: path === "/healthz" ? "GET" : "POST",
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(path === "/healthz" ? undefined : INITIALIZE);
  });
}

describe("Origin", () => {
  it("a non-allowed Origin gets 403 on /mcp and /healthz", async () => {
    for (const origin of [
      "http://evil.example",
      "https://attacker.test:7377",
      "null",
      "file://x",
    ]) {
      const mcp = await post("/mcp", origin);
      expect([origin, mcp.status]).toEqual([origin, 403]);
      expect(JSON.parse(mcp.body)).toMatchObject({
        error: { message: "Forbidden: Origin is not allowed" },
      });
      expect((await post("/healthz", origin)).status).toBe(403);
    }
  });

  it("no Origin, or a loopback one, is served", async () => {
    for (const origin of [
      undefined,
      "http://localhost:5173",
      "http://127.0.0.1:7377",
      "http://[::1]",
    ]) {
      const answer = await post("/mcp", origin);
      expect([origin, answer.status]).toEqual([origin, 200]);
    }
    const client = new Client({ name: "origin-test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: served.headers } }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe("a port in use", () => {
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it("address_in_use with what to do, exit 6, and no TypeError after it", async () => {
    // The folder holds knowledge, so `lore serve` has indexing to do: none may run on.
    const run = await runLore(["serve", "--ssh-port", "0", "--port", String(port)], {
      cwd: repo.dir,
      env: { ...sandbox.env, LORE_DB: `${sandbox.dir}/in-use.db` },
    });
    expect(run.code).toBe(6);
    expect(run.stderr).toBe(
      `lore: cannot listen on 127.0.0.1:${port}: the address is in use (another lore serve?); stop that process, or pick another port: --port N, or --port 0 for any free one [address_in_use]\n`,
    );
    expect(run.stderr).not.toContain("TypeError");
  });

  it("the SSH port in use names that port and --ssh-port, not --port", async () => {
    const run = await runLore(["serve", "--port", "0", "--ssh-port", String(port)], {
      cwd: repo.dir,
      env: { ...sandbox.env, LORE_DB: `${sandbox.dir}/ssh-in-use.db` },
    });
    expect(run.code).toBe(6);
    expect(run.stderr).toBe(
      `lore: cannot listen on 127.0.0.1:${port}: the address is in use (another lore serve?); stop that process, or pick another port: --ssh-port N (the git over SSH port), or --ssh-port 0 to turn git over SSH off [address_in_use]\n`,
    );
  });
});

describe("a data folder this user cannot write", () => {
  it("names the folder and says it cannot be written (path_not_writable, exit 5)", async () => {
    // Root writes anywhere: as root the server runs as `nobody`, for whom the folder is
    // read-only as for its owner.
    const asRoot = process.getuid?.() === 0;
    const uid = asRoot ? 65_534 : undefined;
    const top = mkdtempSync(join(tmpdir(), "lore-ro-data-"));
    try {
      chmodSync(top, 0o755);
      const home = join(top, "home");
      mkdirSync(home);
      if (uid !== undefined) chownSync(home, uid, uid);
      // `[server] data` by default: $XDG_DATA_HOME/lore/server.
      const data = join(home, "share", "lore", "server");
      mkdirSync(data, { recursive: true });
      chmodSync(data, 0o555);
      const run = await runLore(["serve", "--port", "0", "--ssh-port", "0"], {
        cwd: home,
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: home,
          XDG_CONFIG_HOME: join(home, "config"),
          XDG_DATA_HOME: join(home, "share"),
          XDG_STATE_HOME: join(home, "state"),
          LORE_DB: join(home, "index.db"),
          LORE_USER: "tester",
          LORE_LANG: "en",
        },
        ...(uid === undefined ? {} : { uid }),
      });
      expect(run.code, run.stderr).toBe(5);
      expect(run.stderr).toBe(
        `lore: ${data} cannot be written (permission denied for this user); the server keeps its database, SSH host key and repositories there: make it writable for this user, or set [server] data to another folder [path_not_writable]\n`,
      );
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });
});
