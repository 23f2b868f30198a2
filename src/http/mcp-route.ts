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
import { LoreError } from "../core/errors/lore-error.js";
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

/** A refusal of the MCP transport itself, before any tool runs (see {@link transportRefusal}). */
type TransportProblem = "method_not_allowed" | "parse_error" | "not_acceptable" | "internal";

/** Status, JSON-RPC code, Lore code and the English and Russian reason of each {@link TransportProblem}. */
const TRANSPORT_PROBLEMS: Record<
  TransportProblem,
  { status: number; rpc: number; code: "invalid_input" | "internal"; en: string; ru: string }
> = {
  method_not_allowed: {
    status: 405,
    rpc: -32000,
    code: "invalid_input",
    en: "this MCP server is stateless: send every message with POST (GET and DELETE open and close sessions, which it has none of)",
    ru: "этот сервер MCP без сессий: каждое сообщение отправляйте методом POST (GET и DELETE открывают и закрывают сессии, а их у него нет)",
  },
  parse_error: {
    status: 400,
    rpc: -32700,
    code: "invalid_input",
    en: "the request body is not JSON: send one JSON-RPC message or a batch of them",
    ru: "тело запроса — не JSON: отправьте одно сообщение JSON-RPC или их пакет",
  },
  not_acceptable: {
    status: 406,
    rpc: -32000,
    code: "invalid_input",
    en: "the Accept header must list both application/json and text/event-stream (MCP Streamable HTTP)",
    ru: "заголовок Accept должен называть и application/json, и text/event-stream (MCP Streamable HTTP)",
  },
  internal: {
    status: 500,
    rpc: -32603,
    code: "internal",
    en: "the MCP request failed inside the server; the server's log has the details",
    ru: "запрос MCP не выполнен из-за ошибки на сервере; подробности в журнале сервера",
  },
};

/**
 * The JSON-RPC error answer of a transport refusal (`id` null): the message in the caller's
 * language, and Lore's refusal `{code, message}` in `error.data.error`, as a tool's refusal
 * and `request_too_large` carry it — so a client sees the same shape whatever refused it.
 *
 * @param problem - what was wrong.
 * @param lang - the caller's language (`Accept-Language`).
 * @returns the response: 405 (with `Allow: POST`), 400 (-32700), 406 or 500 (-32603).
 */
export function transportRefusal(problem: TransportProblem, lang: Lang): Response {
  const p = TRANSPORT_PROBLEMS[problem];
  const refusal =
    p.code === "internal"
      ? new LoreError(
          "internal",
          {},
          {
            text: { en: `internal error: ${p.en}`, ru: `внутренняя ошибка: ${p.ru}` },
          },
        )
      : new LoreError("invalid_input", { reason: p.en, reason_ru: p.ru });
  const message = refusal.text[lang];
  const body = {
    jsonrpc: "2.0",
    id: null,
    error: { code: p.rpc, message, data: { error: { code: refusal.code, message } } },
  };
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (problem === "method_not_allowed") headers.allow = "POST";
  return new Response(JSON.stringify(body), { status: p.status, headers });
}

/**
 * Whether an `Accept` header allows a Streamable HTTP answer: it must list both
 * `application/json` and `text/event-stream` (the MCP transport's rule, checked here so
 * that the refusal is Lore's, in the caller's language).
 */
function acceptsMcp(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const types = accept.split(",").map((part) => (part.split(";")[0] ?? "").trim().toLowerCase());
  const any = types.includes("*/*");
  return (
    (any || types.includes("application/json") || types.includes("application/*")) &&
    (any || types.includes("text/event-stream") || types.includes("text/*"))
  );
}

/**
 * Registers `/mcp`: `POST` runs one JSON-RPC message or batch through a fresh server for
 * the caller; `GET`/`DELETE` answer 405 (no sessions). A body over the limit (4 MiB) gets
 * 413 with the JSON-RPC error of `request_too_large` (`id` null, Lore's refusal in
 * `error.data.error`) and one log line, the server goes on; a body that is not JSON gets
 * 400, JSON-RPC -32700; an `Accept` without both `application/json` and `text/event-stream`
 * gets 406; a failure inside gets 500, -32603 — each through {@link transportRefusal}.
 *
 * @param app - the application (the auth middleware runs first).
 * @param options - see {@link McpRouteOptions}.
 */
export function registerMcpRoute(app: Hono<HttpEnv>, options: McpRouteOptions): void {
  const max = options.maxBodyBytes ?? MAX_MCP_MESSAGE_BYTES;
  const clients = new Map<number, string>();
  app.on(["GET", "DELETE"], "/mcp", (c) => transportRefusal("method_not_allowed", langOf(c)));
  app.post("/mcp", async (c) => {
    const lang = langOf(c);
    if (!acceptsMcp(c.req.header("accept"))) return transportRefusal("not_acceptable", lang);
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
      return transportRefusal("parse_error", lang);
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
      return transportRefusal("internal", lang);
    } finally {
      // JSON answers are complete when handleRequest resolves: nothing streams on.
      void transport.close();
      void server.close();
    }
  });
}
