import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import {
  ASK_DEFAULT_LIMIT,
  ASK_MAX_LIMIT,
  type AskProjectsInput,
} from "../../services/federation/ask-projects.js";
import type { FederationPort } from "../federation-port.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";
import { wikiTypeEnum } from "./wiki-args.js";

const limitError = coded(
  "invalid_limit",
  `\`limit\` must be a whole number from 1 to ${ASK_MAX_LIMIT}; leave it out for ${ASK_DEFAULT_LIMIT}`,
);

/**
 * `knowledge_ask_projects` output (seed 000 "Output").
 *
 * @param names - the exposed tool names the field descriptions mention.
 */
export const askProjectsOutput = (names: Pick<ToolNames, "getFrom">) => {
  const match = z.object({
    slug: z.string().describe(`Type-prefixed slug, e.g. concepts/x; pass it to ${names.getFrom}.`),
    type: wikiTypeEnum,
    title: z.string(),
    snippet: z.string().describe("~80 characters around the match, or (fetch failed)."),
  });
  return {
    asked_projects: z.array(z.string()),
    results: z.array(
      z.union([
        z.object({ project: z.string(), matches: z.array(match) }),
        z.object({ project: z.string(), error: z.string() }),
      ]),
    ),
    next_action_hint: z.string(),
  };
};

/**
 * Registers `knowledge_ask_projects` / `knowledge.ask_projects` (seed 000 "Tools",
 * seed 001 Task 3): the cached `.wiki/index.md` of the named projects filtered by query and
 * types, the top `limit` pages per project fetched live for a snippet; partial success.
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerAskProjectsTool(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.askProjects,
    {
      title: "Ask other projects' wikis",
      description:
        `Ask the named other projects (their .wiki/) for knowledge when the shared wiki ` +
        `(${names.wikiSearch}) has nothing. Pass \`projects: ["foo","bar"]\` — repository names ` +
        "(the user knows whom to ask; there is no broadcast). Searches the types " +
        "[entities, concepts, packages, sources] by default (raw is left out — heavy dumps; " +
        "list it in `types` to include it). Returns per project a list of matches with " +
        `snippets; read one whole with ${names.getFrom}. If nobody has the knowledge, ask a ` +
        `project to write it down with ${names.createTask}({target_project, body: "write ` +
        'down the knowledge about X in .wiki/concepts/x.md"}).',
      inputSchema: {
        query: z
          .string(coded("invalid_input", "`query` must be a string"))
          .max(500, coded("invalid_input", "`query` must be at most 500 characters"))
          .describe(
            "Words to find in page slugs and titles: a page matches when every word is in its slug or title (case-insensitive; ё = е).",
          ),
        projects: z
          .array(
            z
              .string(coded("invalid_input", "each project must be a repository name"))
              .min(1, coded("invalid_input", "a project name must not be empty"))
              .max(200, coded("invalid_input", "a project name is at most 200 characters")),
            coded("invalid_input", "`projects` must be a list of repository names"),
          )
          .min(1, coded("invalid_input", "`projects` must name at least one project"))
          .max(50, coded("invalid_input", "`projects` may name at most 50 projects"))
          .describe(`Repository names to ask, as ${names.projectsStatus} lists them.`),
        limit: z
          .number(limitError)
          .int(limitError)
          .min(1, limitError)
          .max(ASK_MAX_LIMIT, limitError)
          .optional()
          .describe(`Matches per project, 1 to ${ASK_MAX_LIMIT}. Default ${ASK_DEFAULT_LIMIT}.`),
        types: z
          .array(wikiTypeEnum)
          .min(1, coded("invalid_input", "`types` must list at least one type, or be left out"))
          .optional()
          .describe("Page types to search. Default: entities, concepts, packages, sources."),
      },
      outputSchema: askProjectsOutput(names),
      annotations: {
        title: "Ask other projects' wikis",
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    async (args, extra) => {
      try {
        // The request's signal: a notifications/cancelled stops further page reads.
        const input: AskProjectsInput = {
          query: args.query,
          projects: args.projects,
          lang,
          signal: extra.signal,
        };
        if (args.limit !== undefined) input.limit = args.limit;
        if (args.types !== undefined) input.types = args.types;
        return jsonResult({ ...(await port.askProjects(input, names.askProjects)) });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
