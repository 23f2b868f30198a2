import { LoreError } from "../../core/errors/lore-error.js";
import { atMostPositionals, flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { plural } from "../plural.js";

const USAGE = "lore forget <repo> [--json]";

/** `lore forget`: drops one repository's entries from the index (git keeps the files). */
export const forgetCommand: Command = {
  name: "forget",
  summary: "drop a repository from the index (its files in git stay)",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Drops every entry and file report of one repository from the index: name it by its",
    "identity or its folder as `lore repos` lists them, or a root as root:<id>. Usage",
    "counters stay (they are keyed by entry id). `lore index` brings it back.",
    "",
    "Options:",
    "  --json   print {repo, files}",
    "",
    "Exit codes: 0 dropped, 3 no such indexed repository.",
  ].join("\n"),
  options: { json: { type: "boolean" } },
  async run(ctx, args) {
    atMostPositionals(args, 1, USAGE);
    const name = args.positionals[0]?.trim();
    if (!name) {
      throw new LoreError("invalid_input", {
        reason: `a repository is needed; usage: ${USAGE}`,
        reason_ru: `нужен репозиторий; использование: ${USAGE}`,
      });
    }
    const lore = await ctx.openLore();
    const result = lore.forget(name);
    if (flag(args, "json")) printJson(ctx.out, result);
    else {
      ctx.out(
        ctx.lang === "ru"
          ? `${result.repo}: удалён из указателя (файлов: ${result.files})`
          : `${result.repo}: dropped from the index (${plural(result.files, "file", "files")})`,
      );
    }
    return EXIT_CODES.ok;
  },
};
