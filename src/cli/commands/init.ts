import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { tomlPathString } from "../../core/config/toml-path.js";
import { userConfigPath } from "../../main/load-config.js";
import type { ToolNameStyle } from "../../mcp/tool-names.js";
import { atMostPositionals, stringOption } from "../args.js";
import type { CliContext, Command, CommandArgs } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { initNotes } from "../init-notes.js";
import { displayPath, KNOWLEDGE_DIR, projectRoot } from "../project-root.js";
import { writeNewEntry } from "./new.js";

const USAGE = "lore init [--dir D] | lore init --notes PATH [--tool-names=STYLE]";

const WELCOME_BODY = `Team knowledge lives in .gitriver/knowledge/: one markdown file per entry, reviewed and merged like code.

The first paragraph of the body is the summary agents see when they recall; the rest says
why, what to try and when it does not work. The frontmatter's \`contract\` says when an
entry surfaces: \`on_query\` words match a question in any word form (\`откат\` fires on
"как откатить"), \`on_tool\` names the tool an agent is about to call.

Write a new entry with \`lore new --title "..." --words a,b\`, check the folder with
\`lore check\`, commit, then \`lore index .\` and ask with \`lore recall "..."\`.
Delete this entry when the folder has real ones.`;

/**
 * The tool name style the notes are written for: `--tool-names`, else `[mcp] tool_names`;
 * a configuration that does not exist yet (`init --notes` creates it) means the default.
 */
function notesStyle(
  ctx: CliContext,
  args: CommandArgs,
  styleOf: (ctx: CliContext, args: CommandArgs) => ToolNameStyle,
): ToolNameStyle {
  if (stringOption(args, "tool-names") !== undefined) return styleOf(ctx, args);
  try {
    return styleOf(ctx, args);
  } catch {
    // A missing or broken configuration: recordPrimary reports a broken one itself.
    return "underscore";
  }
}

async function countEntries(dir: string): Promise<number> {
  try {
    const names = await readdir(dir, { recursive: true });
    return names.filter((name) => name.endsWith(".md")).length;
  } catch {
    return 0;
  }
}

/**
 * `lore init`: makes `.gitriver/knowledge/` at the repository top (or `--dir`) with one
 * example entry. It writes no `lore.toml`: the defaults need none (the README shows one).
 */
export const initCommand: Command = {
  name: "init",
  summary: "create .gitriver/knowledge/ with one example entry",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Creates .gitriver/knowledge/ at the top of the current git repository (or in the",
    "current folder when it is not in one) with one example entry, and prints what it",
    "wrote. Does nothing when the folder already holds entries. Writes no lore.toml: the",
    "defaults need none.",
    "",
    "With --notes PATH it creates a primary knowledge root instead (seed 003): PATH/knowledge/",
    "with the registry example, the hot-section example and work/local/README.md, and",
    "PATH/agent-notes.md with the knowledge-roots-routing-v1 section (existing files are",
    "kept); then it records [knowledge] primary = '<PATH>' in --config FILE, else",
    "$XDG_CONFIG_HOME/lore/lore.toml (created, or appended to when it has no [knowledge]).",
    "The notes name the MCP tools as `lore mcp` exposes them: --tool-names, else [mcp]",
    "tool_names, else underscore (seed: route_context, read_knowledge_file).",
    "",
    "Options:",
    "  --dir D             the repository or folder to set up (default: the current one)",
    "  --notes PATH        create a primary knowledge root at PATH",
    "  --tool-names=STYLE  underscore, dotted or seed: the tool names the notes mention",
    "",
    "Exit codes: 0 done, 2 invalid input.",
  ].join("\n"),
  options: { dir: { type: "string" }, notes: { type: "string" }, "tool-names": { type: "string" } },
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    const notes = stringOption(args, "notes");
    if (notes !== undefined) {
      const config = stringOption(args, "config");
      const target = config === undefined ? userConfigPath() : resolve(ctx.cwd, config);
      const { toolNames } = await import("../../mcp/tool-names.js");
      const { toolNameStyleOption } = await import("./mcp.js");
      const names = toolNames(notesStyle(ctx, args, toolNameStyleOption));
      const result = await initNotes(notes, ctx.cwd, target, names);
      for (const file of result.written) ctx.out(displayPath(ctx.cwd, file));
      ctx.err(
        result.config === null
          ? ctx.lang === "ru"
            ? `в ${target} уже есть [knowledge]; не изменён — добавьте primary = ${tomlPathString(result.root)} сами`
            : `${target} already has [knowledge]; left alone — set primary = ${tomlPathString(result.root)} there`
          : ctx.lang === "ru"
            ? `записано в ${result.config}: [knowledge] primary = ${tomlPathString(result.root)}`
            : `recorded in ${result.config}: [knowledge] primary = ${tomlPathString(result.root)}`,
      );
      return EXIT_CODES.ok;
    }
    const dirOption = stringOption(args, "dir");
    const root = dirOption ? resolve(ctx.cwd, dirOption) : projectRoot(ctx.cwd);
    const folder = join(root, KNOWLEDGE_DIR);
    const existing = await countEntries(folder);
    if (existing > 0) {
      ctx.out(
        ctx.lang === "ru"
          ? `${displayPath(ctx.cwd, folder)} уже есть, записей: ${existing}; ничего не изменено`
          : `${displayPath(ctx.cwd, folder)} already holds ${existing} entr${existing === 1 ? "y" : "ies"}; nothing changed`,
      );
      return EXIT_CODES.ok;
    }
    const { path } = await writeNewEntry({
      dir: folder,
      body: WELCOME_BODY,
      words: ["lore", "knowledge", "entry", "знание", "запись"],
      origin: "human",
    });
    ctx.out(displayPath(ctx.cwd, path));
    ctx.err(
      ctx.lang === "ru"
        ? 'Готово. Дальше: lore new --title "...", git commit, lore index .'
        : 'Done. Next: lore new --title "...", git commit, lore index .',
    );
    return EXIT_CODES.ok;
  },
};
