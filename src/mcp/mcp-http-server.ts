import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Lang } from "../core/errors/localized-text.js";
import { LoreError } from "../core/errors/lore-error.js";
import {
  MAX_MCP_MESSAGE_BYTES,
  requestTooLarge,
  requestTooLargeResponse,
} from "./request-too-large.js";

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
  /** The language of refusals (`request_too_large`). Default `en`. */
  lang?: Lang;
  /** The largest request body read, in bytes. Default {@link MAX_MCP_MESSAGE_BYTES} (4 MiB). */
  maxBodyBytes?: number;
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

/** A request body read within the limit, or how far it went over. */
type ReadBody = { text: string } | { tooLarge: true; size?: number };

/**
 * Reads a request body up to `max` bytes. A `Content-Length` over the limit is refused
 * before anything is read (its size is known); a body without one is kept until it passes
 * the limit (its size is then not known). Never holds more than `max` bytes: the rest of
 * a refused body is read and discarded (Node drains it after the answer), because a
 * client still sending when the connection closed would see EPIPE instead of the 413.
 */
function readBody(req: IncomingMessage, max: number): Promise<ReadBody> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) {
    return Promise.resolve({ tooLarge: true, size: declared });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > max) {
        req.off("data", onData);
        chunks.length = 0;
        req.resume();
        resolve({ tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve({ text: Buffer.concat(chunks).toString("utf8") }));
    req.once("error", reject);
  });
}

/** Answers 413 with the JSON-RPC error of `request_too_large` (`id` null: the body was not read). */
function refuseTooLarge(res: ServerResponse, refusal: LoreError, lang: Lang): void {
  const body = JSON.stringify(requestTooLargeResponse(refusal, null, lang));
  res.writeHead(413, { "content-type": "application/json" }).end(body);
}

/**
 * Whether a request's `Origin` may reach the server (MCP transport spec, Streamable HTTP:
 * servers must validate `Origin` against DNS rebinding). No `Origin` (a non-browser client)
 * passes. On a loopback address only loopback origins pass (`http://localhost:3000`,
 * `http://127.0.0.1`, `http://[::1]`); elsewhere only the server's own origin (the same
 * host and port as `Host`). `null` and anything that is not an http(s) URL are refused.
 */
function originAllowed(req: IncomingMessage, loopbackOnly: boolean): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (loopbackOnly) return isLoopback(url.hostname);
  return url.host.toLowerCase() === (req.headers.host ?? "").toLowerCase();
}

/** The Host header's name without the port (`[::1]:80` → `[::1]`). */
function hostName(req: IncomingMessage): string {
  const host = req.headers.host ?? "";
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : (host.split(":")[0] ?? "");
}

/**
 * Serves MCP over Streamable HTTP (`POST /mcp`, stateless: a fresh server and transport per
 * request, JSON responses) and `GET /healthz`, with `node:http`: `lore serve`.
 *
 * When bound to a loopback address, requests whose `Host` is not a loopback name are
 * refused with 403 (DNS rebinding protection); a request whose `Origin` is not allowed
 * (see {@link originAllowed}) is refused with 403 on every path. `GET`/`DELETE /mcp`
 * answer 405 (no sessions); other paths 404. A `POST /mcp` body over `maxBodyBytes`
 * (4 MiB) is refused with 413 and the JSON-RPC error of `request_too_large` (`id` null,
 * Lore's refusal in `error.data.error`), logged as one line; the rest of the body is
 * discarded unread and the server goes on. A body that is not JSON: 400, JSON-RPC -32700.
 *
 * @param options - see {@link McpHttpServerOptions}.
 * @returns the running server, once it listens.
 * @throws LoreError `address_in_use` (EADDRINUSE: another process listens there; the
 *   message says to stop it or pick `--port`), `invalid_input` (EACCES: a port below 1024
 *   without privileges; EADDRNOTAVAIL: not an address of this machine); other listen
 *   errors as Node reports them.
 */
export async function startMcpHttpServer(options: McpHttpServerOptions): Promise<McpHttpServer> {
  const loopbackOnly = isLoopback(options.host);
  const maxBodyBytes = options.maxBodyBytes ?? MAX_MCP_MESSAGE_BYTES;
  const lang = options.lang ?? "en";
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (loopbackOnly && !isLoopback(hostName(req))) {
      jsonRpcError(res, 403, "Forbidden: Host is not a loopback name");
      return;
    }
    if (!originAllowed(req, loopbackOnly)) {
      jsonRpcError(res, 403, "Forbidden: Origin is not allowed");
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
    // The body is read here, not by the SDK, so that one over the limit gets Lore's
    // refusal (the SDK answers a plain 413) and a line in the log.
    const body = await readBody(req, maxBodyBytes);
    if ("tooLarge" in body) {
      const refusal = requestTooLarge(maxBodyBytes, body.size);
      options.log?.(`lore: ${refusal.text[lang]} (request_too_large)`);
      refuseTooLarge(res, refusal, lang);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      sendJson(res, 400, {
        jsonrpc: "2.0",
        error: { code: -32700, message: "Parse error: Invalid JSON" },
        id: null,
      });
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
      await transport.handleRequest(req, res, parsed);
    } catch (error) {
      options.log?.(`lore: MCP request failed: ${error instanceof Error ? error.message : error}`);
      if (!res.headersSent) jsonRpcError(res, 500, "Internal server error");
    }
  };
  const http: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => reject(listenError(error, options.host, options.port));
    http.once("error", fail);
    http.listen(options.port, options.host, () => {
      http.off("error", fail);
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

/** A listen error as a refusal that says what to do (see {@link startMcpHttpServer}). */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (code === "EADDRINUSE") return new LoreError("address_in_use", { address }, { cause: error });
  if (code === "EACCES") {
    return new LoreError(
      "invalid_input",
      {
        reason: `cannot listen on ${address}: permission denied (ports below 1024 need privileges); pick another: --port N`,
        reason_ru: `не удаётся слушать ${address}: нет прав (порты ниже 1024 требуют привилегий); выберите другой: --port N`,
      },
      { cause: error },
    );
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new LoreError(
      "invalid_input",
      {
        reason: `cannot listen on ${address}: ${host} is not an address of this machine; use --host 127.0.0.1`,
        reason_ru: `не удаётся слушать ${address}: ${host} — не адрес этой машины; укажите --host 127.0.0.1`,
      },
      { cause: error },
    );
  }
  return error;
}
