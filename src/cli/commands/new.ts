import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type Diagnostic, formatDiagnosticLine } from "../../core/entry/diagnostic.js";
import type { ContractClause, Entry, Origin } from "../../core/entry/entry.js";
import { formatEntry } from "../../core/entry/format-entry.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import { PLACEHOLDER_DETAIL, PLACEHOLDER_SUMMARY } from "../../core/entry/placeholder-text.js";
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { mintEntryId } from "../../services/knowledge/mint-entry-id.js";
import { atMostPositionals, listOption, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { displayPath, KNOWLEDGE_DIR, projectRoot } from "../project-root.js";

const USAGE =
  "lore new [--title TEXT] [--words a,b] [--tool NAME] [--body TEXT] [--origin human|agent] [--dir D]";

/** What {@link writeNewEntry} needs. */
export interface NewEntryInput {
  /** Folder the file goes into (made when missing). */
  dir: string;
  /** The first paragraph of the body, which becomes the summary (also when `body` is given). */
  title?: string;
  /** The body after the title (the whole body when there is no title); replaces the placeholder. */
  body?: string;
  /** `on_query` words. */
  words?: string[];
  /** `on_tool` names, one clause each. */
  tools?: string[];
  /** Default `human` (a person runs the CLI). */
  origin?: Origin;
}

/**
 * Writes a fresh entry file `<dir>/<uuidv7>.md` (seed 004: server-made files are `<id>.md`),
 * checked with the strict parse before it is written.
 *
 * @returns the absolute path written and the entry.
 * @throws LoreError `invalid_entry` (data: `{diagnostics}`) when the strict parse refuses it;
 *   `file_exists` when the file is already there.
 */
export async function writeNewEntry(input: NewEntryInput): Promise<{ path: string; entry: Entry }> {
  const contract: ContractClause[] = [];
  if (input.words && input.words.length > 0) {
    contract.push({ mechanism: "on_query", params: { words: input.words } });
  }
  for (const name of input.tools ?? []) contract.push({ mechanism: "on_tool", params: { name } });
  const title = input.title?.trim() ?? "";
  const first = title || PLACEHOLDER_SUMMARY;
  const given = input.body?.trim();
  // The title is always the first paragraph (the summary), a given body follows it.
  // With a title and no body the entry is the title alone: no placeholder to forget.
  const rest = given ?? (title ? "" : PLACEHOLDER_DETAIL);
  const body =
    given === undefined || title ? `${[first, rest].filter(Boolean).join("\n\n")}\n` : `${given}\n`;
  const entry: Entry = {
    id: mintEntryId(),
    contract,
    origin: input.origin ?? "human",
    links: [],
    unknownKeys: {},
    body,
  };
  const text = formatEntry(entry);
  const path = join(resolve(input.dir), `${entry.id}.md`);
  const checked = parseEntry(text, { mode: "strict", path });
  // The placeholder is written on purpose, for the author to replace (`lore check` fails
  // until then); any other problem refuses the file.
  const problems = checked.diagnostics.filter(
    (d) => d.severity !== "info" && d.code !== "placeholder_text",
  );
  if (problems.length > 0) {
    throw new LoreError(
      "invalid_entry",
      { count: problems.length },
      { data: { diagnostics: problems } },
    );
  }
  await mkdir(resolve(input.dir), { recursive: true });
  try {
    await writeFile(path, text, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new LoreError("file_exists", { path }, { cause: error });
    }
    throw error;
  }
  return { path, entry };
}

/**
 * The `--words` values split at commas.
 *
 * @throws LoreError `invalid_input` when `--words` is given but holds no word (`--words ""`
 *   would write an empty contract clause nobody asked for).
 */
export function splitWords(values: string[]): string[] {
  const words = values
    .flatMap((value) => value.split(","))
    .map((word) => word.trim())
    .filter((word) => word.length > 0);
  if (values.length > 0 && words.length === 0) {
    throw new LoreError("invalid_input", {
      reason:
        "--words holds no word; give words separated by commas (--words deploy,release) or leave it out",
      reason_ru:
        "в --words нет ни одного слова; перечислите слова через запятую (--words деплой,релиз) или не указывайте его",
    });
  }
  return words;
}

/**
 * The `--tool` values: each the exact name of one tool.
 *
 * @throws LoreError `invalid_input` for an empty name or one holding white space
 *   (`--tool "run migration"`: tool names have no spaces; `on_tool` matches the exact name).
 */
export function toolNamesOption(values: string[]): string[] {
  return values.map((raw) => {
    const name = raw.trim();
    if (name.length === 0 || /\s/u.test(name)) {
      const suggestion = name.replace(/\s+/gu, "_");
      throw new LoreError("invalid_input", {
        reason: `--tool must be one tool's exact name, without spaces, not “${raw}”${suggestion ? ` (e.g. ${suggestion})` : ""}`,
        reason_ru: `--tool — точное имя одного инструмента, без пробелов, а не «${raw}»${suggestion ? ` (например, ${suggestion})` : ""}`,
      });
    }
    return name;
  });
}

/** `lore new`: writes a fresh entry file with a UUIDv7 and prints its path. */
export const newCommand: Command = {
  name: "new",
  summary: "write a fresh entry file <uuidv7>.md into .gitriver/knowledge/",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Writes a new entry file named <id>.md (a fresh UUIDv7) and prints its path. Without",
    "--title and --body the body is placeholder text: replace it (lore check fails with",
    "placeholder_text until you do), then commit the file like code.",
    "",
    "Options:",
    "  --title TEXT     first paragraph of the body: the summary agents see",
    "  --words a,b      on_query words (repeatable; comma-separated)",
    "  --tool NAME      on_tool name: one tool's exact name, no spaces (repeatable)",
    "  --body TEXT      the body instead of the placeholder; it follows --title when both",
    "  --origin WHO     human (default) or agent",
    "  --dir D          folder to write into (default: .gitriver/knowledge/ at the repository top)",
    "",
    "Exit codes: 0 written, 2 invalid input, 4 the file exists.",
  ].join("\n"),
  options: {
    title: { type: "string" },
    words: { type: "string", multiple: true },
    tool: { type: "string", multiple: true },
    body: { type: "string" },
    origin: { type: "string" },
    dir: { type: "string" },
  },
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    const origin = stringOption(args, "origin") ?? "human";
    if (origin !== "human" && origin !== "agent") {
      throw new LoreError("invalid_input", {
        reason: `--origin must be human or agent, not “${origin}”`,
        reason_ru: `--origin должен быть human или agent, а не «${origin}»`,
      });
    }
    const dirOption = stringOption(args, "dir");
    const dir = dirOption ? resolve(ctx.cwd, dirOption) : join(projectRoot(ctx.cwd), KNOWLEDGE_DIR);
    const input: NewEntryInput = {
      dir,
      words: splitWords(listOption(args, "words")),
      tools: toolNamesOption(listOption(args, "tool")),
      origin,
    };
    const title = stringOption(args, "title");
    if (title !== undefined) input.title = title;
    const body = stringOption(args, "body");
    if (body !== undefined) input.body = body;
    const { path } = await writeNewEntry(input).catch((error: unknown) => {
      // The refusal's one line only counts the problems: name each one, as `lore check` does.
      if (isLoreError(error) && error.code === "invalid_entry") {
        const found = error.data.diagnostics;
        for (const d of Array.isArray(found) ? (found as Diagnostic[]) : []) {
          const shown = d.path === undefined ? d : { ...d, path: displayPath(ctx.cwd, d.path) };
          ctx.err(formatDiagnosticLine(shown, ctx.lang));
        }
      }
      throw error;
    });
    ctx.out(displayPath(ctx.cwd, path));
    return EXIT_CODES.ok;
  },
};
