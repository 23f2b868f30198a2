import { join, resolve } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import { mintEntryId } from "../../services/knowledge/mint-entry-id.js";
import { atMostPositionals, flag, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { plural } from "../plural.js";
import { displayPath, KNOWLEDGE_DIR, projectRoot } from "../project-root.js";

const USAGE = "lore import <file|folder> [--out DIR] [--json]";

/** `lore import`: turns a file or a folder of agent-knowledge files into entries. */
export const importCommand: Command = {
  name: "import",
  summary: "turn a file or a folder of rules, skills or notes into entry files",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Reads one file (lore import CLAUDE.md) or the markdown files of a folder (Cursor rules,",
    "skills, wikis, notes) and writes one entry per file (a long file is split into parts): a",
    "fresh UUIDv7, origin human, on_query words and the summary taken from the file's",
    "description, name, title and headings, the original path in a Source section at the end",
    "of the body. Lore's own .gitriver/knowledge/ folders are left out, and so is any file",
    "that already parses as an entry (already_entry). Files lore export wrote (a Lore section",
    "of an AGENTS.md, Cursor rules and skills holding a <!-- lore:entry … --> comment) give",
    "their entries back with the ids, contracts and summaries they were exported with; an",
    "id that an entry file of .gitriver/knowledge/ (or of --out) already holds is not",
    "written again (id_taken). Prints the files written and those skipped with the reason.",
    "",
    "Options:",
    "  --out DIR   where to write (default: .gitriver/knowledge/imported at the repository top)",
    "  --json      print {imported: [{path, ids, taken?}], skipped, written}",
    "",
    "Exit codes: 0 done (skipped files are reported, not fatal), 2 neither a file nor a",
    "folder, 3 no such file or folder.",
  ].join("\n"),
  options: { out: { type: "string" }, json: { type: "boolean" } },
  async run(ctx, args) {
    atMostPositionals(args, 1, USAGE);
    const from = args.positionals[0];
    if (from === undefined) {
      throw new LoreError("invalid_input", {
        reason: `a file or a folder is needed; usage: ${USAGE}`,
        reason_ru: `нужен файл или папка; использование: ${USAGE}`,
      });
    }
    const outOption = stringOption(args, "out");
    const to = outOption
      ? resolve(ctx.cwd, outOption)
      : join(projectRoot(ctx.cwd), KNOWLEDGE_DIR, "imported");
    const { importFolder } = await import("../../services/import/import-folder.js");
    const report = await importFolder({
      from: resolve(ctx.cwd, from),
      to,
      mintId: mintEntryId,
      lang: ctx.lang,
      // Entries `lore export` wrote keep their ids: none may take one the repository holds.
      entriesDir: outOption ? to : join(projectRoot(ctx.cwd), KNOWLEDGE_DIR),
    });
    if (flag(args, "json")) printJson(ctx.out, report);
    else {
      for (const skip of report.skipped) ctx.out(`${skip.path}: ${skip.message} [${skip.code}]`);
      for (const file of report.imported) {
        for (const taken of file.taken ?? []) {
          ctx.out(
            ctx.lang === "ru"
              ? `${file.path}: идентификатор ${taken.id} уже занят файлом ${taken.path}; запись не импортирована [id_taken]`
              : `${file.path}: the id ${taken.id} is already held by ${taken.path}; entry not imported [id_taken]`,
          );
        }
      }
      ctx.out(
        ctx.lang === "ru"
          ? `импортировано файлов: ${report.imported.length}, записей: ${report.written.length}, пропущено: ${report.skipped.length} → ${displayPath(ctx.cwd, to)}`
          : `imported ${plural(report.imported.length, "file", "files")} as ${plural(report.written.length, "entry", "entries")}, skipped ${report.skipped.length} → ${displayPath(ctx.cwd, to)}`,
      );
    }
    return EXIT_CODES.ok;
  },
};
