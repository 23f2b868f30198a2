import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Lang } from "../core/errors/localized-text.js";
import type { LoreError } from "../core/errors/lore-error.js";
import type { FederationPort } from "./federation-port.js";
import { type FederationFeatures, registerFederationTools } from "./federation-tools.js";
import type { KnowledgePort } from "./knowledge-port.js";
import { installStrictToolCalls } from "./strict-tool-calls.js";
import { type ToolNameStyle, toolNames } from "./tool-names.js";
import { registerCheckTool } from "./tools/check-entry.js";
import { registerDeliverDraftsTool } from "./tools/deliver-drafts.js";
import { registerDiscardDraftTool } from "./tools/discard-draft.js";
import { registerStatsTool } from "./tools/knowledge-stats.js";
import { registerListDraftsTool } from "./tools/list-drafts.js";
import { registerReceiptsTool } from "./tools/list-receipts.js";
import { registerOpenTool } from "./tools/open-entry.js";
import { registerReadFileTool } from "./tools/read-file.js";
import { registerRecallTool } from "./tools/recall-knowledge.js";
import { registerStatusTool } from "./tools/roots-status.js";
import { registerRouteContextTool } from "./tools/route-context.js";
import { registerWriteDraftTool } from "./tools/write-draft.js";
import { registerWriteFileTool } from "./tools/write-file.js";
import { unlistedToolError } from "./unlisted-tool.js";

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Tool name spelling. Default: `underscore` (`knowledge_recall`). */
  toolNames?: ToolNameStyle;
  /** Language of error and diagnostic messages. Default: `en`. */
  lang?: Lang;
  /** The version reported in `initialize`. Default: `0.0.0`. */
  version?: string;
  /**
   * The federation tools' port (seeds 000/001: shared wiki, ask_projects, get_from, ingest,
   * promote, tasks, sync). Default: none — those tools are not listed.
   */
  federation?: FederationPort;
  /**
   * What the federation can reach; only the tools that can work are listed (see
   * `registerFederationTools`). Default: a forge and the shared wiki (all ten listed).
   */
  federationFeatures?: FederationFeatures;
  /**
   * When set, the knowledge-root tools (read_file, write_file, route_context, status) are
   * not listed, and a call to one answers this refusal — `lore serve` sets it for a token
   * whose user is not a site admin (the roots belong to the server's owner), so a client
   * lists only the tools that can work, as over stdio. Default: the root tools are listed.
   */
  rootsRefusal?: LoreError;
  /**
   * The client's name for load receipts when the connection carries no `initialize` (the
   * team server's stateless `/mcp` remembers it per token). Default: the `initialize`'s
   * `clientInfo.name` of this connection, else `unknown`.
   */
  clientName?: string;
}

/**
 * Builds Lore's MCP server with its tools — recall, open, check, the knowledge-root tools
 * and, with a federation port, the federation tools that can work — without a transport
 * (STYLE.md habit 2): `lore mcp` connects it to stdio, `lore serve` to Streamable HTTP, the
 * tests to an in-memory pair. Every tool's input is strict and every refusal comes back in
 * the documented error shape (see `installStrictToolCalls`).
 *
 * @param port - what the tools call (see {@link KnowledgePort}).
 * @param options - see {@link McpServerOptions}.
 * @returns a server not yet connected.
 */
export function createMcpServer(port: KnowledgePort, options: McpServerOptions = {}): McpServer {
  const names = toolNames(options.toolNames);
  const lang = options.lang ?? "en";
  const server = new McpServer(
    { name: "lore", title: "Lore", version: options.version ?? "0.0.0" },
    {
      capabilities: { tools: {}, logging: {} },
      instructions:
        `Lore holds the team's knowledge entries from git. Call ${names.recall} at the start of ` +
        `a task and before calling a tool; call ${names.open} to read an entry whose summary ` +
        `matters; call ${names.check} to lint an entry file before proposing it. When you learn ` +
        `something the team should know (a lesson, a long fix, a trap), save it with ` +
        `${names.draft}; ${names.deliver} puts drafts up for review. Your notes and ` +
        `the team's read-only roots: ${names.routeContext} at the start of a task, ` +
        `${names.readFile} / ${names.writeFile} (primary only), ${names.status}.`,
    },
  );
  const byName = recordTools(server);
  registerRecallTool(server, port, names, lang, options.clientName);
  registerOpenTool(server, port, names, lang);
  registerCheckTool(server, port, names, lang);
  // Drafts (seed 004): listed only where drafts can be kept.
  if (port.drafts !== undefined) {
    registerWriteDraftTool(server, port.drafts, names, lang);
    registerListDraftsTool(server, port.drafts, names, lang);
    registerDiscardDraftTool(server, port.drafts, names, lang);
    registerDeliverDraftsTool(server, port.drafts, names, lang);
  }
  // Shown/read counters and the dead-memory report (seed 004): where they can be read.
  if (port.stats !== undefined) {
    registerStatsTool(server, port.stats.bind(port), names, lang);
  }
  // Load receipts (README "Load receipts"): where the port keeps them.
  if (port.receipts !== undefined) {
    registerReceiptsTool(server, port.receipts.bind(port), names, lang);
  }
  // Knowledge roots (seed 003).
  const roots = [names.readFile, names.writeFile, names.routeContext, names.status];
  if (options.rootsRefusal === undefined) {
    registerReadFileTool(server, port, names, lang);
    registerWriteFileTool(server, port, names, lang);
    registerRouteContextTool(server, port, names, lang);
    registerStatusTool(server, port, names, lang);
  }
  // Project wikis and federation (seeds 000/001): only the tools that can work.
  const features = options.federation
    ? (options.federationFeatures ?? { forge: true, sharedWiki: true })
    : undefined;
  if (options.federation && features) {
    registerFederationTools(server, options.federation, names, lang, features);
  }
  const rootsRefusal = options.rootsRefusal;
  installStrictToolCalls(server, byName, names, lang, (name) =>
    rootsRefusal !== undefined && roots.includes(name)
      ? rootsRefusal
      : unlistedToolError(name, names, features),
  );
  return server;
}

/**
 * Records every tool registered on `server` from now on, by its exposed name (the SDK keeps
 * its own table private): the table `installStrictToolCalls` answers calls from.
 */
function recordTools(server: McpServer): Map<string, RegisteredTool> {
  const tools = new Map<string, RegisteredTool>();
  const register = server.registerTool.bind(server) as (...args: unknown[]) => RegisteredTool;
  // The SDK's registerTool is generic over the schemas; the wrapper only passes them on.
  server.registerTool = ((name: string, ...rest: unknown[]) => {
    const tool = register(name, ...rest);
    tools.set(name, tool);
    return tool;
  }) as typeof server.registerTool;
  return tools;
}
