import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { KnowledgePort } from "../knowledge-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";

/** `knowledge_status` output (services/roots/roots-status.ts `RootsStatusAnswer`). */
export const statusOutput = {
  roots: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(["primary", "named", "read_only"]),
      path: z.string(),
      exists: z.boolean().describe("Whether the root folder exists."),
      has_knowledge: z.boolean().describe("Whether it holds a knowledge/ folder."),
      writable: z.boolean().describe("Only the primary root takes writes."),
      file_count: z.number().int().describe("Markdown files under knowledge/."),
    }),
  ),
  read_only_routing_enabled: z
    .boolean()
    .describe("True when a read-only root (group, public) is configured."),
  registry: z.object({
    exists: z.boolean(),
    entries: z.number().int(),
    malformed: z.array(z.string()).describe("Registry lines skipped, with their line numbers."),
  }),
  hot_file_exists: z.boolean(),
};

/**
 * Registers `knowledge_status` / `knowledge.status` (seed 003, ADR 015 "Status").
 *
 * @param server - the MCP server.
 * @param port - Lore's knowledge port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerStatusTool(
  server: McpServer,
  port: KnowledgePort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.status,
    {
      title: "Knowledge roots status",
      description:
        "List the knowledge roots this server reads — primary (yours, writable), named roots, " +
        "read-only roots such as `group` and `public` — with whether each folder exists and how " +
        "many files it holds. Call it when a root id is refused or a file is not found, or to " +
        `learn which \`knowledge_root_id\` values ${names.readFile} accepts.`,
      inputSchema: {},
      outputSchema: statusOutput,
      annotations: readOnlyAnnotations("Knowledge roots status"),
    },
    async () => {
      try {
        await port.ready;
        const answer = await port.status();
        return jsonResult({ ...answer });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
