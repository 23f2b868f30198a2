import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { FederationPort } from "../federation-port.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { wikiSlugArg } from "./wiki-args.js";

/** `knowledge_promote` output (services/wiki/promote-page.ts `PromoteResult`). */
export const promoteOutput = {
  slug: z.string(),
  title: z.string(),
  wiki: z.string(),
  copied: z.boolean(),
  index_updated: z.boolean(),
};

/**
 * Registers `knowledge_promote` / `knowledge.promote`: copies one page of
 * the current project's wiki into the shared wiki and its index.
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerPromoteTool(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.promote,
    {
      title: "Promote a page to the shared wiki",
      description:
        "Copy one page of this project's wiki into the shared wiki (same slug) and list it in " +
        `the shared index.md, so ${names.wikiSearch} finds it for every project. Take the slug ` +
        `from ${names.suggestPromote}. A different page already at that slug is refused.`,
      inputSchema: {
        slug: wikiSlugArg("The page's slug with its type prefix: concepts/foo."),
      },
      outputSchema: promoteOutput,
      annotations: {
        title: "Promote a page to the shared wiki",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ slug }) => {
      try {
        return jsonResult({ ...(await port.promote(slug, names.promote)) });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
