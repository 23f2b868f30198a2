import { LoreError } from "../../core/errors/lore-error.js";
import { formatWhy } from "../../core/receipts/receipt-format.js";
import { atMostPositionals, flag, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore why <id> [--repo R] [--json]";

/**
 * `lore why <id>` (README "Load receipts"): for one entry, when and why it surfaced (from
 * the load receipts) and why it did not — unreachable (which mechanism), no contract, never
 * matched, outranked.
 */
export const whyCommand: Command = {
  name: "why",
  summary: "explain when and why an entry surfaced, or why it did not",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Reads the load receipts of the configured user (lore receipts) and the entry as indexed:",
    "  surfaced        the receipts that listed it: when, client, query or tool, rank, why",
    "  unreachable     it needs a mechanism this version lacks (named): its contract is inert",
    "  outranked       a recall matched it (by contract or text) but it fell below the page",
    "  no_contract     it has no on_query/on_tool trigger and no recall matched its text",
    "  never_matched   no recall of the receipts matched its contract or text",
    "",
    "Options:",
    "  --repo R   the repository (identity or folder) when several hold the id",
    "  --json     print the answer as JSON",
    "",
    "Exit codes: 0 explained, 2 bad option, 3 no entry with that id, 4 the id is held by",
    "several sources.",
  ].join("\n"),
  options: { repo: { type: "string" }, json: { type: "boolean" } },
  async run(ctx, args) {
    atMostPositionals(args, 1, USAGE);
    const id = args.positionals[0]?.trim();
    if (!id) {
      throw new LoreError("invalid_input", {
        reason: `an id is needed; usage: ${USAGE}`,
        reason_ru: `нужен идентификатор; использование: ${USAGE}`,
      });
    }
    const lore = await ctx.openLore();
    const repo = stringOption(args, "repo");
    const answer = lore.why(id, repo === undefined ? {} : { repo });
    if (flag(args, "json")) printJson(ctx.out, answer);
    else for (const line of formatWhy(answer, ctx.lang)) ctx.out(line);
    return EXIT_CODES.ok;
  },
};
