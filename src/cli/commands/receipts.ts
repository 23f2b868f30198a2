import { MAX_RECEIPT_LIMIT } from "../../core/receipts/receipt.js";
import { formatReceipts } from "../../core/receipts/receipt-format.js";
import type { ReceiptsArgs } from "../../services/receipts/list-receipts.js";
import { atMostPositionals, flag, intOption, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore receipts [--session ID] [--since T] [--limit N] [--cursor C] [--json]";

/**
 * `lore receipts` (README "Load receipts"): the configured user's load receipts from the
 * local index, newest first — one per recall, with what each surfaced and why.
 */
export const receiptsCommand: Command = {
  name: "receipts",
  summary: "list the load receipts: what each recall surfaced and why",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Every recall (lore recall, lore mcp, the agent hooks) leaves a load receipt in the index:",
    "when, the client (cli, an MCP client's name, a hook event), the session, the query and",
    "tool, and each surfaced entry with its blob sha (a draft's revision) and why it fired",
    "(on_query word, on_tool name, text). Newest first; kept [receipts] keep_days (30).",
    "",
    "Options:",
    "  --session ID  only this agent session's receipts",
    "  --since T     only receipts at or after T: ISO 8601 (2026-12-01T10:00Z) or ms",
    `  --limit N     receipts per page, 1 to ${MAX_RECEIPT_LIMIT} (default 20)`,
    "  --cursor C    the next page (next_cursor of the previous answer)",
    "  --json        print {items, next_cursor}",
    "",
    "Exit codes: 0 done, 2 bad option.",
  ].join("\n"),
  options: {
    session: { type: "string" },
    since: { type: "string" },
    limit: { type: "string" },
    cursor: { type: "string" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    const input: ReceiptsArgs = {};
    const session = stringOption(args, "session");
    if (session !== undefined) input.session = session;
    const since = stringOption(args, "since");
    if (since !== undefined) input.since = since;
    const limit = intOption(args, "limit", { min: 1, max: MAX_RECEIPT_LIMIT });
    if (limit !== undefined) input.limit = limit;
    const cursor = stringOption(args, "cursor");
    if (cursor !== undefined) input.cursor = cursor;
    const lore = await ctx.openLore();
    const page = lore.receipts(input);
    if (flag(args, "json")) printJson(ctx.out, page);
    else for (const line of formatReceipts(page, ctx.lang)) ctx.out(line);
    return EXIT_CODES.ok;
  },
};
