import { request as httpRequest } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { type McpHttpServer, startMcpHttpServer } from "./mcp-http-server.js";

let running: McpHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function healthz(url: string, host: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, path: "/healthz", method: "GET", headers: { host } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const start = (host: string) =>
  startMcpHttpServer({
    host,
    port: 0,
    createServer: () => new McpServer({ name: "t", version: "1" }),
  });

describe("startMcpHttpServer: DNS rebinding protection", () => {
  it("keeps the Host check on any 127.0.0.0/8 address, not only 127.0.0.1", async () => {
    running = await start("127.0.0.2");
    expect(await healthz(running.url, "evil.example")).toBe(403);
    expect(await healthz(running.url, `127.0.0.2:${running.port}`)).toBe(200);
  });

  it("reads Host names case-insensitively (LOCALHOST is loopback)", async () => {
    running = await start("127.0.0.1");
    expect(await healthz(running.url, "LOCALHOST:1")).toBe(200);
    expect(await healthz(running.url, "Localhost")).toBe(200);
    expect(await healthz(running.url, "localhost.evil.example")).toBe(403);
    expect(await healthz(running.url, "127.0.0.1.evil.example")).toBe(403);
  });
});
