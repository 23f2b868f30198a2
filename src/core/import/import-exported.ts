/**
 * The import side of `lore export` (export and import, both ways): recognises the files
 * Lore wrote into other tools' formats — a Lore section of an AGENTS.md, a Cursor rule or
 * an Agent Skill holding Lore's meta comment — and gives back their entries with the ids
 * they had, rather than minting new ones. Pure.
 */
import type { Diagnostic } from "../entry/diagnostic.js";
import type { Entry } from "../entry/entry.js";
import { formatEntry } from "../entry/format-entry.js";
import { normalizeBody } from "../entry/frontmatter-fences.js";
import { parseEntry } from "../entry/parse-entry.js";
import {
  ENTRY_CLOSE,
  ENTRY_OPEN,
  type EntryMeta,
  isEntryMetaLine,
  readEntryMetaLine,
  SECTION_BEGIN,
} from "../export/export-marker.js";
import { findSection } from "../export/render-agents-md.js";
import { readSourceFrontmatter } from "./import-rule-frontmatter.js";

/** One entry read back from an exported file. */
export interface ExportedEntry {
  entry: Entry;
  /** The entry file as `formatEntry` writes it. */
  text: string;
}

/** What an exported file gave back. */
export interface ExportedRead {
  /** `file`: a rule or skill holding one entry; `section`: an AGENTS.md with Lore's section. */
  kind: "file" | "section";
  /** The entries, in file order. */
  entries: ExportedEntry[];
  /**
   * For `section`: the file's text outside Lore's section (the user's own), when it holds a
   * letter or a digit — it is imported by the import rule, as any file without Lore's ids.
   */
  remainder?: string;
}

/**
 * Reads a file Lore exported. A file is Lore's when the first non-blank line after its
 * front matter is a `<!-- lore:entry {…} -->` comment (a Cursor rule, a skill: the body
 * runs to the end of the file), or when it holds a `<!-- lore:begin` line (an AGENTS.md:
 * each entry from its comment to `<!-- /lore:entry -->`; headings and blank lines between
 * entries are Lore's layout, not content). Each entry is rebuilt from the comment (id,
 * origin, contract, links, summary override) and its body, then parsed back
 * (an error refuses it).
 *
 * @param text - the file's text (a BOM and CRLF line ends are accepted).
 * @returns `undefined` when the file holds no Lore marker (the import rule applies);
 *   `{error}` when a marker is damaged (bad JSON, an entry never closed, a broken section,
 *   an entry that does not parse): the file is not imported, never guessed at.
 */
export function readLoreExport(text: string): ExportedRead | { error: string } | undefined {
  // Most imported files are no export: they cost one substring search, no YAML.
  if (!text.includes(ENTRY_OPEN) && !text.includes(SECTION_BEGIN)) return undefined;
  const clean = (text.startsWith("\uFEFF") ? text.slice(1) : text).replace(/\r\n?/gu, "\n");
  const { body } = readSourceFrontmatter(clean);
  const lines = body.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first >= 0 && isEntryMetaLine(lines[first] ?? "")) {
    const built = build(lines[first] ?? "", lines.slice(first + 1).join("\n"));
    return "error" in built ? built : { kind: "file", entries: [built] };
  }
  const all = clean.split("\n");
  const found = findSection(all);
  if (found === "none") return undefined;
  if (typeof found === "string") return { error: `the Lore section is damaged: ${found}` };
  const entries: ExportedEntry[] = [];
  for (let i = found.begin + 1; i < found.end; i++) {
    const line = all[i] ?? "";
    if (!isEntryMetaLine(line)) continue;
    let close = i + 1;
    // Another entry's comment before this one's close: this one was never closed.
    while (
      close < found.end &&
      (all[close] ?? "").trimEnd() !== ENTRY_CLOSE &&
      !isEntryMetaLine(all[close] ?? "")
    ) {
      close++;
    }
    if (close >= found.end || isEntryMetaLine(all[close] ?? ""))
      return { error: "a lore:entry comment is never closed by <!-- /lore:entry -->" };
    const built = build(line, all.slice(i + 1, close).join("\n"));
    if ("error" in built) return built;
    entries.push(built);
    i = close;
  }
  const outside = [...all.slice(0, found.begin), ...all.slice(found.end + 1)].join("\n");
  const read: ExportedRead = { kind: "section", entries };
  if (/[\p{L}\p{N}]/u.test(outside)) read.remainder = outside;
  return read;
}

function build(metaLine: string, body: string): ExportedEntry | { error: string } {
  const meta = readEntryMetaLine(metaLine);
  if ("error" in meta) return meta;
  const entry = entryOf(meta, normalizeBody(body));
  const text = formatEntry(entry);
  // Lenient, errors only: an entry may declare a mechanism this version does not know
  // (`on_path` beside `on_query`); it was kept that way in its repository and is kept so here.
  const parsed = parseEntry(text, { mode: "lenient" });
  const bad = parsed.diagnostics.find((d: Diagnostic) => d.severity === "error");
  if (parsed.value === undefined || bad !== undefined) {
    return {
      error: `the entry ${meta.id} does not parse: ${bad ? `${bad.code}: ${bad.message.en}` : "no entry"}`,
    };
  }
  return { entry, text };
}

function entryOf(meta: EntryMeta, body: string): Entry {
  const entry: Entry = {
    id: meta.id,
    contract: meta.contract,
    origin: meta.origin,
    links: meta.links,
    unknownKeys: {},
    body,
  };
  if (meta.summary !== undefined) entry.summary = meta.summary;
  return entry;
}

/**
 * Tells whether a file is one `lore export cursor|skills` wrote: the first non-blank line
 * after its front matter is a `<!-- lore:entry` comment (damaged or not: the marker says
 * whose file it is). Such a file may be overwritten or removed by the next export; any
 * other file is the user's and never is.
 *
 * @param text - the file's text.
 */
export function isLoreExportFile(text: string): boolean {
  if (!text.includes(ENTRY_OPEN)) return false;
  const clean = (text.startsWith("\uFEFF") ? text.slice(1) : text).replace(/\r\n?/gu, "\n");
  const line = readSourceFrontmatter(clean)
    .body.split("\n")
    .find((candidate) => candidate.trim() !== "");
  return line !== undefined && isEntryMetaLine(line);
}
