/**
 * MCP Streamable HTTP at `/mcp` inside the team server's application (stateless: a fresh
 * server and transport per request, JSON answers), behind the auth middleware: the tools
 * get the caller's own port, so recall and open see only what the caller may read and the
 * counters count for the caller (seed 004 "Интерфейс").
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Hono } from "hono";
import type { Principal } from "../core/access/rights.js";
import type { Lang } from "../core/errors/localized-text.js";
import {
  MAX_MCP_MESSAGE_BYTES,
  requestTooLarge,
  requestTooLargeResponse,
} from "../mcp/request-too-large.js";
import { readBoundedBody } from "./bounded-body.js";
import { langOf } from "./error-hook.js";
import type { HttpEnv } from "./server-api.js";

/** Options of {@link registerMcpRoute}. */
export interface McpRouteOptions {
  /**
   * Makes a fresh, unconnected MCP server for one caller and request; `client` is the name
   * the caller's token gave in its last `initialize` (`clientInfo.name`), for load receipts.
   */
  createServer: (principal: Principal, lang: Lang, client?: string) => McpServer;
  /** The largest request body read, bytes. Default {@link MAX_MCP_MESSAGE_BYTES} (4 MiB). */
  maxBodyBytes?: number;
  /** Writes a line to the server's log. */
  log: (line: string) => void;
}

/** Most tokens whose MCP client name is remembered (the oldest is forgotten first). */
const MAX_REMEMBERED_CLIENTS = 10_000;

/**
 * The `clientInfo.name` of an `initialize` among the messages of a body, if any: a stateless
 * server sees `initialize` and the later `tools/call` in separate requests, so the name is
 * remembered per token for the load receipts of its recalls (README "Load receipts").
 */
function initializeClient(parsed: unknown): string | undefined {
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const m = message as { method?: unknown; params?: { clientInfo?: { name?: unknown } } } | null;
    const name = m?.method === "initialize" ? m.params?.clientInfo?.name : undefined;
    if (typeof name === "string" && name.trim() !== "") return name.trim().slice(0, 200);
  }
  return undefined;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/**
 * Registers `/mcp`: `POST` runs one JSON-RPC message or batch through a fresh server for
 * the caller; `GET`/`DELETE` answer 405 (no sessions). A body over the limit (4 MiB) gets
 * 413 with the JSON-RPC error of `request_too_large` (`id` null, Lore's refusal in
 * `error.data.error`) and one log line, the server goes on; a body that is not JSON gets
 * 400, JSON-RPC -32700.
 *
 * @param app - the application (the auth middleware runs first).
 * @param options - see {@link McpRouteOptions}.
 */
export function registerMcpRoute(app: Hono<HttpEnv>, options: McpRouteOptions): void {
  const max = options.maxBodyBytes ?? MAX_MCP_MESSAGE_BYTES;
  const clients = new Map<number, string>();
  app.on(["GET", "DELETE"], "/mcp", () => {
    const answer = jsonRpcError(
      405,
      -32000,
      "Method not allowed: this server is stateless, POST only",
    );
    answer.headers.set("allow", "POST");
    return answer;
  });
  app.post("/mcp", async (c) => {
    const lang = langOf(c);
    // The body is read here, not by the SDK, so that one over the limit gets Lore's
    // refusal (the SDK answers a plain 413) and a line in the log.
    // The rest of a refused body is left unread: `@hono/node-server` drains it after the
    // answer, so a client still sending sees the 413, not EPIPE.
    const body = await readBoundedBody(c.req.raw, { max });
    if ("tooLarge" in body) {
      const refusal = requestTooLarge(max, body.size);
      options.log(`lore: ${refusal.text[lang]} (request_too_large)`);
      return c.json(requestTooLargeResponse(refusal, null, lang), 413);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.bytes.toString("utf8"));
    } catch {
      return jsonRpcError(400, -32700, "Parse error: Invalid JSON");
    }
    const principal = c.get("principal");
    const named = initializeClient(parsed);
    if (named !== undefined) {
      clients.delete(principal.tokenId);
      clients.set(principal.tokenId, named);
      if (clients.size > MAX_REMEMBERED_CLIENTS) {
        const oldest = clients.keys().next().value;
        if (oldest !== undefined) clients.delete(oldest);
      }
    }
    const server = options.createServer(principal, lang, clients.get(principal.tokenId));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      return await transport.handleRequest(c.req.raw, { parsedBody: parsed });
    } catch (error) {
      options.log(`lore: MCP request failed: ${error instanceof Error ? error.message : error}`);
      return jsonRpcError(500, -32603, "Internal server error");
    } finally {
      // JSON answers are complete when handleRequest resolves: nothing streams on.
      void transport.close();
      void server.close();
    }
  });
}
