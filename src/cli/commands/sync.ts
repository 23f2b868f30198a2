import type { Lang } from "../../core/errors/localized-text.js";
import type { SyncSummary } from "../../services/federation/projects-status.js";
import { atMostPositionals, flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore sync [--json]";

/** The summary as lines for people. */
export function syncLines(summary: SyncSummary, lang: Lang): string[] {
  const head =
    lang === "ru"
      ? `lore: sync из ${summary.synced_from}: проектов ${summary.projects} (с вики ${summary.with_wiki}), активных задач ${summary.active_tasks}, ошибок ${summary.errors.length}`
      : `lore: synced ${summary.projects} project(s) from ${summary.synced_from} (${summary.with_wiki} with a wiki, ${summary.active_tasks} active task(s), ${summary.errors.length} error(s))`;
  const kept = (e: SyncSummary["errors"][number]) =>
    e.kept_from === undefined
      ? ""
      : lang === "ru"
        ? ` (оставлена прежняя запись от ${e.kept_from})`
        : ` (kept the entry from ${e.kept_from}, ${e.kept_age_seconds ?? 0} s old)`;
  const unread = summary.wikis.filter(
    (w) => w.lines_not_read > 0 || w.summary.includes("unreadable"),
  );
  return [
    head,
    ...summary.errors.map((e) => `  ${e.project}: ${e.reason}${kept(e)}`),
    ...unread.map((w) => `  ${w.project}: ${w.summary}`),
  ];
}

/**
 * `lore sync` (seed 000 "Sync extension"): lists the forge's repositories
 * and caches each one's `.tasks/STATUS.md` and `.wiki/index.md` in the cache file.
 */
export const syncCommand: Command = {
  name: "sync",
  summary: "cache every forge repository's task board and wiki index",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Reads every repository of the forge ([forge] of lore.toml): its .tasks/STATUS.md and",
    ".wiki/index.md, and writes them to the cache file ([projects] cache) atomically. A",
    "repository with neither is skipped; one that cannot be read is listed as an error and",
    "the others go on.",
    "",
    "Options:",
    "  --json   print the summary as JSON",
    "",
    "A repository that cannot be read keeps its last good entry (with its age); each wiki",
    "index with lines that could not be read is named with its counts.",
    "",
    "Exit codes: 0 synced, 6 some repository could not be read (the others were synced),",
    "no forge configured or the forge is unavailable, 5 the forge refused the token.",
  ].join("\n"),
  options: { json: { type: "boolean" } },
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    const lore = await ctx.openLore();
    const summary = await lore.federation().sync("lore sync");
    if (flag(args, "json")) printJson(ctx.out, summary);
    else for (const line of syncLines(summary, ctx.lang)) ctx.out(line);
    return summary.errors.length > 0 ? EXIT_CODES.unavailable : EXIT_CODES.ok;
  },
};
