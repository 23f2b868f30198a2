import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Lang } from "../../core/errors/localized-text.js";
import type { FederationPort } from "../federation-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { wikiSlugArg } from "./wiki-args.js";

/**
 * Registers `knowledge_get` / `knowledge.get`: one page of the shared wiki, its raw
 * markdown as the result's text.
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerGetWikiPageTool(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.wikiGet,
    {
      title: "Read a page of the shared wiki",
      description:
        `The full text of one page of the shared wiki, by the slug ${names.wikiSearch} ` +
        'returned (type prefix included, e.g. "concepts/foo").',
      inputSchema: {
        slug: wikiSlugArg("Path in the wiki without .md, with the type prefix: concepts/foo."),
      },
      annotations: readOnlyAnnotations("Read a page of the shared wiki"),
    },
    async ({ slug }) => {
      try {
        const page = await port.getShared(slug, names.wikiGet);
        return { content: [{ type: "text", text: page.body }] };
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
