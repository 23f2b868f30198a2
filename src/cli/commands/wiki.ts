import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Lang } from "../../core/errors/localized-text.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { WIKI_PAGE_TYPES } from "../../core/wiki/wiki-index.js";
import type { WikiCheckReport } from "../../core/wiki/wiki-index-check.js";
import type { IngestInput } from "../../services/wiki/ingest-page.js";
import { SEARCH_MAX_LIMIT, type WikiSearchInput } from "../../services/wiki/wiki-search.js";
import {
  atMostPositionals,
  flag,
  intOption,
  listOption,
  printJson,
  stringOption,
} from "../args.js";
import type { CliContext, Command, CommandArgs } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { typesOption } from "./ask.js";

const USAGE = [
  "lore wiki search <query> [--limit N] [--type T]... [--json]",
  "lore wiki get <slug> [--project NAME]",
  "lore wiki ingest --title T --type T (--body TEXT | --body-file F) [--slug S] [--project NAME] [--json]",
  "lore wiki promote [<slug>] [--json]",
  "lore wiki check [PATH] [--project NAME | --all] [--json]",
];

function usageError(): LoreError {
  return new LoreError("invalid_input", {
    reason: `usage: ${USAGE.join(" | ")}`,
    reason_ru: `использование: ${USAGE.join(" | ")}`,
  });
}

/** The lines `lore wiki check` prints for one index. */
export function checkLines(name: string, report: WikiCheckReport | null, lang: Lang): string[] {
  if (report === null) {
    return [lang === "ru" ? `${name}: нет index.md` : `${name}: no index.md`];
  }
  const head =
    lang === "ru"
      ? `${name}: прочитано страниц ${report.entries.length}, не прочитано строк ${report.unread.length}`
      : `${name}: ${report.entries.length} page(s) read, ${report.unread.length} line(s) not read`;
  const lines = [head];
  if (report.entries.length === 0 && report.sections.length === 0) {
    lines.push(
      lang === "ru"
        ? "  нет канонических разделов (## Entities, ## Concepts, ## Packages, ## Sources, ## Raw)"
        : "  no canonical sections (## Entities, ## Concepts, ## Packages, ## Sources, ## Raw)",
    );
  }
  for (const u of report.unread) lines.push(`  ${u.line}: ${u.message[lang]} [${u.code}]`);
  // Lines read although not canonical: warnings (they do not change the exit code).
  for (const w of report.warnings) lines.push(`  ${w.line}: ${w.message[lang]} [${w.code}]`);
  return lines;
}

async function bodyOf(ctx: CliContext, args: CommandArgs): Promise<string> {
  const text = stringOption(args, "body");
  const file = stringOption(args, "body-file");
  if (text !== undefined && file !== undefined) throw usageError();
  if (text !== undefined) return text;
  if (file !== undefined) {
    try {
      return await readFile(resolve(ctx.cwd, file), "utf8");
    } catch {
      throw new LoreError("path_not_found", { path: resolve(ctx.cwd, file) });
    }
  }
  throw usageError();
}

/**
 * `lore wiki search|get|ingest|promote|check`: the wiki tools on the
 * command line, through the same services as the MCP tools.
 */
export const wikiCommand: Command = {
  name: "wiki",
  summary: "search, read, write, promote and check wiki pages",
  help: [
    "Usage:",
    ...USAGE.map((u) => `  ${u}`),
    "",
    "search   the shared wiki ([wiki] shared): slug and title, then body (ё = е)",
    "get      a page of the shared wiki, or of a synced project with --project (read live)",
    "ingest   write a page into this project's .wiki/ (or --project's, through the forge);",
    "         index.md by the canonical writer, a line in log.md",
    "promote  without a slug: the pages of this project's wiki the shared wiki lacks;",
    "         with a slug: copy that page into the shared wiki and its index",
    "check    what the index parser could not read in a wiki's index.md: this project's",
    "         .wiki/ (or PATH), a synced project (--project), or every synced project (--all)",
    "",
    `Types: ${WIKI_PAGE_TYPES.join(", ")}.`,
    "",
    "Exit codes: 0 ok, 2 bad arguments, 3 no such page or project, 4 a different page is",
    "already in the shared wiki, 6 not configured, 7 `check` found lines it could not read.",
  ].join("\n"),
  options: {
    limit: { type: "string" },
    type: { type: "string", multiple: true },
    title: { type: "string" },
    slug: { type: "string" },
    body: { type: "string" },
    "body-file": { type: "string" },
    project: { type: "string" },
    all: { type: "boolean" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const [sub, ...rest] = args.positionals;
    const json = flag(args, "json");
    const project = stringOption(args, "project");
    const caller = `lore wiki ${sub ?? ""}`.trim();
    const federation = async () => (await ctx.openLore()).federation();
    switch (sub) {
      case "search": {
        const query = rest.join(" ");
        const input: WikiSearchInput = { query };
        const limit = intOption(args, "limit", { min: 1, max: SEARCH_MAX_LIMIT });
        if (limit !== undefined) input.limit = limit;
        const types = typesOption(listOption(args, "type"));
        if (types !== undefined) input.types = types;
        const answer = await (await federation()).searchShared(input, caller);
        if (json) printJson(ctx.out, answer);
        else
          for (const hit of answer.results) ctx.out(`${hit.slug} — ${hit.title}\n  ${hit.snippet}`);
        return EXIT_CODES.ok;
      }
      case "get": {
        atMostPositionals({ ...args, positionals: rest }, 1, USAGE[1] as string);
        const slug = rest[0];
        if (slug === undefined) throw usageError();
        const fed = await federation();
        const page =
          project === undefined
            ? await fed.getShared(slug, caller)
            : await fed.getFrom(project, slug, caller);
        ctx.out(page.body.replace(/\n$/, ""));
        return EXIT_CODES.ok;
      }
      case "ingest": {
        const title = stringOption(args, "title");
        const types = typesOption(listOption(args, "type"));
        if (title === undefined || types === undefined || types.length !== 1 || rest.length > 0)
          throw usageError();
        const input: IngestInput = {
          title,
          type: types[0] as IngestInput["type"],
          body: await bodyOf(ctx, args),
        };
        const slug = stringOption(args, "slug");
        if (slug !== undefined) input.slug = slug;
        if (project !== undefined) input.target_project = project;
        const result = await (await federation()).ingest(input, caller);
        if (json) printJson(ctx.out, result);
        else ctx.out(`lore: ${result.created ? "wrote" : "updated"} ${result.wiki}/${result.file}`);
        return EXIT_CODES.ok;
      }
      case "promote": {
        atMostPositionals({ ...args, positionals: rest }, 1, USAGE[3] as string);
        const fed = await federation();
        const slug = rest[0];
        if (slug === undefined) {
          const { suggestions, notices } = await fed.suggestPromote(caller);
          if (json) printJson(ctx.out, { suggestions, notices });
          else for (const s of suggestions) ctx.out(`${s.slug} — ${s.title} (${s.why})`);
          for (const n of notices) ctx.err(`lore: ${n.message[ctx.lang]}`);
          return EXIT_CODES.ok;
        }
        const result = await fed.promote(slug, caller);
        if (json) printJson(ctx.out, result);
        else ctx.out(`lore: promoted ${result.slug} to ${result.wiki}`);
        return EXIT_CODES.ok;
      }
      case "check": {
        atMostPositionals({ ...args, positionals: rest }, 1, USAGE[4] as string);
        const target: { path?: string; project?: string; all?: boolean } = {};
        if (rest[0] !== undefined) target.path = resolve(ctx.cwd, rest[0]);
        if (project !== undefined) target.project = project;
        if (flag(args, "all")) target.all = true;
        if (Object.keys(target).length > 1) throw usageError();
        if (target.path === undefined && target.project === undefined && target.all !== true)
          target.path = resolve(ctx.cwd, ".wiki");
        const reports = await (await federation()).checkIndexes(target, caller);
        if (json) printJson(ctx.out, reports);
        else
          for (const r of reports)
            for (const line of checkLines(r.name, r.report, ctx.lang)) ctx.out(line);
        const clean = reports.every((r) => r.report === null || r.report.unread.length === 0);
        return clean ? EXIT_CODES.ok : EXIT_CODES.check_failed;
      }
      default:
        throw usageError();
    }
  },
};
