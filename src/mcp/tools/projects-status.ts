import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { FederationPort } from "../federation-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";

/** `projects_status` output (services/federation/projects-status.ts `ProjectsStatus`). */
export const projectsStatusOutput = {
  synced_at: z.string().nullable(),
  age_seconds: z.number().int().nullable().describe("Seconds since the last sync."),
  synced_from: z.string().nullable(),
  machine: z.string().nullable(),
  projects: z.array(
    z.object({
      name: z.string(),
      default_branch: z.string(),
      has_wiki: z.boolean(),
      wiki_pages: z.number().int(),
      wiki_lines_not_read: z
        .number()
        .int()
        .describe("Index lines linking pages that could not be read."),
      wiki: z.string().describe("e.g. `wiki: 41 pages, 3 lines not read`."),
      sync_error: z
        .string()
        .optional()
        .describe("Why the last sync failed here; the entry is the last good one."),
      active_tasks: z.array(z.object({ slug: z.string(), status: z.string(), next: z.string() })),
      all_tasks_count: z.number().int(),
      fetched_at: z.string(),
    }),
  ),
  errors: z.array(
    z.object({ project: z.string(), reason: z.string(), kept_from: z.string().optional() }),
  ),
};

/**
 * Registers `projects_status` / `projects.status`: the cached projects,
 * their active tasks, wiki presence and the age of the cache.
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerProjectsStatusTool(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.projectsStatus,
    {
      title: "Projects, their tasks and wikis",
      description:
        "The projects of the last sync: each one's active tasks (not done), whether it has a " +
        `wiki and how many pages it lists, and how old the cache is. Use the names with ` +
        `${names.askProjects} and ${names.createTask}; refresh with ${names.projectsSync}.`,
      inputSchema: {},
      outputSchema: projectsStatusOutput,
      annotations: readOnlyAnnotations("Projects, their tasks and wikis"),
    },
    async () => {
      try {
        return jsonResult({ ...(await port.status(names.projectsStatus)) });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
