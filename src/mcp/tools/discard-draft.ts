import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { DraftsPort } from "../knowledge-port.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";
import { draftPlaceSchema } from "./draft-args.js";

/**
 * Registers `knowledge_discard` / `knowledge.discard`: removes a draft (its author, or a
 * writer of the repository). The result: `{discarded: id}`.
 *
 * @param server - the MCP server.
 * @param drafts - the drafts port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerDiscardDraftTool(
  server: McpServer,
  drafts: DraftsPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.discard,
    {
      title: "Remove a knowledge draft",
      description:
        "Remove a draft that turned out wrong or no longer applies (yours, or any when you " +
        "may write to the repository). A delivered draft's file stays in its branch; remove " +
        `it there in review. Ids come from ${names.drafts} or ${names.recall}.`,
      inputSchema: {
        repo: draftPlaceSchema.repo,
        id: z
          .string(coded("invalid_input", "`id` must be a draft id"))
          .min(1, coded("invalid_input", "`id` must not be empty"))
          .describe("The draft's id."),
      },
      outputSchema: { discarded: z.string() },
      annotations: {
        title: "Remove a knowledge draft",
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async (args) => {
      try {
        await drafts.discard({
          id: args.id,
          ...(args.repo === undefined ? {} : { repo: args.repo }),
        });
        return jsonResult({ discarded: args.id });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
