import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Lang } from "../core/errors/localized-text.js";
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

/** What the federation can reach: a forge (`[forge]`), the shared wiki (`[wiki] shared`). */
export interface FederationFeatures {
  forge: boolean;
  sharedWiki: boolean;
}

/**
 * Registers the federation tools (seeds 000/001) that can work with what is configured,
 * in this order (spelled as `names` says):
 * - with the shared wiki: `knowledge.search`, `knowledge.get`;
 * - with a forge: `knowledge.ask_projects`, `knowledge.get_from`;
 * - with either: `knowledge.ingest` (this project's wiki; another's through the forge);
 * - with the shared wiki: `knowledge.suggest_promote`, `knowledge.promote`;
 * - with a forge: `tasks.create`, `projects.sync`, `projects.status`.
 * With neither none is listed: a tool that can only answer `federation_disabled` costs
 * every agent context for nothing. A registered tool still answers `federation_disabled`
 * when a part it needs fails later (e.g. the forge's token).
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 * @param features - what is configured. Default: everything (every tool listed).
 * @returns the registered tools, in order.
 */
export function registerFederationTools(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
  features: FederationFeatures = { forge: true, sharedWiki: true },
): RegisteredTool[] {
  const { forge, sharedWiki } = features;
  type Register = typeof registerSearchWikiTool;
  const plan: [boolean, Register][] = [
    [sharedWiki, registerSearchWikiTool],
    [sharedWiki, registerGetWikiPageTool],
    [forge, registerAskProjectsTool],
    [forge, registerGetFromTool],
    [forge || sharedWiki, registerIngestTool],
    [sharedWiki, registerSuggestPromoteTool],
    [sharedWiki, registerPromoteTool],
    [forge, registerCreateTaskTool],
    [forge, registerSyncTool],
    [forge, registerProjectsStatusTool],
  ];
  return plan
    .filter(([wanted]) => wanted)
    .map(([, register]) => register(server, port, names, lang));
}
