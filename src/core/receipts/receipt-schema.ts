/**
 * The zod schemas of load receipts (`receipt.ts` `ReceiptView`, `ReceiptPage`): one source
 * for the REST routes' OpenAPI document and the MCP `knowledge_receipts` tool's output.
 * Pure.
 */
import { z } from "zod";
import { MAX_RECEIPT_LIMIT } from "./receipt.js";

const whySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("on_query"), word: z.string() }),
  z.object({ kind: z.literal("on_tool"), name: z.string() }),
  z.object({ kind: z.literal("text") }),
]);

/** One surfaced hit. */
export const receiptHitSchema = z.object({
  rank: z
    .number()
    .int()
    .describe("Its place in the recall's list, 1-based (a filtered view: among the hits shown)."),
  repo: z.string().describe("The repository it belongs to (a draft's: its repository)."),
  id: z.string().describe("The entry id."),
  revision: z
    .string()
    .describe("The version shown: the file's git blob sha; a draft's: the blob sha of its text."),
  draft: z.boolean(),
  score: z.number(),
  why: z.array(whySchema).describe("Why it fired: an on_query word, the on_tool name, text rank."),
});

/** One receipt. */
export const receiptSchema = z.object({
  id: z.string().describe("The receipt id; newer receipts have larger ids."),
  at: z.string().describe("When the recall ran, ISO 8601 UTC."),
  user: z.string(),
  client: z
    .string()
    .describe(
      "`cli`, `http`, an MCP client's name, a hook event (`claude-code:PreToolUse`), `unknown`.",
    ),
  session: z.string().nullable().describe("The agent session (MCP session id, hook session_id)."),
  query: z.string().nullable(),
  tool: z.string().nullable(),
  offset: z
    .number()
    .int()
    .nullable()
    .describe("Hits on earlier pages; null in a view filtered by rights."),
  limit: z.number().int().describe("The page size asked for."),
  total: z
    .number()
    .int()
    .nullable()
    .describe("The candidates the recall counted; null in a view filtered by rights."),
  hits: z.array(receiptHitSchema),
});

/** `{items, next_cursor}`. */
export const receiptPageSchema = z.object({
  items: z.array(receiptSchema).describe("Newest first."),
  next_cursor: z
    .string()
    .nullable()
    .describe("Pass back as `cursor` for older receipts; null: none."),
});

/** The query of the receipts routes (strings, as a query string carries them). */
export const receiptQuerySchema = z.strictObject({
  session: z.string().min(1).max(200).optional(),
  since: z.string().min(1).max(64).optional().describe("ISO 8601 or ms since the epoch."),
  limit: z
    .string()
    .regex(/^\d{1,3}$/)
    .optional()
    .describe(`1 to ${MAX_RECEIPT_LIMIT}; default 20.`),
  cursor: z.string().min(1).max(200).optional(),
});
