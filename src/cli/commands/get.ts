import { LoreError } from "../../core/errors/lore-error.js";
import { atMostPositionals, flag, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore get <id> [--repo R] [--json]";

/** `lore get`: one entry whole, by id; counts a read (recall). */
export const getCommand: Command = {
  name: "get",
  summary: "print one entry whole by id (counts a read)",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Prints the entry's file as stored at the indexed commit (its bytes, read from git), or",
    "as JSON with --json. Opening counts as a read for the configured user. Unreachable",
    "entries are found too. When entries of two sources hold the id, --repo names one.",
    "",
    "Options:",
    "  --repo R   the repository (identity or folder, see lore repos) or root:<id>",
    "  --json   print the entry as JSON",
    "",
    "Exit codes: 0 found, 3 no entry with that id, 4 the id is held by several sources.",
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
    const entry = await lore.open(id, repo === undefined ? {} : { repo });
    if (flag(args, "json")) printJson(ctx.out, entry);
    else ctx.outRaw === undefined ? ctx.out(entry.text.replace(/\n$/, "")) : ctx.outRaw(entry.text);
    return EXIT_CODES.ok;
  },
};
