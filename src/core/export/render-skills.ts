/**
 * `lore export skills` (export and import, both ways): one Agent Skill per reachable
 * entry, `.claude/skills/<name>/SKILL.md`, with the front matter of the Agent Skills
 * format — `name` (the folder's name, lower case letters, digits and hyphens, at most 64),
 * `description` (the summary and the contract in words, at most 1,024 characters: the
 * model reads it to decide when the skill applies), `metadata.lore-id` (the entry's id;
 * `metadata` is the format's map for keys of its own) — then the entry's meta comment and
 * its body verbatim. Pure.
 */

import {
  type ExportEntry,
  type ExportFile,
  exportBody,
  exportDescription,
  exportSlug,
  sortForExport,
} from "./export-entry.js";
import { entryMetaLine } from "./export-marker.js";

/** The folder of the skills under the output folder (Claude Code's project skills). */
export const SKILLS_DIR = ".claude/skills";

/** The file of a skill inside its folder. */
export const SKILL_FILE = "SKILL.md";

/** Longest `description` of the Agent Skills format, characters. */
export const SKILL_DESCRIPTION_CHARS = 1024;

/**
 * Renders one skill per entry, in the export order (group, path, id).
 *
 * @param entries - the reachable entries.
 * @returns the files, each `.claude/skills/<slug>/SKILL.md` with the entry's id.
 */
export function renderSkills(entries: readonly ExportEntry[]): ExportFile[] {
  return sortForExport(entries).map((item) => {
    const { entry } = item;
    const name = exportSlug(item.summary, entry.id);
    const description =
      exportDescription(item, SKILL_DESCRIPTION_CHARS) || `Lore entry ${entry.id}`;
    const text = [
      "---",
      `name: ${name}`,
      `description: ${JSON.stringify(description)}`,
      "metadata:",
      `  lore-id: ${JSON.stringify(entry.id)}`,
      "---",
      entryMetaLine(entry),
      "",
      exportBody(entry),
    ].join("\n");
    return { path: `${SKILLS_DIR}/${name}/${SKILL_FILE}`, text, ids: [entry.id] };
  });
}
