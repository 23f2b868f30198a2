import { lstat } from "node:fs/promises";
import { resolve } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import { parseExportFormat } from "../../core/export/export-entry.js";
import type { Lore } from "../../main/compose.js";
import { atMostPositionals, flag, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { plural } from "../plural.js";
import { displayPath, projectRoot } from "../project-root.js";

const USAGE = "lore export agents-md|cursor|skills [--out DIR] [--repo R] [--worktree] [--json]";

/** `lore export`: the reachable entries in the formats other tools read (export and import). */
export const exportCommand: Command = {
  name: "export",
  summary: "write the reachable entries as AGENTS.md, Cursor rules or Agent Skills",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Renders the reachable entries of a repository (drafts and unreachable entries are left",
    "out) into a format other tools read, each entry with its id in a <!-- lore:entry … -->",
    "comment, so lore import of the files gives the same entries back:",
    "  agents-md  AGENTS.md: Lore's section between <!-- lore:begin --> and <!-- lore:end -->,",
    "             a ### heading per folder of .gitriver/knowledge/; the rest of the file is kept",
    "  cursor     .cursor/rules/lore/<slug>.mdc: description (summary, words, tools), globs",
    "             (on_path clauses), alwaysApply: false",
    "  skills     .claude/skills/<slug>/SKILL.md: name, description, metadata.lore-id",
    "The same entries give the same bytes; unchanged files are not written; rules and skills",
    "Lore wrote for entries no longer exported are removed; a file of yours in the way is",
    "never overwritten (file_exists, nothing written).",
    "",
    "Options:",
    "  --out DIR    the folder the files go under (default: the top of the current repository)",
    "  --repo R     the repository to export (identity or folder, as lore recall --repo);",
    "               default: the current one, indexed first (incremental)",
    "  --worktree   with the current repository: index its working files, not HEAD",
    "  --json       print {format, out, repo, ids, written, unchanged, removed, left_out,",
    "               unreachable, drafts}",
    "",
    "Exit codes: 0 done, 2 unknown format or bad --out, 3 repository not indexed,",
    "4 a file Lore did not write is in the way.",
  ].join("\n"),
  options: {
    out: { type: "string" },
    repo: { type: "string" },
    worktree: { type: "boolean" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    atMostPositionals(args, 1, USAGE);
    const format = parseExportFormat(args.positionals[0]);
    const out = resolve(ctx.cwd, stringOption(args, "out") ?? projectRoot(ctx.cwd));
    // A bad --out is refused before the index is opened or anything is indexed.
    const info = await lstat(out).catch(() => undefined);
    if (info !== undefined && !info.isDirectory()) {
      throw new LoreError("invalid_input", {
        reason: `--out ${out} is a file, not a folder; name the folder the export goes into`,
        reason_ru: `--out ${out} — файл, а не папка; укажите папку, куда выгружать`,
      });
    }
    const named = stringOption(args, "repo");
    if (named !== undefined && flag(args, "worktree")) {
      throw new LoreError("invalid_input", {
        reason: "--worktree is for the current repository, not with --repo",
        reason_ru: "--worktree — для текущего репозитория, не вместе с --repo",
      });
    }
    const lore = await ctx.openLore();
    const repo = await exportedRepo(lore, ctx, named, flag(args, "worktree"));
    const { exportSource } = await import("../../services/export/export-source.js");
    const { writeExport } = await import("../../services/export/write-export.js");
    const source = exportSource(lore.entryIndex, repo);
    const report = await writeExport({ format, entries: source.entries, out });
    if (flag(args, "json")) {
      printJson(ctx.out, {
        ...report,
        repo,
        unreachable: source.unreachable,
        drafts: source.drafts,
      });
      return EXIT_CODES.ok;
    }
    const ru = ctx.lang === "ru";
    for (const path of report.written) ctx.out(`${ru ? "записан" : "wrote"} ${path}`);
    for (const path of report.removed) ctx.out(`${ru ? "удалён" : "removed"} ${path}`);
    for (const left of report.left_out) {
      ctx.out(
        ru
          ? `${left.id}: в тексте записи есть строка меток Lore; в AGENTS.md не выгружена [marker_in_body]`
          : `${left.id}: the body holds a line of Lore's markers; left out of AGENTS.md [marker_in_body]`,
      );
    }
    const where = displayPath(ctx.cwd, out);
    ctx.out(
      ru
        ? `выгружено записей: ${report.ids.length} (${format}); записано файлов: ${report.written.length}, без изменений: ${report.unchanged.length}, удалено: ${report.removed.length}; недостижимых пропущено: ${source.unreachable}, черновиков: ${source.drafts} → ${where}`
        : `exported ${plural(report.ids.length, "entry", "entries")} (${format}): ${report.written.length} written, ${report.unchanged.length} unchanged, ${report.removed.length} removed; left out ${source.unreachable} unreachable, ${plural(source.drafts, "draft", "drafts")} → ${where}`,
    );
    return EXIT_CODES.ok;
  },
};

/** The repository to export: `--repo` as `lore recall --repo` takes it, else the current one. */
async function exportedRepo(
  lore: Lore,
  ctx: { cwd: string; lang: "en" | "ru"; err(text: string): void },
  named: string | undefined,
  worktree: boolean,
): Promise<string> {
  if (named !== undefined && named.trim() !== "") {
    const name = named.trim();
    try {
      return lore.resolveRepo(name);
    } catch (error) {
      // A relative folder is named from the current folder, as `lore recall --repo` does.
      const folder = resolve(ctx.cwd, name);
      if (folder === name) throw error;
      return lore.resolveRepo(folder);
    }
  }
  const top = projectRoot(ctx.cwd);
  const run = await lore.index(top, { worktree });
  const { notIndexedNotice } = await import("../../services/indexing/index-target.js");
  const notice = notIndexedNotice(run.notIndexed, ctx.lang);
  if (notice !== undefined) ctx.err(`lore: ${notice}`);
  return lore.resolveRepo(run.target);
}
