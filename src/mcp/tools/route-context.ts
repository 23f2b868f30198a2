import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { KnowledgePort } from "../knowledge-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";

/** `knowledge_route_context` output (services/roots/route-context.ts `RouteContextAnswer`). */
export const routeContextOutput = {
  query: z.string(),
  hot_file_found: z.boolean().describe("Whether agent-notes.md exists at the primary root."),
  sections: z
    .array(
      z.object({
        heading: z.string(),
        id: z.string(),
        line: z.number().int(),
        score: z.number(),
        text: z.string(),
      }),
    )
    .describe("Sections of agent-notes.md relevant to the query, best first."),
  knowledge_roots_overlay_applied: z
    .boolean()
    .describe("True when the roots overlay (routing section, registry lines, previews) was added."),
  overlay: z
    .object({
      routing_section: z.string().nullable(),
      registry_lines: z.array(
        z.object({
          line: z.number().int(),
          text: z.string(),
          path: z.string(),
          prefix: z.boolean(),
          root: z.string(),
        }),
      ),
      previews: z.array(
        z.object({
          root: z.string(),
          file_path: z.string(),
          preview: z.string().nullable(),
          error: z.string().optional(),
        }),
      ),
    })
    .optional(),
};

/**
 * Registers `knowledge_route_context` / `knowledge.route_context` (seed 003, "Поток
 * агента").
 *
 * @param server - the MCP server.
 * @param port - Lore's knowledge port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerRouteContextTool(
  server: McpServer,
  port: KnowledgePort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.routeContext,
    {
      title: "Route a question to your notes and roots",
      description:
        "Ask which of your always-loaded notes (agent-notes.md) matter for a task, and where a " +
        "file lives. Call it at the start of a task with the task in your words. Returns the " +
        "relevant hot sections; when the query is about group/public/roots/chmod/the registry, " +
        "or names a file in the registry, also the `knowledge-roots-routing-v1` section, the " +
        "matching registry lines (`path => root`) and a ~400-character preview of each file " +
        `from its read-only root (\`knowledge_roots_overlay_applied: true\`). Then call ` +
        `${names.readFile} with \`knowledge_root_id\` to read a file whole.`,
      inputSchema: {
        query: z
          .string(coded("invalid_input", "`query` must be a string"))
          .min(1, coded("empty_query", "`query` must not be empty"))
          .max(2000, coded("invalid_input", "`query` must be at most 2000 characters"))
          .describe("The task or question, any language; word forms match as in recall."),
      },
      outputSchema: routeContextOutput,
      annotations: readOnlyAnnotations("Route a question to your notes and roots"),
    },
    async ({ query }) => {
      try {
        await port.ready;
        const answer = await port.routeContext(query);
        return jsonResult({ ...answer });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
