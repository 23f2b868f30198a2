import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { FederationPort } from "../federation-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";

/** `knowledge_suggest_promote` output. */
export const suggestPromoteOutput = {
  suggestions: z.array(
    z.object({
      slug: z.string(),
      type: z.string(),
      title: z.string(),
      reason: z.enum(["absent", "not_in_index"]),
      why: z.string(),
    }),
  ),
  notices: z
    .array(
      z.object({
        code: z.literal("symlinked_type_folder"),
        folder: z.string(),
        message: z.string(),
      }),
    )
    .describe("Folders of this project's wiki that were skipped, and why."),
};

/**
 * Registers `knowledge_suggest_promote` / `knowledge.suggest_promote`:
 * the current project's pages that the shared wiki lacks, with a reason.
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerSuggestPromoteTool(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.suggestPromote,
    {
      title: "Pages worth promoting to the shared wiki",
      description:
        "List the pages of this project's wiki that the shared wiki lacks (no page at that " +
        "slug, or not in its index), each with the reason. Show them to the user; promote " +
        `the ones every project should see with ${names.promote}.`,
      inputSchema: {},
      outputSchema: suggestPromoteOutput,
      annotations: readOnlyAnnotations("Pages worth promoting to the shared wiki"),
    },
    async () => {
      try {
        const report = await port.suggestPromote(names.suggestPromote);
        return jsonResult({
          suggestions: report.suggestions,
          notices: report.notices.map((n) => ({ ...n, message: n.message[lang] })),
        });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
