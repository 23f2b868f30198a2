import { LoreError } from "../../core/lore-error.js";
import { atMostPositionals, flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore get <id> [--json]";

/** `lore get`: one entry whole, by id; counts a read (issue 2 §4). */
export const getCommand: Command = {
  name: "get",
  summary: "print one entry whole by id (counts a read)",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Prints the entry as its file (frontmatter and body), or as JSON with --json. Opening",
    "counts as a read for the configured user. Unreachable entries are found too.",
    "",
    "Options:",
    "  --json   print the entry as JSON",
    "",
    "Exit codes: 0 found, 3 no entry with that id.",
  ].join("\n"),
  options: { json: { type: "boolean" } },
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
    const entry = await lore.open(id);
    if (flag(args, "json")) printJson(ctx.out, entry);
    else ctx.out(entry.text.replace(/\n$/, ""));
    return EXIT_CODES.ok;
  },
};
