import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../../services/knowledge/hit-page.js";
import type { KnowledgePort, RecallArgs } from "../knowledge-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";
import { recallOutput } from "./output-schemas.js";

const limitError = coded(
  "invalid_limit",
  `\`limit\` must be a whole number from 1 to ${MAX_LIMIT}; leave it out for ${DEFAULT_LIMIT}`,
);

/**
 * Registers the recall tool (`knowledge_recall` / `knowledge.recall`): the main job of
 * contract hits, then ranked full-text hits, summaries only, counted as shown.
 *
 * @param server - the MCP server.
 * @param port - Lore's knowledge port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 * @param clientName - the client's name for load receipts when this connection saw no
 *   `initialize` (a stateless server); else its `clientInfo.name` is used.
 */
export function registerRecallTool(
  server: McpServer,
  port: KnowledgePort,
  names: ToolNames,
  lang: Lang,
  clientName?: string,
): RegisteredTool {
  return server.registerTool(
    names.recall,
    {
      title: "Recall team knowledge",
      description:
        "Find what the team already knows before you act. Call it at the start of a task with " +
        "the user's request as `query`, and before you call a tool with that tool's name as " +
        "`tool`. Searches the team's entries, the notes of your knowledge roots and this " +
        "project's wiki pages in one list: hits matching more of the query's words come first, " +
        "and of equal matches an entry whose contract names the word or the tool. Returns " +
        "summaries only — id, kind (entry, note, wiki), source, path, summary, why it matched, score — " +
        `at most \`limit\`, with \`total\` and \`next_cursor\`. Call ${names.open} with an id to ` +
        "read an entry whole. Give `query`, `tool`, or both. Hits from a knowledge root's notes " +
        `carry \`root\`: read those with ${names.readFile}(path, knowledge_root_id=root).`,
      inputSchema: {
        query: z
          .string(coded("invalid_input", "`query` must be a string"))
          .max(2000, coded("invalid_input", "`query` must be at most 2000 characters"))
          .optional()
          .describe(
            "The task or question in the user's words, any language (English, Russian). Word " +
              "forms match: 'как откатить релиз' finds entries about 'откат'.",
          ),
        tool: z
          .string(coded("invalid_input", "`tool` must be a string"))
          .max(200, coded("invalid_input", "`tool` must be at most 200 characters"))
          .optional()
          .describe(
            "The exact name of the tool you are about to call (e.g. `run_migration`); entries " +
              "tied to that tool surface first.",
          ),
        limit: z
          .number(limitError)
          .int(limitError)
          .min(1, limitError)
          .max(MAX_LIMIT, limitError)
          .optional()
          .describe(`Most hits to return, 1 to ${MAX_LIMIT}. Default ${DEFAULT_LIMIT}.`),
        cursor: z
          .string(coded("invalid_cursor", "`cursor` must be the `next_cursor` string of an answer"))
          .max(
            1000,
            coded("invalid_cursor", "`cursor` must be the `next_cursor` string of an answer"),
          )
          .optional()
          .describe("`next_cursor` of a previous answer, to get the next page of the same query."),
        knowledge_root_id: z
          .string(coded("invalid_input", "`knowledge_root_id` must be a root id string"))
          .max(100, coded("invalid_input", "`knowledge_root_id` is too long for a root id"))
          .optional()
          .describe(
            "Only the notes of this knowledge root (`group`, `public`, `primary`, …; any case). " +
              "Leave out to search entries and every root.",
          ),
        count_shown: z
          .boolean(coded("invalid_input", "`count_shown` must be true or false"))
          .optional()
          .describe(
            "Default true: the entries listed count as shown to you (the usage stats of " +
              `${names.stats}). Pass false when your client marks what it shows itself ` +
              "(`POST …/knowledge/shown`), so that nothing is counted twice.",
          ),
      },
      outputSchema: recallOutput(names),
      annotations: readOnlyAnnotations("Recall team knowledge"),
    },
    async (args, extra) => {
      try {
        // Sees a moved HEAD first; a cancelled request cancels that refresh.
        await (port.fresh === undefined ? port.ready : port.fresh(extra.signal));
        const input: RecallArgs = {};
        if (args.query !== undefined) input.query = args.query;
        if (args.tool !== undefined) input.tool = args.tool;
        if (args.limit !== undefined) input.limit = args.limit;
        if (args.cursor !== undefined) input.cursor = args.cursor;
        if (args.knowledge_root_id !== undefined) input.knowledge_root_id = args.knowledge_root_id;
        if (args.count_shown !== undefined) input.count_shown = args.count_shown;
        // The load receipt names the client (its `initialize` clientInfo.name) and the MCP
        // session where the transport has one (README "Load receipts").
        const client = server.server.getClientVersion()?.name ?? clientName;
        if (client !== undefined && client !== "") input.client = client;
        if (extra.sessionId !== undefined) input.session = extra.sessionId;
        const answer = await port.recall(input);
        return jsonResult({ ...answer });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
