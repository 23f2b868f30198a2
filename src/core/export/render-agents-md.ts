/**
 * `lore export agents-md` (export and import, both ways): the reachable entries as a
 * section of an AGENTS.md, one `###` heading per group (the entry's folder under
 * `.gitriver/knowledge/`), each entry between its meta comment and `<!-- /lore:entry -->`
 * with its body verbatim — and the merge of that section into a user's own AGENTS.md,
 * which touches nothing outside Lore's markers. Pure.
 */
import { LoreError } from "../errors/lore-error.js";
import { type ExportEntry, exportBody, groupOf, sortForExport } from "./export-entry.js";
import {
  bodyHoldsMarker,
  ENTRY_CLOSE,
  entryMetaLine,
  SECTION_BEGIN,
  SECTION_END,
} from "./export-marker.js";

/** The file the section goes into, at the top of the output folder. */
export const AGENTS_MD_PATH = "AGENTS.md";

/** The section's begin line: the marker and a word to the people who open the file. */
export const SECTION_BEGIN_LINE = `${SECTION_BEGIN}: written by \`lore export agents-md\`; the text from here to lore:end is replaced by the next export (edit the entries instead), the rest of this file is yours -->`;

/** The section's heading. */
export const SECTION_HEADING = "## Knowledge from Lore";

/** The rendered section and what it holds. */
export interface AgentsSection {
  /** From the begin line to the end line, LF line ends, one final newline. */
  text: string;
  /** The ids of the entries in the section, in order. */
  ids: string[];
  /** Entries left out: their body holds a line Lore's markers are made of. */
  left_out: string[];
}

/**
 * Renders the section: the begin line, `## Knowledge from Lore`, then per group (sorted)
 * `### <group>` and its entries in path order, each `<!-- lore:entry {…} -->`, the body,
 * `<!-- /lore:entry -->`; then the end line. An entry whose body holds a marker line is
 * left out (`left_out`), since the section could not be read back.
 *
 * @param entries - the reachable entries.
 */
export function renderAgentsSection(entries: readonly ExportEntry[]): AgentsSection {
  const lines = [SECTION_BEGIN_LINE, SECTION_HEADING];
  const ids: string[] = [];
  const leftOut: string[] = [];
  let group: string | undefined;
  for (const item of sortForExport(entries)) {
    const body = exportBody(item.entry);
    if (bodyHoldsMarker(body)) {
      leftOut.push(item.entry.id);
      continue;
    }
    const of = groupOf(item.path);
    if (of !== group) {
      group = of;
      lines.push("", `### ${of}`);
    }
    lines.push("", entryMetaLine(item.entry), body.replace(/\n$/u, ""), ENTRY_CLOSE);
    ids.push(item.entry.id);
  }
  if (ids.length === 0) lines.push("", "_No reachable entries._");
  lines.push("", SECTION_END);
  return { text: `${lines.join("\n")}\n`, ids, left_out: leftOut };
}

/** Where Lore's section lies in a text's lines: the begin and end line numbers (0-based). */
export function findSection(
  lines: readonly string[],
): { begin: number; end: number } | "none" | string {
  const begins: number[] = [];
  const ends: number[] = [];
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/u, "").trimEnd();
    if (line.startsWith(SECTION_BEGIN)) begins.push(i);
    if (line === SECTION_END) ends.push(i);
  });
  if (begins.length === 0 && ends.length === 0) return "none";
  const [begin] = begins;
  const [end] = ends;
  if (begins.length !== 1 || ends.length !== 1 || begin === undefined || end === undefined) {
    return `it holds ${begins.length} lore:begin and ${ends.length} lore:end lines, not one of each`;
  }
  if (end < begin) return "its lore:end line comes before its lore:begin line";
  return { begin, end };
}

/**
 * Puts the section into an AGENTS.md: replaces the lines from the begin marker to the end
 * marker when the file has them, else appends the section after a blank line; a missing
 * file becomes the section alone. The user's text outside the markers is kept byte for
 * byte; a file with CRLF line ends gets the section with CRLF too. Merging the same
 * section twice gives the same bytes.
 *
 * @param existing - the file's text, or `undefined` when there is none.
 * @param section - {@link AgentsSection.text}.
 * @throws LoreError `invalid_input` when the file's markers are damaged (a begin without an
 *   end, two sections, an end before the begin): Lore cannot tell its text from the user's.
 */
export function mergeAgentsMd(existing: string | undefined, section: string): string {
  if (existing === undefined || existing === "") return section;
  const crlf = existing.includes("\r\n");
  const own = crlf ? section.replace(/\n/gu, "\r\n") : section;
  const nl = crlf ? "\r\n" : "\n";
  const lines = existing.split("\n");
  const found = findSection(lines);
  if (found === "none") {
    const head = existing.endsWith("\n") ? existing : `${existing}${nl}`;
    return `${head}${nl}${own}`;
  }
  if (typeof found === "string") {
    throw new LoreError("invalid_input", {
      reason: `${AGENTS_MD_PATH} has a damaged Lore section (${found}); fix the markers by hand or remove them, then export again`,
      reason_ru: `раздел Lore в ${AGENTS_MD_PATH} повреждён (${found}); поправьте метки вручную или удалите их и выгрузите снова`,
    });
  }
  // `own` ends with its newline; its lines replace the marked ones, and what followed the
  // end marker (the newline after it included) stays as it was.
  const rest = lines.slice(found.end + 1);
  // With nothing after the end marker (not even its newline), the section's own newline ends
  // the file. A CRLF file's lines keep their `\r`, so `\n` joins them right.
  const ownLines = own.slice(0, -1).split("\n");
  return [...lines.slice(0, found.begin), ...ownLines, ...(rest.length === 0 ? [""] : rest)].join(
    "\n",
  );
}
