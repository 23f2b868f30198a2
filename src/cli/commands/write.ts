import { readFileSync } from "node:fs";
import { LoreError } from "../../core/errors/lore-error.js";
import { flag, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { filePathArgument, rootOptions } from "./read.js";

const USAGE =
  "lore write <file_path> [--mode create|replace|append] [--text T | --from FILE | stdin] [--json]";

/** The text to write: `--from FILE`, else stdin; a missing or unreadable file is refused. */
function readContent(from: string | undefined): string {
  if (from === undefined) return readFileSync(0, "utf8");
  try {
    return readFileSync(from, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new LoreError("path_not_found", { path: from });
    if (code === "EISDIR") {
      throw new LoreError("invalid_input", {
        reason: `--from ${from} is a folder, not a file`,
        reason_ru: `--from ${from} — папка, а не файл`,
      });
    }
    throw error;
  }
}

/** `lore write`: a file of the primary root (the CLI mirror of `write_file`). */
export const writeCommand: Command = {
  name: "write",
  summary: "write a file of the primary root (read-only roots refuse)",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Writes a file of the primary root atomically; the path is relative to its knowledge/",
    "folder. The text comes from --text, --from FILE, or stdin. Any other root (--root",
    "group) is refused with read_only_root and nothing is written.",
    "",
    "Options:",
    "  --mode M     create (default; refused when the file exists), replace, append",
    "  --text T     the text to write",
    "  --from FILE  read the text from a file",
    "  --root ID    the root (only the primary root takes writes)",
    "  --path DIR   instead of --root: the absolute path of a root folder",
    "  --json       print {root, file_path, mode, created, bytes}",
    "",
    "Exit codes: 0 written, 2 bad path or arguments, 4 the file exists (create),",
    "5 the root is read-only.",
  ].join("\n"),
  options: {
    mode: { type: "string" },
    text: { type: "string" },
    from: { type: "string" },
    root: { type: "string" },
    path: { type: "string" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const filePath = filePathArgument(args, USAGE);
    const mode = stringOption(args, "mode") ?? "create";
    if (mode !== "create" && mode !== "replace" && mode !== "append") {
      throw new LoreError("invalid_input", {
        reason: `--mode must be create, replace or append, not “${mode}”`,
        reason_ru: `--mode должен быть create, replace или append, а не «${mode}»`,
      });
    }
    const from = stringOption(args, "from");
    const content = stringOption(args, "text") ?? readContent(from);
    const lore = await ctx.openLore();
    const answer = await lore.writeFile({
      file_path: filePath,
      content,
      mode,
      ...rootOptions(args),
    });
    if (flag(args, "json")) printJson(ctx.out, answer);
    else
      ctx.out(
        `${answer.root}:${answer.file_path} (${answer.bytes} bytes, ${answer.created ? "created" : answer.mode})`,
      );
    return EXIT_CODES.ok;
  },
};
