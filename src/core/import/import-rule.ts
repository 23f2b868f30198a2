/**
 * The import rule: one real agent-knowledge file (a Cursor rule, a skill, an AGENTS.md, a
 * wiki page, a note) becomes one Lore entry, or several when it is too large
 * (real input; seed 004 "Устройство файла", "Пределы").
 *
 * The rule, in order:
 *
 * 1. **Text.** Bytes with a NUL byte → skipped `binary`; not UTF-8 → skipped `not_utf8`.
 *    A BOM is dropped; CRLF and lone CR become LF.
 * 2. **Frontmatter.** A leading `---` block is read tolerantly (`readSourceFrontmatter`:
 *    YAML 1.2 core, else top-level `key: value` lines, so unquoted Cursor globs still
 *    count) and removed from the body. An unclosed `---` block is body text.
 * 3. **Names.** `title` = frontmatter `title`, else `name`, else the first `# H1`, else the
 *    path name (the file name without extensions, or the folder name when the file name is
 *    generic: SKILL, AGENTS, CLAUDE, GEMINI, README, index, rules, `.cursorrules`, …).
 *    `description` = frontmatter `description`, else `desc`, else `summary`.
 * 4. **Body.** The text after the frontmatter, outer blank lines trimmed; when it is blank
 *    the description is the body. No letter or digit anywhere → skipped `empty`.
 * 5. **Words** (`on_query`): distinct significant terms of, in this order, frontmatter
 *    `title`, `name`, the first H1, the path name, the description, then the H1–H3
 *    headings; lower case, `ё` → `е`, English and Russian stopwords and generic rule words
 *    dropped, one word per Snowball stem, at most 12 (`collectWords`). Generic headings
 *    (`Overview`, `Notes`, `Summary`, `Примечания`, `Ссылки` …, `isGenericHeading`) give no
 *    words, nor do the template headings and common words of the run (`importVocabulary`:
 *    a heading found in ≥ 1% of the imported files and at least 5 of them; a word this step
 *    would take from over 5% of them, when at least 20 are imported). No word → no contract.
 * 6. **Summary**: the description; else `title — first prose paragraph` (frontmatter
 *    title or name or H1; no prefix when the paragraph starts with it; either alone when
 *    the other is missing); folded to one line, cut to 512 bytes at a word. Left out when
 *    it equals the summary the body gives by itself (its first paragraph).
 * 7. **Source section**, appended to the body: `## Source` with `- path: …`, then one
 *    `- key: value` line per frontmatter key whose value is a scalar or a list of scalars
 *    (file order, at most 16, values folded and cut to 300 bytes), and `- other keys: …`
 *    naming the rest. No frontmatter key is added to the entry (an unknown key would make
 *    it unreachable): `origin: human`, the contract, the summary and `links` only.
 * 8. **Size.** When the file would exceed 64 KB, the body is split (`splitBody`: at
 *    headings, then blank lines, then lines) into parts of at most 48 KB. Part *k* of *n*
 *    gets the summary `title (part k/n): lead` (the lead: the description or the first
 *    prose paragraph in part 1, the part's first heading or first prose paragraph after),
 *    words from its own headings (the description only in part 1), `- part: k of n` in
 *    its Source section, and `links` to the previous and next part. More than 64 parts →
 *    skipped `too_large`.
 * 9. **Check.** Each entry file is parsed back strictly (`parseEntry`); any error or
 *    warning → skipped `rejected` (a bug guard: it should never happen).
 *
 * Pure: ids come from the `mintId` parameter (one call per part, in part order).
 */
import type { Diagnostic } from "../entry/diagnostic.js";
import { type Entry, LIMITS } from "../entry/entry.js";
import { formatEntry } from "../entry/format-entry.js";
import { parseEntry } from "../entry/parse-entry.js";
import { resolveSummary } from "../entry/summary.js";
import { invalidUtf8Offset, utf8ByteLength } from "../entry/utf8.js";
import { readSourceFrontmatter } from "./import-rule-frontmatter.js";
import { type ImportSkip, makeImportSkip } from "./import-rule-skip.js";
import { capBytes, firstProseParagraph, listHeadings, splitBody } from "./import-rule-split.js";
import {
  collectWords,
  type FileVocabulary,
  fileVocabulary,
  headingKey,
  type ImportVocabulary,
  isGenericHeading,
} from "./import-rule-words.js";

/** One entry made from a source file. */
export interface ImportedEntry {
  entry: Entry;
  /** The entry file as `formatEntry` writes it (LF, `---` fences). */
  text: string;
  /** UTF-8 size of `text`, bytes (≤ 64 KB). */
  bytes: number;
  /** 1-based part number; 1 when the file was not split. */
  part: number;
  /** How many parts the file gave; 1 when not split. */
  parts: number;
}

/** What {@link importRule} made of a file: entries, or the reason it was skipped. */
export interface ImportOutcome {
  /** The entries in part order; empty when skipped. */
  entries: ImportedEntry[];
  /** Present when the file was not imported. */
  skip?: ImportSkip;
}

/** Largest body part when a file is split, bytes (leaves room for frontmatter and Source). */
export const IMPORT_PART_BYTES = 48 * 1024;

/** Most parts one file may give; larger files are skipped `too_large`. */
export const IMPORT_MAX_PARTS = 64;

/** Most frontmatter keys listed one per line in the Source section. */
const MAX_SOURCE_KEYS = 16;

/** Largest value in the Source section, bytes. */
const MAX_SOURCE_VALUE_BYTES = 300;

/** File names (without extensions) that say nothing about the content: the folder names it. */
const GENERIC_NAMES = new Set([
  "skill",
  "agents",
  "agent",
  "claude",
  "gemini",
  "readme",
  "index",
  "_index",
  "rules",
  "copilot-instructions",
  "instructions",
  "cursorrules",
  "clinerules",
  "windsurfrules",
]);

/**
 * Turns one source file into Lore entries by the rule documented at the top of this module.
 * Never throws on file content.
 *
 * @param source - `path` (relative to the imported folder, `/`-separated; recorded in the
 *   Source section and used for the path name) and the file's `bytes` (or its decoded text).
 * @param mintId - returns a fresh UUIDv7 per call; called once per entry made.
 * @param vocabulary - the import run's template headings and common words (step 5);
 *   default: none.
 * @returns the entries, or `skip` with one of `binary`, `not_utf8`, `empty`, `too_large`,
 *   `frontmatter_too_large` (the frontmatter's aliases expand past 64 KB), `rejected`.
 */
export function importRule(
  source: { path: string; bytes: Uint8Array | string },
  mintId: () => string,
  vocabulary: ImportVocabulary = NO_VOCABULARY,
): ImportOutcome {
  const decoded = decode(source.bytes);
  if (typeof decoded !== "string") return { entries: [], skip: decoded };
  const { fields, name, fmTitle, description, body, h1, pathName, identity, refused } = readSource(
    decoded,
    source.path,
  );
  if (refused !== undefined) {
    return { entries: [], skip: makeImportSkip("frontmatter_too_large", refused.params) };
  }
  if (!/[\p{L}\p{N}]/u.test(body)) return { entries: [], skip: makeImportSkip("empty") };
  const title = fmTitle || name || h1 || pathName;
  const sourceLines = sourceSection(source.path, fields);

  const summary = description || titledParagraph(fmTitle || name || h1, firstProseParagraph(body));
  const whole = buildEntry({
    id: mintId(),
    body,
    words: collectWords(
      [...identity, description, ...headingTexts(body, vocabulary)],
      undefined,
      vocabulary.commonStems,
    ),
    summary,
    sourceLines,
    links: [],
  });
  if (whole.bytes <= LIMITS.fileBytes) return finish([whole], source.path);

  const chunks = splitBody(body, IMPORT_PART_BYTES)
    .map((chunk) => chunk.replace(/^(?:[ \t]*\n)+/u, "").trimEnd())
    .filter((chunk) => chunk !== "");
  if (chunks.length > IMPORT_MAX_PARTS) {
    const limit = IMPORT_PART_BYTES * IMPORT_MAX_PARTS;
    return {
      entries: [],
      skip: makeImportSkip("too_large", { size: utf8ByteLength(decoded), limit }),
    };
  }
  const ids = [whole.entry.id, ...chunks.slice(1).map(() => mintId())];
  const parts = chunks.map((chunk, i) => {
    const n = chunks.length;
    const first = i === 0;
    const label = `${title} (part ${i + 1}/${n})`;
    const lead = first
      ? description || firstProseParagraph(chunk)
      : listHeadings(chunk)[0]?.text || firstProseParagraph(chunk);
    return buildEntry({
      id: ids[i] as string,
      body: chunk,
      words: collectWords(
        [...identity, first ? description : "", ...headingTexts(chunk, vocabulary)],
        undefined,
        vocabulary.commonStems,
      ),
      summary: lead ? `${label}: ${lead}` : label,
      sourceLines: [`- part: ${i + 1} of ${n}`, ...sourceLines],
      links: [ids[i - 1], ids[i + 1]].filter((id): id is string => id !== undefined),
    });
  });
  return finish(parts, source.path);
}

/** A decoded source file's parts (steps 2–4 of the rule). */
interface SourceParts {
  fields: Map<string, unknown>;
  name: string;
  fmTitle: string;
  description: string;
  body: string;
  h1: string;
  pathName: string;
  /** The names, most identifying first: title, name, H1, path name. */
  identity: string[];
  /** Set when the frontmatter's aliases expand past 64 KB: the file is not imported. */
  refused?: ReturnType<typeof readSourceFrontmatter>["refused"];
}

function readSource(decoded: string, path: string): SourceParts {
  const { fields, body: rawBody, refused } = readSourceFrontmatter(decoded);
  const name = fieldText(fields.get("name"));
  const fmTitle = fieldText(fields.get("title"));
  const description =
    fieldText(fields.get("description")) ||
    fieldText(fields.get("desc")) ||
    fieldText(fields.get("summary"));
  let body = rawBody.replace(/^(?:[ \t]*\n)+/u, "").trimEnd();
  if (body.trim() === "") body = description;
  const h1 = listHeadings(body).find((heading) => heading.level === 1)?.text ?? "";
  const pathName = pathNameOf(path);
  return {
    fields,
    name,
    fmTitle,
    description,
    body,
    h1,
    pathName,
    identity: [fmTitle, name, h1, pathName],
    ...(refused === undefined ? {} : { refused }),
  };
}

/** Extensions of the files the import reads. */
export const IMPORT_EXTENSIONS = [".md", ".mdc", ".mdx", ".markdown", ".txt"] as const;

/**
 * Tells whether a file name looks like agent knowledge the import reads: an extension of
 * {@link IMPORT_EXTENSIONS} (`AGENTS.md`, `SKILL.md`, `x.instructions.md`, `rule.mdc`,
 * `notes.txt`), or a rules file by name (`.cursorrules`, `.cursorrules-mvvm`,
 * `foo-cursorrules-prompt-file`, `.clinerules`, `.windsurfrules`). Licence files
 * (`LICENSE*`, `COPYING*`, `NOTICE*`) are not knowledge.
 *
 * @param name - the file name (last path segment).
 */
export function isKnowledgeFileName(name: string): boolean {
  if (/^(?:licen[cs]e|copying|notice)(?:[.-]|$)/iu.test(name)) return false;
  const lower = name.toLowerCase();
  if (IMPORT_EXTENSIONS.some((ext) => lower.endsWith(ext) && lower.length > ext.length)) {
    return true;
  }
  return (
    /(?:cursor|cline|windsurf)rules/u.test(lower) &&
    !/\.(?:json|ya?ml|toml|[cm]?[jt]s)$/u.test(lower)
  );
}

function decode(bytes: Uint8Array | string): string | ImportSkip {
  let text: string;
  if (typeof bytes === "string") {
    if (bytes.includes("\0")) return makeImportSkip("binary");
    text = bytes.startsWith("\uFEFF") ? bytes.slice(1) : bytes;
  } else {
    if (bytes.includes(0)) return makeImportSkip("binary");
    const offset = invalidUtf8Offset(bytes);
    if (offset >= 0) return makeImportSkip("not_utf8", { offset });
    text = new TextDecoder("utf-8").decode(bytes);
  }
  return text.replace(/\r\n?/gu, "\n");
}

/** A frontmatter value as one line of text: scalars as written, scalar lists joined by `, `. */
function fieldText(value: unknown): string {
  if (typeof value === "string") return value.replace(/\s+/gu, " ").trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((item) => isScalar(item))) {
    return value
      .map((item) => fieldText(item))
      .filter(Boolean)
      .join(", ");
  }
  return "";
}

function isScalar(value: unknown): boolean {
  return ["string", "number", "boolean"].includes(typeof value);
}

/** The file name without extensions, or the folder name when the file name is generic. */
function pathNameOf(path: string): string {
  const segments = path.split("/").filter(Boolean);
  const file = segments.at(-1) ?? "";
  const stem = file.replace(/^\.+/u, "").replace(/\..*$/u, "");
  if (stem !== "" && !GENERIC_NAMES.has(stem.toLowerCase())) return stem;
  return segments.at(-2) ?? stem;
}

/** An import run that knows nothing of its other files. */
const NO_VOCABULARY: ImportVocabulary = { templateHeadings: new Set(), commonStems: new Set() };

/** The H1–H3 headings that may give words: not generic, not template headings of the run. */
function headingTexts(body: string, vocabulary: ImportVocabulary): string[] {
  return listHeadings(body)
    .filter((heading) => heading.level <= 3)
    .map((heading) => heading.text)
    .filter(
      (text) => !isGenericHeading(text) && !vocabulary.templateHeadings.has(headingKey(text)),
    );
}

/**
 * What a source file contributes to its import run's vocabulary (`importVocabulary`): its
 * heading keys and the stems of the words step 5 would take from it (before the run's
 * common words are known). Never throws; a binary or non-UTF-8 file gives nothing.
 *
 * @param path - the file's path (for the path name).
 * @param bytes - the file's bytes (or its text).
 */
export function sourceVocabulary(path: string, bytes: Uint8Array | string): FileVocabulary {
  const decoded = decode(bytes);
  if (typeof decoded !== "string") return { headings: [], stems: [] };
  const { identity, description, body } = readSource(decoded, path);
  const headings = listHeadings(body).map((heading) => heading.text);
  const words = collectWords([...identity, description, ...headingTexts(body, NO_VOCABULARY)]);
  return fileVocabulary(headings, words.join(" "));
}

function titledParagraph(title: string, paragraph: string): string {
  if (title === "") return paragraph;
  if (paragraph === "") return title;
  const bare = title.replace(/[*_`]/gu, "");
  if (paragraph.replace(/[*_`]/gu, "").startsWith(bare)) return paragraph;
  return `${title} — ${paragraph}`;
}

function sourceSection(path: string, fields: Map<string, unknown>): string[] {
  const lines = [`- path: ${path}`];
  const others: string[] = [];
  for (const [rawKey, value] of fields) {
    const key = rawKey.replace(/\s+/gu, " ").trim();
    const text = fieldText(value);
    if (text === "" && value !== null && value !== undefined && !isScalar(value)) {
      others.push(key);
    } else if (text !== "") {
      if (lines.length > MAX_SOURCE_KEYS) others.push(key);
      else lines.push(`- ${key}: ${capBytes(text, MAX_SOURCE_VALUE_BYTES)}`);
    }
  }
  if (others.length > 0) {
    lines.push(`- other keys: ${capBytes(others.join(", "), MAX_SOURCE_VALUE_BYTES)}`);
  }
  return lines;
}

interface EntryDraft {
  id: string;
  body: string;
  words: string[];
  summary: string;
  sourceLines: string[];
  links: string[];
}

function buildEntry(draft: EntryDraft): ImportedEntry {
  const body = `${draft.body}\n\n## Source\n\n${draft.sourceLines.join("\n")}\n`;
  const entry: Entry = {
    id: draft.id,
    contract:
      draft.words.length > 0 ? [{ mechanism: "on_query", params: { words: draft.words } }] : [],
    origin: "human",
    links: draft.links,
    unknownKeys: {},
    body,
  };
  const summary = capBytes(draft.summary.replace(/\s+/gu, " ").trim(), LIMITS.summaryBytes);
  const repeats = resolveSummary(summary, body).notes.some(
    (n) => n.code === "summary_repeats_body",
  );
  if (summary !== "" && !repeats) entry.summary = summary;
  const text = formatEntry(entry);
  return { entry, text, bytes: utf8ByteLength(text), part: 1, parts: 1 };
}

/** Numbers the parts and parses each file back strictly (step 9 of the rule). */
function finish(entries: ImportedEntry[], path: string): ImportOutcome {
  for (const [i, imported] of entries.entries()) {
    imported.part = i + 1;
    imported.parts = entries.length;
    if (imported.bytes > LIMITS.fileBytes) {
      const skip = makeImportSkip("too_large", { size: imported.bytes, limit: LIMITS.fileBytes });
      return { entries: [], skip };
    }
    const result = parseEntry(imported.text, { mode: "strict", path });
    const bad = result.diagnostics.find((d: Diagnostic) => d.severity !== "info");
    if (result.value === undefined || bad !== undefined) {
      const reason = bad ? `${bad.code}: ${bad.message.en}` : "no entry";
      return { entries: [], skip: makeImportSkip("rejected", { reason }) };
    }
  }
  return { entries };
}
