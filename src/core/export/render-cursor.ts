/**
 * `lore export cursor` (export and import, both ways): one Cursor project rule per
 * reachable entry, `.cursor/rules/lore/<slug>.mdc`, with the front matter Cursor reads —
 * `description` (the summary and the contract in words: Cursor's agent reads it to decide
 * whether the rule applies, as Lore's `on_query` and `on_tool` decide), `globs` (the
 * entry's path-scoped `on_path` globs, comma-separated as Cursor writes them; empty when it
 * has none), `alwaysApply` (`false`: no mechanism of this version applies always) — then
 * the entry's meta comment and its body verbatim. Pure.
 */

import {
  type ExportEntry,
  type ExportFile,
  entryGlobs,
  exportBody,
  exportDescription,
  exportSlug,
  sortForExport,
} from "./export-entry.js";
import { entryMetaLine } from "./export-marker.js";

/** The folder of Lore's rules under the output folder: Cursor reads nested rule folders. */
export const CURSOR_RULES_DIR = ".cursor/rules/lore";

/** Longest description written, UTF-16 code units (Cursor shows it to its agent whole). */
const CURSOR_DESCRIPTION_CHARS = 1024;

/**
 * The `globs` value: comma-separated (Cursor's own style), or a YAML flow list of quoted
 * strings when a glob holds a comma itself (`src/{a,b}/**`).
 */
function globsValue(globs: readonly string[]): string {
  if (globs.length === 0) return "";
  if (globs.some((glob) => glob.includes(",") || glob.includes("\n"))) {
    return ` [${globs.map((glob) => JSON.stringify(glob)).join(", ")}]`;
  }
  return ` ${globs.join(", ")}`;
}

/**
 * Renders one rule file per entry, in the export order (group, path, id).
 *
 * @param entries - the reachable entries.
 * @returns the files, each `.cursor/rules/lore/<slug>.mdc` with the entry's id.
 */
export function renderCursorRules(entries: readonly ExportEntry[]): ExportFile[] {
  return sortForExport(entries).map((item) => {
    const { entry } = item;
    const description = exportDescription(item, CURSOR_DESCRIPTION_CHARS);
    const text = [
      "---",
      `description: ${JSON.stringify(description)}`,
      `globs:${globsValue(entryGlobs(entry))}`,
      "alwaysApply: false",
      "---",
      entryMetaLine(entry),
      "",
      exportBody(entry),
    ].join("\n");
    return {
      path: `${CURSOR_RULES_DIR}/${exportSlug(item.summary, entry.id)}.mdc`,
      text,
      ids: [entry.id],
    };
  });
}
