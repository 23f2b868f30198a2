import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { FederationPort } from "../federation-port.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";

const syncError = z.object({
  project: z.string(),
  reason: z.string(),
  kept_from: z.string().optional().describe("When the last good entry kept for it was read."),
  kept_age_seconds: z.number().int().optional(),
});

/** `projects_sync` output (services/federation/projects-status.ts `SyncSummary`). */
export const syncOutput = {
  synced_at: z.string(),
  synced_from: z.string(),
  projects: z.number().int(),
  with_wiki: z.number().int(),
  active_tasks: z.number().int(),
  errors: z.array(syncError),
  wikis: z
    .array(
      z.object({
        project: z.string(),
        pages: z.number().int(),
        lines_not_read: z.number().int(),
        summary: z.string().describe("e.g. `wiki: 41 pages, 3 lines not read`."),
      }),
    )
    .describe("Per project with a wiki: pages read and index lines not read."),
};

/**
 * Registers `projects_sync` / `projects.sync` (seed 000 "Sync extension"): lists the
 * forge's repositories and caches each one's STATUS.md and wiki index.
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerSyncTool(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.projectsSync,
    {
      title: "Sync projects from the forge",
      description:
        "Read every repository of the forge and cache its task board (.tasks/STATUS.md) and " +
        `wiki index (.wiki/index.md). Call it when ${names.askProjects} says "unknown ` +
        `project — run sync first", or when ${names.projectsStatus} shows an old cache.`,
      inputSchema: {},
      outputSchema: syncOutput,
      annotations: {
        title: "Sync projects from the forge",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    async (_args, extra) => {
      try {
        // The request's signal: a cancelled sync reads no further repository, writes nothing.
        return jsonResult({ ...(await port.sync(names.projectsSync, extra.signal)) });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
