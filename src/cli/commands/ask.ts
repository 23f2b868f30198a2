import { LoreError } from "../../core/errors/lore-error.js";
import { WIKI_PAGE_TYPES, type WikiPageType } from "../../core/wiki/wiki-index.js";
import { ASK_MAX_LIMIT, type AskProjectsInput } from "../../services/federation/ask-projects.js";
import { flag, intOption, listOption, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore ask <query> --projects a,b [--limit N] [--type T]... [--json]";

/**
 * Reads repeatable `--type` values (comma lists allowed).
 *
 * @throws LoreError `invalid_input` for a value that is not a page type.
 */
export function typesOption(values: string[]): WikiPageType[] | undefined {
  const types = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  if (types.length === 0) return undefined;
  for (const type of types) {
    if (!(WIKI_PAGE_TYPES as readonly string[]).includes(type)) {
      throw new LoreError("invalid_input", {
        reason: `--type must be one of ${WIKI_PAGE_TYPES.join(", ")}, not “${type}”`,
        reason_ru: `--type должен быть одним из ${WIKI_PAGE_TYPES.join(", ")}, а не «${type}»`,
      });
    }
  }
  return types as WikiPageType[];
}

/**
 * `lore ask` (seed 000 `knowledge.ask_projects`): asks the named projects'
 * wikis, from the synced cache, pages fetched live.
 */
export const askCommand: Command = {
  name: "ask",
  summary: "ask other projects' wikis (knowledge.ask_projects)",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Filters the cached .wiki/index.md of each named project by the query (a substring of",
    "slug or title, case-insensitive, ё = е) and reads the first matches live for a snippet.",
    "Types default to entities, concepts, packages, sources (raw only when listed). Run",
    "`lore sync` first. Read a page whole: lore wiki get <slug> --project <name>.",
    "",
    "Options:",
    "  --projects a,b   repository names (repeatable or comma-separated; required)",
    `  --limit N        matches per project, 1–${ASK_MAX_LIMIT} (default 5)`,
    "  --type T         page type to search (repeatable)",
    "  --json           print the seed's JSON answer",
    "",
    "Exit codes: 0 answered (per-project errors are part of the answer), 2 bad option,",
    "6 no forge configured.",
  ].join("\n"),
  options: {
    projects: { type: "string", multiple: true },
    limit: { type: "string" },
    type: { type: "string", multiple: true },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const query = args.positionals.join(" ");
    const projects = listOption(args, "projects")
      .flatMap((p) => p.split(","))
      .map((p) => p.trim())
      .filter(Boolean);
    if (projects.length === 0) {
      throw new LoreError("invalid_input", {
        reason: `name the projects to ask; usage: ${USAGE}`,
        reason_ru: `укажите проекты; использование: ${USAGE}`,
      });
    }
    const input: AskProjectsInput = { query, projects, lang: ctx.lang };
    const limit = intOption(args, "limit", { min: 1, max: ASK_MAX_LIMIT });
    if (limit !== undefined) input.limit = limit;
    const types = typesOption(listOption(args, "type"));
    if (types !== undefined) input.types = types;
    const lore = await ctx.openLore();
    const answer = await lore.federation().askProjects(input, "lore ask");
    if (flag(args, "json")) {
      printJson(ctx.out, answer);
      return EXIT_CODES.ok;
    }
    for (const result of answer.results) {
      if ("error" in result) {
        ctx.out(`${result.project}: ${result.error}`);
        continue;
      }
      ctx.out(`${result.project}: ${result.matches.length} match(es)`);
      for (const m of result.matches) ctx.out(`  ${m.slug} — ${m.title}\n    ${m.snippet}`);
    }
    return EXIT_CODES.ok;
  },
};
