import { realpathSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type Diagnostic, makeDiagnostic } from "../../core/entry/diagnostic.js";
import { LIMITS } from "../../core/entry/entry.js";
import { escapeFileName, fileNameNotUtf8, isUtf8Name } from "../../core/entry/file-name.js";
import {
  type BatchEntry,
  type BatchFile,
  type BatchSkip,
  parseBatch,
} from "../../core/entry/parse-batch.js";
import { formatReport } from "../../core/entry/parse-report.js";
import type { Lang } from "../../core/errors/localized-text.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { changedEntryFiles } from "../../main/changed-entry-files.js";
import { comparePaths } from "../../services/indexing/duplicate-ids.js";
import { flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { plural } from "../plural.js";
import { displayPath, KNOWLEDGE_DIR, projectRoot } from "../project-root.js";

const USAGE = "lore check [paths…] [--strict] [--json]";

/** What `lore check` found (its `--json` output). */
export interface CheckSummary {
  /**
   * True when no file is *wrong*; with `--strict`, also when nothing is *not understood*
   * (no unknown key or mechanism).
   */
  ok: boolean;
  /** Whether `--strict` was given. */
  strict: boolean;
  /** Files read. */
  files: number;
  /** Files that parsed into entries. */
  entries: number;
  /** *Wrong* files: indexing skips them. */
  skipped: number;
  /** Entries no contract can surface (unknown key or mechanism). */
  unreachable: number;
  /** *Not understood* diagnostics (unknown keys and mechanisms); they fail `--strict`. */
  not_understood: number;
  /** Every diagnostic, with its path. */
  diagnostics: {
    path: string;
    line?: number;
    column?: number;
    at?: string;
    code: string;
    severity: string;
    message: string;
  }[];
  /** The parse report lines, as printed without `--json`. */
  report: string[];
}

/**
 * Lists the `.md` files under a folder, following no symbolic link, `.git` left out. A
 * file or folder whose name is not UTF-8 goes to `badNames`, its name escaped.
 */
async function walk(dir: string, out: string[], badNames: string[]): Promise<void> {
  const items = await readdir(dir, { withFileTypes: true, encoding: "buffer" });
  for (const item of items) {
    if (!isUtf8Name(item.name)) {
      if (item.isDirectory() || (item.isFile() && item.name.toString("latin1").endsWith(".md"))) {
        badNames.push(join(dir, escapeFileName(item.name)) + (item.isDirectory() ? "/" : ""));
      }
      continue;
    }
    const name = item.name.toString("utf8");
    const full = join(dir, name);
    if (item.isDirectory() && name !== ".git") await walk(full, out, badNames);
    else if (item.isFile() && name.endsWith(".md")) out.push(full);
  }
}

/**
 * Collects the files to check: a named file as is, a folder's `.md` files recursively. A
 * named path is followed when it is a symbolic link (the caller named it); inside folders
 * no link is followed.
 *
 * @throws LoreError `path_not_found` for a missing path; `invalid_input` for a named path
 *   that is neither a regular file nor a folder (a FIFO or a device would block or never end).
 */
async function collect(paths: readonly string[], badNames: string[] = []): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (info === null) throw new LoreError("path_not_found", { path });
    if (info.isDirectory()) await walk(path, files, badNames);
    else if (info.isFile()) files.push(path);
    else {
      throw new LoreError("invalid_input", {
        reason: `${path} is neither a regular file nor a folder`,
        reason_ru: `${path} — не обычный файл и не папка`,
      });
    }
  }
  // Byte order of paths, as `lore index` parses them: the first holder of an id wins.
  return [...new Set(files)].sort(comparePaths);
}

/**
 * Parses files leniently as the index would (seed 004, "терпимо на чтение"), batch after
 * batch of at most 10 MB, with duplicate ids caught across batches.
 *
 * @param files - files with display paths, in order.
 * @param lang - the report language.
 * @param oversized - files over the entry size limit, by display path and size: reported
 *   `file_too_large` without being read.
 * @param badNames - display paths (escaped) of files whose name is not UTF-8: reported
 *   `file_name_not_utf8` without being read.
 * @param strict - `--strict`: a *not understood* key or mechanism (severity `warning`)
 *   fails the check too, for a pre-commit hook of a team whose entries are written by hand.
 * @param incumbents - display paths of files as they are at HEAD: they held their ids
 *   before, so they are parsed first and keep an id a changed or new file also claims (the
 *   copy is blamed, never the untouched original); the rest follow in byte order.
 */
export function checkFiles(
  files: readonly BatchFile[],
  lang: Lang,
  oversized: readonly { path: string; size: number }[] = [],
  badNames: readonly string[] = [],
  strict = false,
  incumbents: ReadonlySet<string> = new Set(),
): CheckSummary {
  const entries: BatchEntry[] = [];
  const skipped: BatchSkip[] = oversized.map(({ path, size }) => ({
    path,
    diagnostics: [
      makeDiagnostic("file_too_large", { path, params: { size, limit: LIMITS.fileBytes } }),
    ],
  }));
  for (const path of badNames) skipped.push({ path, diagnostics: [fileNameNotUtf8(path)] });
  const knownIds = new Map<string, string>();
  let remaining = [
    ...files.filter((file) => incumbents.has(file.path)),
    ...files.filter((file) => !incumbents.has(file.path)),
  ];
  while (remaining.length > 0) {
    const batch = parseBatch(remaining, { mode: "lenient", knownIds });
    entries.push(...batch.entries);
    skipped.push(...batch.skipped);
    for (const entry of batch.entries)
      knownIds.set(entry.parsed.entry.id.toLowerCase(), entry.path);
    const deferred = new Set(batch.deferred);
    const next = remaining.filter((file) => deferred.has(file.path));
    if (next.length === remaining.length) break; // no progress: cannot happen, guard anyway
    remaining = next;
  }
  const paths = files.map((file) => file.path);
  if (oversized.length > 0 || badNames.length > 0) {
    paths.push(...oversized.map((file) => file.path), ...badNames);
    paths.sort(comparePaths);
  }
  const order = new Map(paths.map((path, i) => [path, i]));
  const byPath = (a: { path: string }, b: { path: string }) =>
    (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0);
  entries.sort(byPath);
  skipped.sort(byPath);
  const report = formatReport({ entries, skipped, deferred: [], diagnostics: [] }, lang);
  const all: { path: string; d: Diagnostic }[] = [
    ...entries.flatMap((e) => e.diagnostics.map((d) => ({ path: e.path, d }))),
    ...skipped.flatMap((s) => s.diagnostics.map((d) => ({ path: s.path, d }))),
  ].sort(byPath);
  const notUnderstood = all.filter(({ d }) => d.severity === "warning").length;
  return {
    ok: skipped.length === 0 && !(strict && notUnderstood > 0),
    strict,
    files: files.length + oversized.length + badNames.length,
    entries: entries.length,
    skipped: skipped.length,
    unreachable: entries.filter((e) => !e.parsed.reachable).length,
    not_understood: notUnderstood,
    diagnostics: all.map(({ path, d }) => {
      const item: CheckSummary["diagnostics"][number] = {
        path: d.path ?? path,
        code: d.code,
        severity: d.severity,
        message: d.message[lang],
      };
      if (d.line !== undefined) item.line = d.line;
      if (d.column !== undefined) item.column = d.column;
      if (d.at !== undefined) item.at = d.at;
      return item;
    }),
    report,
  };
}

function summaryLine(s: CheckSummary, lang: Lang): string {
  const strict =
    s.strict && s.not_understood > 0
      ? lang === "ru"
        ? `; непонятых ключей и механизмов: ${s.not_understood} (--strict: ошибка)`
        : `; ${s.not_understood} not understood key(s) or mechanism(s) (--strict: failed)`
      : "";
  return lang === "ru"
    ? `проверено файлов: ${s.files}; записей: ${s.entries}, недостижимых: ${s.unreachable}, ошибочных (пропускаются): ${s.skipped}${strict}`
    : `checked ${plural(s.files, "file", "files")}: ${plural(s.entries, "entry", "entries")}, ${s.unreachable} unreachable, ${s.skipped} wrong (skipped on indexing)${strict}`;
}

/** `lore check`: the lenient report over files and folders; exit 7 when any file is wrong. */
export const checkCommand: Command = {
  name: "check",
  summary: "lint entry files; exit 7 when any is wrong (for pre-commit and CI)",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Parses entry files as the index does (lenient) and prints the parse report: a line per",
    "problem, `path:line:column: reason [code]`, and a line per unknown mechanism. Paths are",
    "files or folders (their .md files, recursively); default: .gitriver/knowledge/ at the",
    "repository top.",
    "",
    "Options:",
    "  --strict also fail on what this version does not understand: an unknown key",
    "           (a typo such as on_trigers) or mechanism — for pre-commit hooks",
    "  --json   print {ok, strict, files, entries, skipped, unreachable, diagnostics, report}",
    "",
    "Exit codes: 0 no wrong file (notes and unreachable entries are fine without --strict),",
    "3 a path does not exist, 7 some file is wrong (the index would skip it), or with",
    "--strict holds an unknown key or mechanism.",
  ].join("\n"),
  options: { json: { type: "boolean" }, strict: { type: "boolean" } },
  async run(ctx, args) {
    const named =
      args.positionals.length > 0
        ? args.positionals.map((p) => resolve(ctx.cwd, p))
        : [join(projectRoot(ctx.cwd), KNOWLEDGE_DIR)];
    const badNames: string[] = [];
    const paths = await collect(named, badNames);
    const files: BatchFile[] = [];
    // A file over the entry limit is reported from its size, never read whole.
    const oversized: { path: string; size: number }[] = [];
    for (const path of paths) {
      const { size } = await stat(path);
      if (size > LIMITS.fileBytes) oversized.push({ path: displayPath(ctx.cwd, path), size });
      else files.push({ path: displayPath(ctx.cwd, path), bytes: await readFile(path) });
    }
    const shownBad = badNames.map((path) => displayPath(ctx.cwd, path));
    // git names files by their real path (the work tree's top is resolved).
    const changed = await changedEntryFiles(ctx.cwd, ".gitriver/knowledge/");
    const real = (path: string) => realpathSync.native(path);
    const incumbents = new Set(
      changed === undefined
        ? []
        : paths
            .filter((path) => !changed.has(real(path)))
            .map((path) => displayPath(ctx.cwd, path)),
    );
    const summary = checkFiles(
      files,
      ctx.lang,
      oversized,
      shownBad,
      flag(args, "strict"),
      incumbents,
    );
    if (flag(args, "json")) printJson(ctx.out, summary);
    else {
      for (const line of summary.report) ctx.out(line);
      ctx.err(summaryLine(summary, ctx.lang));
    }
    return summary.ok ? EXIT_CODES.ok : EXIT_CODES.check_failed;
  },
};
