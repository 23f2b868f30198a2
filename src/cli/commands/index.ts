import { resolve } from "node:path";
import type { Lang } from "../../core/errors/localized-text.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { IndexProgress } from "../../services/indexing/index-knowledge.js";
import { notIndexedNotice } from "../../services/indexing/index-target.js";
import { atMostPositionals, flag, printJson, stringOption } from "../args.js";
import type { CliContext, Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { indexSummary } from "../index-summary.js";

const USAGE = "lore index [dir|repo] [--commit REV | --worktree] [--json]";

function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  return `${Math.floor(seconds / 60)}m${String(Math.ceil(seconds % 60)).padStart(2, "0")}s`;
}

/**
 * A progress writer for stderr: files/s and ETA, redrawn in place on a terminal, a line
 * every few seconds otherwise (so CI logs stay short).
 */
function progressWriter(ctx: CliContext, lang: Lang) {
  let lastPrinted = 0;
  let drawn = false;
  return {
    update(p: IndexProgress) {
      const now = p.elapsedMs;
      const interval = ctx.errIsTTY ? 100 : 5000;
      if (now - lastPrinted < interval && p.done < p.total) return;
      if (!ctx.errIsTTY && now < 2000) return;
      lastPrinted = now;
      const rate = p.elapsedMs > 0 ? (p.done * 1000) / p.elapsedMs : 0;
      const eta = rate > 0 ? (p.total - p.done) / rate : Number.POSITIVE_INFINITY;
      const line =
        lang === "ru"
          ? `индексирую: ${p.done}/${p.total} файлов, ${Math.round(rate)} файлов/с, осталось ~${formatSeconds(eta)}`
          : `indexing: ${p.done}/${p.total} files, ${Math.round(rate)} files/s, ETA ${formatSeconds(eta)}`;
      if (ctx.errIsTTY) {
        ctx.errRaw(`\r${line}\u001b[K`);
        drawn = true;
      } else ctx.err(line);
    },
    end() {
      if (drawn) ctx.errRaw("\n");
    },
  };
}

/** `lore index`: indexes a git repository (at a commit) or a folder, prints the parse report. */
export const indexCommand: Command = {
  name: "index",
  summary: "index a git repository or folder incrementally; print the parse report",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Indexes the entry files under .gitriver/knowledge/ of a git repository at a commit",
    "(default HEAD), read through one `git cat-file --batch`, or of a plain folder. Only",
    "changed files are read; deleted files drop their entries. Progress (files/s, ETA) goes",
    "to stderr; the parse report and a summary to stdout. Default target: the current folder.",
    "",
    "Entry files whose working or staged copy differs from HEAD are not indexed; they are",
    "named on stderr. --worktree indexes the working files instead of a commit.",
    "",
    "Options:",
    "  --commit REV   the revision to index (a branch, tag or sha)",
    "  --worktree     index the working files of the repository, committed or not",
    "  --json         print the report as JSON",
    "",
    "Exit codes: 0 indexed (wrong files are reported and skipped, not fatal), 1 git or",
    "index failure, 2 not a repository, 3 no such folder.",
  ].join("\n"),
  options: { commit: { type: "string" }, worktree: { type: "boolean" }, json: { type: "boolean" } },
  async run(ctx, args) {
    atMostPositionals(args, 1, USAGE);
    const target = resolve(ctx.cwd, args.positionals[0] ?? ".");
    const lore = await ctx.openLore();
    const progress = progressWriter(ctx, ctx.lang);
    const commit = stringOption(args, "commit");
    const worktree = flag(args, "worktree");
    if (worktree && commit !== undefined) {
      throw new LoreError("invalid_input", {
        reason: "give --commit or --worktree, not both",
        reason_ru: "укажите --commit или --worktree, но не оба",
      });
    }
    const run = await lore
      .index(target, {
        ...(commit === undefined ? {} : { commit }),
        ...(worktree ? { worktree } : {}),
        onProgress: (p) => progress.update(p),
      })
      .finally(() => progress.end());
    if (flag(args, "json")) printJson(ctx.out, run);
    else {
      for (const line of run.lines) ctx.out(line);
      ctx.out(indexSummary(run, ctx.lang));
    }
    const notice = notIndexedNotice(run.notIndexed, ctx.lang);
    if (notice !== undefined) ctx.err(`lore: ${notice}`);
    return EXIT_CODES.ok;
  },
};
