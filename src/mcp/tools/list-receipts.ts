import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import { DEFAULT_RECEIPT_LIMIT, MAX_RECEIPT_LIMIT } from "../../core/receipts/receipt.js";
import { receiptPageSchema } from "../../core/receipts/receipt-schema.js";
import type { ReceiptsArgs } from "../../services/receipts/list-receipts.js";
import type { KnowledgePort } from "../knowledge-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";

const limitError = coded(
  "invalid_limit",
  `\`limit\` must be a whole number from 1 to ${MAX_RECEIPT_LIMIT}; leave it out for ${DEFAULT_RECEIPT_LIMIT}`,
);
const sinceError = coded(
  "invalid_input",
  "`since` must be an ISO 8601 time or a number of ms since the epoch",
);

/**
 * Registers `knowledge_receipts` / `knowledge.receipts` (README "Load receipts"): the
 * caller's load receipts, newest first — what each recall surfaced, through which client,
 * and why each hit fired. Listed only with a port that has `receipts` (local `lore mcp`: the
 * configured user's; a team server's `/mcp`: the token user's, hits filtered by rights).
 *
 * @param server - the MCP server.
 * @param receipts - the port's `receipts`.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerReceiptsTool(
  server: McpServer,
  receipts: NonNullable<KnowledgePort["receipts"]>,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.receipts,
    {
      title: "Load receipts",
      description:
        `What ${names.recall} surfaced for you and why: one receipt per recall (yours, ` +
        "newest first) with its time, client, session, query and tool, and each listed entry " +
        "with its id, revision (blob sha, or a draft's revision) and why it fired (an " +
        "`on_query` word, the `on_tool` name, text rank). Filter by `session` or `since`; page " +
        "with `cursor`. Receipts are kept `[receipts] keep_days` (default 30).",
      inputSchema: {
        session: z
          .string(coded("invalid_input", "`session` must be a string"))
          .min(1, coded("invalid_input", "`session` must not be empty"))
          .max(200, coded("invalid_input", "`session` must be at most 200 characters"))
          .optional()
          .describe(
            "Only the receipts of this agent session (an MCP session id, a hook's session_id).",
          ),
        since: z
          .union([z.string().max(64), z.number().int().nonnegative()], sinceError)
          .optional()
          .describe(
            "Only receipts at or after: ISO 8601 (`2026-12-01T10:00:00Z`) or ms since the epoch.",
          ),
        limit: z
          .number(limitError)
          .int(limitError)
          .min(1, limitError)
          .max(MAX_RECEIPT_LIMIT, limitError)
          .optional()
          .describe(`Most receipts, 1 to ${MAX_RECEIPT_LIMIT}. Default ${DEFAULT_RECEIPT_LIMIT}.`),
        cursor: z
          .string(coded("invalid_cursor", "`cursor` must be the `next_cursor` string of an answer"))
          .max(
            200,
            coded("invalid_cursor", "`cursor` must be the `next_cursor` string of an answer"),
          )
          .optional()
          .describe("`next_cursor` of a previous answer: older receipts."),
      },
      outputSchema: receiptPageSchema.shape,
      annotations: readOnlyAnnotations("Load receipts"),
    },
    async (args) => {
      try {
        const input: ReceiptsArgs = {};
        if (args.session !== undefined) input.session = args.session;
        if (args.since !== undefined) input.since = args.since;
        if (args.limit !== undefined) input.limit = args.limit;
        if (args.cursor !== undefined) input.cursor = args.cursor;
        return jsonResult({ ...(await receipts(input)) });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
