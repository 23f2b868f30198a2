import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import {
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  type WikiSearchInput,
} from "../../services/wiki/wiki-search.js";
import type { FederationPort } from "../federation-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";
import { wikiTypeEnum } from "./wiki-args.js";

const limitError = coded(
  "invalid_limit",
  `\`limit\` must be a whole number from 1 to ${SEARCH_MAX_LIMIT}; leave it out for ${SEARCH_DEFAULT_LIMIT}`,
);

/** `knowledge_search` output. */
export const searchWikiOutput = {
  query: z.string(),
  results: z.array(
    z.object({
      slug: z.string(),
      type: wikiTypeEnum,
      title: z.string(),
      snippet: z.string(),
      matched: z.enum(["name", "body"]),
    }),
  ),
  total: z.number().int(),
};

/**
 * Registers `knowledge_search` / `knowledge.search` (seed 000 "Problem": the shared wiki
 * only): substring over slug + title, then body, with a snippet.
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerSearchWikiTool(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.wikiSearch,
    {
      title: "Search the shared wiki",
      description:
        "Search the shared wiki (projects-wiki) — knowledge promoted for every project: a " +
        "substring of page slugs and titles first, then of page bodies (case-insensitive; " +
        `ё = е), with a snippet. Read a page whole with ${names.wikiGet}. When nothing ` +
        `matches, ask the projects the user names with ${names.askProjects}.`,
      inputSchema: {
        query: z
          .string(coded("invalid_input", "`query` must be a string"))
          .min(1, coded("empty_query", "`query` must not be empty"))
          .max(500, coded("invalid_input", "`query` must be at most 500 characters"))
          .describe("The substring to find, e.g. 'yarn' or 'ёлка'."),
        limit: z
          .number(limitError)
          .int(limitError)
          .min(1, limitError)
          .max(SEARCH_MAX_LIMIT, limitError)
          .optional()
          .describe(`Most pages, 1 to ${SEARCH_MAX_LIMIT}. Default ${SEARCH_DEFAULT_LIMIT}.`),
        types: z
          .array(wikiTypeEnum)
          .min(1, coded("invalid_input", "`types` must list at least one type, or be left out"))
          .optional()
          .describe("Page types to search. Default: entities, concepts, packages, sources."),
      },
      outputSchema: searchWikiOutput,
      annotations: readOnlyAnnotations("Search the shared wiki"),
    },
    async (args) => {
      try {
        const input: WikiSearchInput = { query: args.query };
        if (args.limit !== undefined) input.limit = args.limit;
        if (args.types !== undefined) input.types = args.types;
        return jsonResult({ ...(await port.searchShared(input, names.wikiSearch)) });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
