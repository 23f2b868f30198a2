import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** Options of {@link startMcpHttpServer}. */
export interface McpHttpServerOptions {
  /** Address to listen on, e.g. `127.0.0.1`. */
  host: string;
  /** TCP port; `0` picks a free one. */
  port: number;
  /** Makes a fresh, unconnected MCP server for one request (stateless mode). */
  createServer: () => McpServer;
  /** What `GET /healthz` reports besides `status`. Default: nothing. */
  health?: () => Record<string, unknown>;
  /** Logs a line to stderr. Default: none. */
  log?: (line: string) => void;
}

/** A running MCP HTTP server. */
export interface McpHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:7377/mcp`. */
  url: string;
  /** The port actually bound. */
  port: number;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

const LOOPBACK_NAMES = new Set(["localhost", "::1", "[::1]"]);

/**
 * Whether a host name or address is loopback: `localhost` (any case), `::1`, or any IPv4
 * address of 127.0.0.0/8 — so binding `127.0.0.2` keeps the Host check, and `LOCALHOST`
 * passes it (host names are case-insensitive).
 */
function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  return LOOPBACK_NAMES.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json" }).end(body);
}

function jsonRpcError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}

/** The Host header's name without the port (`[::1]:80` → `[::1]`). */
function hostName(req: IncomingMessage): string {
  const host = req.headers.host ?? "";
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : (host.split(":")[0] ?? "");
}

/**
 * Serves MCP over Streamable HTTP (`POST /mcp`, stateless: a fresh server and transport per
 * request, JSON responses) and `GET /healthz`, with `node:http`. Issue 2 §5, `lore serve`.
 *
 * When bound to a loopback address, requests whose `Host` is not a loopback name are
 * refused with 403 (DNS rebinding protection). `GET`/`DELETE /mcp` answer 405 (no sessions);
 * other paths 404.
 *
 * @param options - see {@link McpHttpServerOptions}.
 * @returns the running server, once it listens.
 * @throws the listen error (e.g. `EADDRINUSE`) as Node reports it.
 */
export async function startMcpHttpServer(options: McpHttpServerOptions): Promise<McpHttpServer> {
  const loopbackOnly = isLoopback(options.host);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (loopbackOnly && !isLoopback(hostName(req))) {
      jsonRpcError(res, 403, "Forbidden: Host is not a loopback name");
      return;
    }
    if (path === "/healthz") {
      if (req.method !== "GET" && req.method !== "HEAD") {
        sendJson(res, 405, { status: "method_not_allowed" });
        return;
      }
      sendJson(res, 200, { status: "ok", ...(options.health?.() ?? {}) });
      return;
    }
    if (path !== "/mcp") {
      sendJson(res, 404, { status: "not_found" });
      return;
    }
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      jsonRpcError(res, 405, "Method not allowed: this server is stateless, POST only");
      return;
    }
    const server = options.createServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      options.log?.(`lore: MCP request failed: ${error instanceof Error ? error.message : error}`);
      if (!res.headersSent) jsonRpcError(res, 500, "Internal server error");
    }
  };
  const http: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/mcp`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
