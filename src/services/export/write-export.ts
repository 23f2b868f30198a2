/**
 * `lore export agents-md|cursor|skills` on the disk (export and import, both ways): renders
 * the entries into a format and writes its files under an output folder, deterministically
 * (the same entries give the same bytes, and a file whose bytes would not change is not
 * written), touching only what Lore wrote: the section between Lore's markers of an
 * AGENTS.md, and the rules and skills holding Lore's meta comment. A rule or skill Lore
 * wrote for an entry that is no longer exported is removed; a user's file in the way is
 * never overwritten.
 */
import { lstat, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import type { ExportEntry, ExportFile, ExportFormat } from "../../core/export/export-entry.js";
import {
  AGENTS_MD_PATH,
  mergeAgentsMd,
  renderAgentsSection,
} from "../../core/export/render-agents-md.js";
import { CURSOR_RULES_DIR, renderCursorRules } from "../../core/export/render-cursor.js";
import { renderSkills, SKILL_FILE, SKILLS_DIR } from "../../core/export/render-skills.js";
import { isLoreExportFile } from "../../core/import/import-exported.js";

/** What {@link writeExport} did. */
export interface ExportReport {
  format: ExportFormat;
  /** The output folder, absolute. */
  out: string;
  /** The ids exported, in the files' order. */
  ids: string[];
  /** Files written (new or changed), relative to `out`, `/`-separated, sorted. */
  written: string[];
  /** Files whose bytes were already what the export makes, sorted. */
  unchanged: string[];
  /** Files Lore wrote earlier for entries no longer exported, removed, sorted. */
  removed: string[];
  /** Entries not exported, with why (`marker_in_body`: the body holds a line of Lore's markers). */
  left_out: Array<{ id: string; reason: "marker_in_body" }>;
}

/** Options of {@link writeExport}. */
export interface WriteExportOptions {
  format: ExportFormat;
  /** The reachable entries (`exportSource`). */
  entries: readonly ExportEntry[];
  /** The output folder (made when missing): the project top the formats' paths are under. */
  out: string;
}

/**
 * Renders and writes one export.
 *
 * - `agents-md`: `<out>/AGENTS.md`, Lore's section replaced or appended, the rest kept.
 * - `cursor`: `<out>/.cursor/rules/lore/<slug>.mdc`, one per entry.
 * - `skills`: `<out>/.claude/skills/<slug>/SKILL.md`, one per entry.
 *
 * Every path is checked before anything is written. Files are written through a temporary
 * file renamed into place.
 *
 * @param options - see {@link WriteExportOptions}.
 * @returns the report.
 * @throws LoreError `invalid_input` when `out` (or a folder on a file's way) is a file, or
 *   when an AGENTS.md's Lore markers are damaged; `file_exists` (nothing written) when a
 *   file Lore did not write — or a symbolic link — stands where a rule or skill goes.
 */
export async function writeExport(options: WriteExportOptions): Promise<ExportReport> {
  const { format, out } = options;
  await ensureFolder(out);
  const report: ExportReport = {
    format,
    out,
    ids: [],
    written: [],
    unchanged: [],
    removed: [],
    left_out: [],
  };
  if (format === "agents-md") {
    const section = renderAgentsSection(options.entries);
    report.ids = section.ids;
    report.left_out = section.left_out.map((id) => ({ id, reason: "marker_in_body" as const }));
    const file = join(out, AGENTS_MD_PATH);
    const info = await lstat(file).catch(() => undefined);
    if (info !== undefined && !info.isFile()) {
      throw new LoreError("file_exists", { path: file });
    }
    const existing = info === undefined ? undefined : await readFile(file, "utf8");
    const merged = mergeAgentsMd(existing, section.text);
    if (merged === existing) report.unchanged.push(AGENTS_MD_PATH);
    else {
      await writeAtomic(file, merged);
      report.written.push(AGENTS_MD_PATH);
    }
    return report;
  }
  const files =
    format === "cursor" ? renderCursorRules(options.entries) : renderSkills(options.entries);
  report.ids = files.flatMap((file) => file.ids);
  const previous = await loreFiles(out, format);
  // Every path first: a user's file in the way stops the export before anything changes.
  const plans: Array<{ file: ExportFile; same: boolean }> = [];
  for (const file of files) {
    const absolute = join(out, file.path);
    const info = await lstat(absolute).catch(() => undefined);
    if (info === undefined) {
      await noFileOnTheWay(out, file.path);
      plans.push({ file, same: false });
      continue;
    }
    const text = info.isFile() ? await readFile(absolute, "utf8") : undefined;
    if (text === undefined || !isLoreExportFile(text)) {
      throw new LoreError("file_exists", { path: absolute });
    }
    plans.push({ file, same: text === file.text });
  }
  for (const { file, same } of plans) {
    if (same) report.unchanged.push(file.path);
    else {
      await writeAtomic(join(out, file.path), file.text);
      report.written.push(file.path);
    }
  }
  const kept = new Set(files.map((file) => file.path));
  for (const path of previous) {
    if (kept.has(path)) continue;
    await rm(join(out, path), { force: true });
    // A skill's folder goes with its SKILL.md when nothing else is in it.
    if (format === "skills") await rmdir(dirname(join(out, path))).catch(() => undefined);
    report.removed.push(path);
  }
  report.written.sort();
  report.unchanged.sort();
  report.removed.sort();
  return report;
}

/** Makes the output folder; refuses a file in its place. */
async function ensureFolder(out: string): Promise<void> {
  const info = await lstat(out).catch(() => undefined);
  if (info !== undefined && !info.isDirectory()) {
    throw new LoreError("invalid_input", {
      reason: `--out ${out} is a file, not a folder; name the folder the export goes into`,
      reason_ru: `--out ${out} — файл, а не папка; укажите папку, куда выгружать`,
    });
  }
  await mkdir(out, { recursive: true });
}

/** Refuses a file where a folder of `path` should be (`.cursor` as a file). */
async function noFileOnTheWay(out: string, path: string): Promise<void> {
  const parts = path.split("/").slice(0, -1);
  let at = out;
  for (const part of parts) {
    at = join(at, part);
    const info = await lstat(at).catch(() => undefined);
    if (info === undefined) return;
    if (!info.isDirectory()) {
      throw new LoreError("invalid_input", {
        reason: `${at} is a file, but the export needs a folder there for ${path}`,
        reason_ru: `${at} — файл, а выгрузке там нужна папка для ${path}`,
      });
    }
  }
}

/** The files Lore wrote earlier for a format under `out` (relative, `/`-separated). */
async function loreFiles(out: string, format: "cursor" | "skills"): Promise<string[]> {
  const candidates: string[] = [];
  if (format === "cursor") {
    for (const item of await readdir(join(out, CURSOR_RULES_DIR), { withFileTypes: true }).catch(
      () => [],
    )) {
      if (item.isFile() && item.name.endsWith(".mdc")) {
        candidates.push(`${CURSOR_RULES_DIR}/${item.name}`);
      }
    }
  } else {
    for (const item of await readdir(join(out, SKILLS_DIR), { withFileTypes: true }).catch(
      () => [],
    )) {
      if (item.isDirectory()) candidates.push(`${SKILLS_DIR}/${item.name}/${SKILL_FILE}`);
    }
  }
  const found: string[] = [];
  for (const path of candidates) {
    const info = await lstat(join(out, path)).catch(() => undefined);
    if (info === undefined || !info.isFile()) continue;
    const text = await readFile(join(out, path), "utf8").catch(() => undefined);
    if (text !== undefined && isLoreExportFile(text)) found.push(path);
  }
  return found;
}

/** Writes a file through a temporary file in its folder, renamed into place. */
async function writeAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.lore-${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}
