import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Lang } from "../core/localized-text.js";
import type { FederationPort } from "./federation-port.js";
import { registerFederationTools } from "./federation-tools.js";
import type { KnowledgePort } from "./knowledge-port.js";
import { type ToolNameStyle, toolNames } from "./tool-names.js";
import { registerCheckTool } from "./tools/check-entry.js";
import { registerOpenTool } from "./tools/open-entry.js";
import { registerReadFileTool } from "./tools/read-file.js";
import { registerRecallTool } from "./tools/recall-knowledge.js";
import { registerStatusTool } from "./tools/roots-status.js";
import { registerRouteContextTool } from "./tools/route-context.js";
import { registerWriteFileTool } from "./tools/write-file.js";

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Tool name spelling. Default: `underscore` (`knowledge_recall`). */
  toolNames?: ToolNameStyle;
  /** Language of error and diagnostic messages. Default: `en`. */
  lang?: Lang;
  /** The version reported in `initialize`. Default: `0.0.0`. */
  version?: string;
  /**
   * The federation tools' port (issue 4: shared wiki, ask_projects, get_from, ingest,
   * promote, tasks, sync). Default: none — those tools are not listed.
   */
  federation?: FederationPort;
}

/**
 * Builds Lore's MCP server with its tools — recall, open, check — without a transport
 * (STYLE.md habit 2): `lore mcp` connects it to stdio, `lore serve` to Streamable HTTP, the
 * tests to an in-memory pair. Issue 2 §5.
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
        `matters; call ${names.check} to lint an entry file before proposing it. Your notes and ` +
        `the team's read-only roots: ${names.routeContext} at the start of a task, ` +
        `${names.readFile} / ${names.writeFile} (primary only), ${names.status}.`,
    },
  );
  registerRecallTool(server, port, names, lang);
  registerOpenTool(server, port, names, lang);
  registerCheckTool(server, port, names, lang);
  // Knowledge roots (issue 3, seed 003).
  registerReadFileTool(server, port, names, lang);
  registerWriteFileTool(server, port, names, lang);
  registerRouteContextTool(server, port, names, lang);
  registerStatusTool(server, port, names, lang);
  // Project wikis and federation (issue 4, seeds 000/001).
  if (options.federation) registerFederationTools(server, options.federation, names, lang);
  return server;
}
