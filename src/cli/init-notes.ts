import { existsSync } from "node:fs";
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { hasControlCharacter, parseConfig } from "../core/config/config.js";
import { tomlPathString } from "../core/config/toml-path.js";
import { LoreError } from "../core/errors/lore-error.js";
import { HOT_FILE } from "../core/roots/hot-sections.js";
import {
  agentNotes,
  HOT_SECTION_EXAMPLE_PATH,
  hotSectionExample,
  type NotesToolNames,
  REGISTRY_EXAMPLE,
  REGISTRY_EXAMPLE_PATH,
  WORK_LOCAL_README_PATH,
  workLocalReadme,
} from "./notes-templates.js";

/** What {@link initNotes} did. */
export interface InitNotesResult {
  /** The primary root folder (absolute). */
  root: string;
  /** Files written (absolute); files that existed are left alone and not listed. */
  written: string[];
  /** The configuration file given `[knowledge] primary`, or null when it already had one. */
  config: string | null;
}

/**
 * Creates a primary knowledge root (`lore init --notes <path>`): `knowledge/`, the
 * seed's examples written for Lore (the registry example, the hot-section example and the
 * README of `work/local`) and `agent-notes.md` with the routing section; files that exist
 * are kept. Then records `[knowledge] primary = '<path>'` (a TOML literal string) in the
 * configuration file — created when absent, appended to when it has no `[knowledge]`
 * table, untouched when it has one — and re-reads the file to check it.
 *
 * @param notes - the root folder (absolute or relative to `cwd`).
 * @param cwd - the working folder.
 * @param configFile - the configuration file to record the root in.
 * @param names - the tool names the notes mention (the style `lore mcp` exposes).
 * @throws LoreError `config_invalid` when the configuration file does not parse (before or
 *   after the edit; an edit that does not parse is rolled back); `invalid_input` for a path
 *   holding a control character (the configuration would refuse it) or leading through a
 *   file, before anything is written.
 */
export async function initNotes(
  notes: string,
  cwd: string,
  configFile: string,
  names: NotesToolNames,
): Promise<InitNotesResult> {
  const root = resolve(cwd, notes);
  if (hasControlCharacter(root)) {
    throw new LoreError("invalid_input", {
      reason: "the --notes path holds a control character; lore.toml would refuse it",
      reason_ru: "в пути --notes есть управляющий символ; lore.toml его не примет",
    });
  }
  const written: string[] = [];
  const files: [string, string][] = [
    [REGISTRY_EXAMPLE_PATH, REGISTRY_EXAMPLE],
    [HOT_SECTION_EXAMPLE_PATH, hotSectionExample(names)],
    [WORK_LOCAL_README_PATH, workLocalReadme(names)],
    [HOT_FILE, agentNotes(names)],
  ];
  await mkdir(join(root, "knowledge"), { recursive: true }).catch((error) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOTDIR" && code !== "EEXIST") throw error;
    throw new LoreError("invalid_input", {
      reason: `${root} is a file, or a part of it is; give a folder for --notes`,
      reason_ru: `${root} — файл или путь проходит через файл; укажите папку для --notes`,
    });
  });
  for (const [path, text] of files) {
    const file = join(root, ...path.split("/"));
    if (existsSync(file)) continue;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text, { flag: "wx" });
    if ((await readFile(file, "utf8")) !== text) {
      throw new LoreError("internal", {
        reason: `${file} reads back different from what was written`,
      });
    }
    written.push(file);
  }
  return { root, written, config: await recordPrimary(configFile, root) };
}

async function recordPrimary(configFile: string, root: string): Promise<string | null> {
  const before = existsSync(configFile) ? await readFile(configFile, "utf8") : null;
  if (before !== null) {
    const parsed = parseConfig(before);
    if (parsed.value === undefined)
      throw invalid(configFile, "the file does not parse; fix it first (lore doctor)");
    if (parsed.value.knowledge !== undefined) return null;
  }
  const table = `[knowledge]\nprimary = ${tomlPathString(root)}\n`;
  const after =
    before === null
      ? table
      : `${before}${before.endsWith("\n") || before === "" ? "" : "\n"}\n${table}`;
  await mkdir(dirname(configFile), { recursive: true }).catch((error) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOTDIR" && code !== "EEXIST") throw error;
    throw invalid(configFile, "a part of the path is a file, not a folder");
  });
  await writeFile(configFile, after);
  const reread = parseConfig(await readFile(configFile, "utf8"));
  if (reread.value?.knowledge?.primary !== root) {
    if (before === null) await unlink(configFile).catch(() => {});
    else await writeFile(configFile, before);
    throw invalid(
      configFile,
      "the written [knowledge] table does not read back; the file was restored",
    );
  }
  return configFile;
}

function invalid(file: string, reason: string): LoreError {
  return new LoreError("config_invalid", { reason: `${file}: ${reason}` }, { data: { file } });
}
