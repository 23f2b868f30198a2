import { LoreError } from "../../core/errors/lore-error.js";
import { atMostPositionals, flag, printJson, stringOption } from "../args.js";
import type { Command, CommandArgs } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore read <file_path> [--root ID | --path DIR] [--json]";

/** The stable code of the stderr notice that the registry places the file in another root. */
export const LIVES_IN_OTHER_ROOT = "lives_in_other_root";

/**
 * The root options of the roots commands (`--root ID`, `--path DIR`), as the services take
 * them.
 *
 * @param args - parsed arguments.
 */
export function rootOptions(args: CommandArgs): {
  knowledge_root_id?: string;
  knowledge_path?: string;
} {
  const out: { knowledge_root_id?: string; knowledge_path?: string } = {};
  const root = stringOption(args, "root");
  const path = stringOption(args, "path");
  if (root !== undefined) out.knowledge_root_id = root;
  if (path !== undefined) out.knowledge_path = path;
  return out;
}

/**
 * The one `file_path` positional of a command.
 *
 * @param args - parsed arguments.
 * @param usage - the usage line to quote.
 * @throws LoreError `invalid_input` when it is missing or there are more.
 */
export function filePathArgument(args: CommandArgs, usage: string): string {
  atMostPositionals(args, 1, usage);
  const path = args.positionals[0];
  if (path === undefined || path.trim() === "") {
    throw new LoreError("invalid_input", {
      reason: `a file path is needed; usage: ${usage}`,
      reason_ru: `нужен путь к файлу; использование: ${usage}`,
    });
  }
  return path;
}

/** `lore read`: a file of a knowledge root (the CLI mirror of `read_file`). */
export const readCommand: Command = {
  name: "read",
  summary: "print a file of a knowledge root (primary, group, public …)",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Prints a file of a knowledge root; the path is relative to the root's knowledge/",
    "folder. Without --root the primary root is read; when the registry",
    "(knowledge/work/local/knowledge-roots-index-v1.md) says the file lives in another",
    "root, that root is named on stderr (a notice ending in [lives_in_other_root]); when",
    "primary has no such file, it is read from that root (exit 0).",
    "",
    "Options:",
    "  --root ID    the root id: group, public, a named root, user/primary (any case)",
    "  --path DIR   instead of --root: the absolute path of a root folder",
    "  --json       print {root, kind, file_path, text, bytes, lives_in?}",
    "",
    "Exit codes: 0 printed, 2 bad path or arguments, 3 no such file or root.",
  ].join("\n"),
  options: { root: { type: "string" }, path: { type: "string" }, json: { type: "boolean" } },
  async run(ctx, args) {
    const filePath = filePathArgument(args, USAGE);
    const lore = await ctx.openLore();
    const first = await lore.readFile({ file_path: filePath, ...rootOptions(args) });
    const where = first.lives_in;
    // Primary has no such file but the registry names its root (seed 003: `foo.md => group`
    // means read it with knowledge_root_id group): the CLI follows the registry, so the file
    // is printed, exit 0; a root without it either is that root's `path_not_found`.
    const answer =
      first.text === null && where !== undefined
        ? {
            ...(await lore.readFile({ file_path: first.file_path, knowledge_root_id: where.root })),
            lives_in: where,
          }
        : first;
    if (where !== undefined) {
      // A notice, not an error: the file is still printed; the code in brackets is stable.
      const from = first.text === null;
      ctx.err(
        ctx.lang === "ru"
          ? `lore: по реестру (строка ${where.registry_line}) файл живёт в корне ${where.root}${from ? "; прочитан оттуда" : ""}: lore read ${answer.file_path} --root ${where.root} [${LIVES_IN_OTHER_ROOT}]`
          : `lore: the registry (line ${where.registry_line}) says this file lives in root ${where.root}${from ? "; read from there" : ""}: lore read ${answer.file_path} --root ${where.root} [${LIVES_IN_OTHER_ROOT}]`,
      );
    }
    if (flag(args, "json")) {
      printJson(ctx.out, answer);
      return EXIT_CODES.ok;
    }
    if (answer.text === null) return EXIT_CODES.not_found;
    ctx.out(answer.text.replace(/\n$/, ""));
    return EXIT_CODES.ok;
  },
};
