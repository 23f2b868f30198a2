import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Lang } from "../core/localized-text.js";
import type { FederationPort } from "./federation-port.js";
import type { ToolNames } from "./tool-names.js";
import { registerAskProjectsTool } from "./tools/ask-projects.js";
import { registerCreateTaskTool } from "./tools/create-task.js";
import { registerGetFromTool } from "./tools/get-from.js";
import { registerGetWikiPageTool } from "./tools/get-wiki-page.js";
import { registerIngestTool } from "./tools/ingest-page.js";
import { registerProjectsStatusTool } from "./tools/projects-status.js";
import { registerPromoteTool } from "./tools/promote-page.js";
import { registerSearchWikiTool } from "./tools/search-wiki.js";
import { registerSuggestPromoteTool } from "./tools/suggest-promote.js";
import { registerSyncTool } from "./tools/sync-projects.js";

/**
 * Registers the federation tools (issue 4 "Tools"; seeds 000/001), in this order:
 * `knowledge.search`, `knowledge.get`, `knowledge.ask_projects`, `knowledge.get_from`,
 * `knowledge.ingest`, `knowledge.suggest_promote`, `knowledge.promote`, `tasks.create`,
 * `projects.sync`, `projects.status` (spelled as `names` says). Each answers the
 * `federation_disabled` error when what it needs is not configured.
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerFederationTools(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
): void {
  registerSearchWikiTool(server, port, names, lang);
  registerGetWikiPageTool(server, port, names, lang);
  registerAskProjectsTool(server, port, names, lang);
  registerGetFromTool(server, port, names, lang);
  registerIngestTool(server, port, names, lang);
  registerSuggestPromoteTool(server, port, names, lang);
  registerPromoteTool(server, port, names, lang);
  registerCreateTaskTool(server, port, names, lang);
  registerSyncTool(server, port, names, lang);
  registerProjectsStatusTool(server, port, names, lang);
}
