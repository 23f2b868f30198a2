import type { LocalizedText } from "../errors/localized-text.js";
import { LoreError } from "../errors/lore-error.js";
import { slugProblem } from "./wiki-slug.js";

/**
 * The page types of a wiki, in the canonical order of `index.md` sections (seed 001,
 * Task 1: `## Entities` / `## Concepts` / `## Packages` / `## Sources` / `## Raw`).
 */
export const WIKI_PAGE_TYPES = ["entities", "concepts", "packages", "sources", "raw"] as const;

/** One wiki page type: the first segment of a slug and the folder of the page. */
export type WikiPageType = (typeof WIKI_PAGE_TYPES)[number];

/** The `## <heading>` of each type's section in a canonical `index.md`. */
export const WIKI_SECTION_HEADINGS: Readonly<Record<WikiPageType, string>> = {
  entities: "Entities",
  concepts: "Concepts",
  packages: "Packages",
  sources: "Sources",
  raw: "Raw",
};

/** The line an empty section holds in a canonical index. */
export const EMPTY_SECTION_PLACEHOLDER = "<!-- (none yet) -->";

/**
 * One page listed in an index (seed 001, Task 1, `WikiIndexEntry`): exactly these fields.
 */
export interface WikiIndexEntry {
  /** Slug with its type prefix, e.g. `concepts/foo` or `entities/bar/baz`. */
  slug: string;
  /** The section the line was found in (equals the slug's first segment). */
  type: WikiPageType;
  /** The text after the em-dash, trimmed. */
  title: string;
}

/**
 * Why an index line that looks like an entry (`- [` inside a type section) was not read:
 * - `unbalanced_link_target` — the parentheses of the link target do not balance (case 1);
 * - `unsafe_slug` — the target would escape the wiki (`..`, absolute, backslash);
 * - `link_outside_section` — the target is not `<section type>/….md` (e.g. a URL);
 * - `not_an_entry` — not `- [label](type/slug.md) — title` (e.g. no em-dash title).
 */
export type WikiIndexProblemCode =
  | "unbalanced_link_target"
  | "unsafe_slug"
  | "link_outside_section"
  | "not_an_entry";

/** One index line the parser could not read, a value (never thrown). */
export interface WikiIndexProblem {
  /** Machine code, see {@link WikiIndexProblemCode}. */
  code: WikiIndexProblemCode;
  /** 1-based line number in the index. */
  line: number;
  /** The line's text as written. */
  text: string;
  /** The reason in English and Russian. */
  message: LocalizedText;
}

/**
 * A line or heading that is not in the canonical form but was read anyway (what real wikis
 * hold), a value (never thrown):
 * - `title_separator` — the title follows `--`, `–`, `-` or `:` instead of the em-dash `—`;
 * - `link_text_title` — the line has no title: the link text is taken as the title;
 * - `decorated_heading` — a section heading with decorations (`## Concepts · 12`,
 *   `## 🧠 Sources`, `## concepts`) read as that type's section.
 */
export type WikiIndexWarningCode = "title_separator" | "link_text_title" | "decorated_heading";

/** One non-canonical line that was read (see {@link WikiIndexWarningCode}). */
export interface WikiIndexWarning {
  code: WikiIndexWarningCode;
  /** 1-based line number in the index. */
  line: number;
  /** The line's text as written (at most 200 characters). */
  text: string;
  /** What was read from it, in English and Russian. */
  message: LocalizedText;
}

/** What {@link parseWikiIndexWithReport} gives back. */
export interface WikiIndexReport {
  /** Entries in file order (as {@link parseWikiIndex}). */
  entries: WikiIndexEntry[];
  /** Lines inside type sections that start with `- [` but were not read. */
  problems: WikiIndexProblem[];
  /** Lines and headings read although not canonical. */
  warnings: WikiIndexWarning[];
}

const SECTION_TYPES: ReadonlyMap<string, WikiPageType> = new Map(
  WIKI_PAGE_TYPES.map((type) => [WIKI_SECTION_HEADINGS[type], type] as const),
);
const SECTION_WORDS: ReadonlyMap<string, WikiPageType> = new Map(
  WIKI_PAGE_TYPES.map((type) => [type, type] as const),
);

const MESSAGES: Record<WikiIndexProblemCode, LocalizedText> = {
  unbalanced_link_target: {
    en: "the parentheses of the link target do not balance",
    ru: "скобки в адресе ссылки не сбалансированы",
  },
  unsafe_slug: {
    en: "the link target leaves the wiki folder, or a name in it is too long",
    ru: "адрес ссылки выходит из папки вики, или имя в нём слишком длинное",
  },
  link_outside_section: {
    en: "the link target is not a page of this section (type/slug.md)",
    ru: "адрес ссылки — не страница этого раздела (type/slug.md)",
  },
  not_an_entry: {
    en: "not an index entry “- [label](type/slug.md) — title”",
    ru: "не строка указателя «- [метка](type/slug.md) — заголовок»",
  },
};

const WARNINGS: Record<WikiIndexWarningCode, LocalizedText> = {
  title_separator: {
    en: "read; the canonical separator before the title is the em-dash “ — ”",
    ru: "прочитано; канонический разделитель перед заголовком — длинное тире « — »",
  },
  link_text_title: {
    en: "read with the link text as the title; the canonical line ends with “ — title”",
    ru: "прочитано, заголовок — текст ссылки; каноническая строка кончается на « — заголовок»",
  },
  decorated_heading: {
    en: "read as a type section; the canonical heading is plain, e.g. “## Concepts”",
    ru: "прочитан как раздел типа; канонический заголовок простой, например «## Concepts»",
  },
};

/** The pieces of one `- [label](target) rest` line, or a reason it is not one. */
type LinkLine =
  | { kind: "link"; label: string; target: string; rest: string }
  | { kind: "unbalanced" }
  | { kind: "other" };

/** Splits `- [label](target)rest`, the target may hold balanced parentheses (case 1). Linear. */
function splitLinkLine(line: string): LinkLine {
  if (!line.startsWith("- [")) return { kind: "other" };
  const close = line.indexOf("](", 3);
  // The label is `[^\]]+`: no `]` before the `](`.
  if (close <= 3 || line.lastIndexOf("]", close - 1) >= 3) return { kind: "other" };
  const open = close + 2;
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    const ch = line[i];
    if (ch === "(") depth++;
    else if (ch === ")") {
      if (depth === 0) {
        const rest = line.slice(i + 1);
        // Not a title after the link but a `)` further on: the target closed too early.
        if (rest.trim() !== "" && titleOf(rest) === null && rest.includes(")"))
          return { kind: "unbalanced" };
        return { kind: "link", label: line.slice(3, close), target: line.slice(open, i), rest };
      }
      depth--;
    }
  }
  return { kind: "unbalanced" };
}

/**
 * The text of a `## ` heading (trimmed), or `null` when the line is not one. Linear (no
 * backtracking regex: a long line must not take quadratic time).
 *
 * @param line - one line of markdown.
 */
export function headingText(line: string): string | null {
  if (!line.startsWith("##") || line.startsWith("###")) return null;
  const after = line.slice(2);
  if (after === "" || !/^\s/.test(after)) return null;
  const text = after.trim();
  return text === "" ? null : text;
}

/**
 * The type section a heading opens: the canonical heading exactly (`Concepts`), or — with
 * a `decorated_heading` warning — a heading whose only word is a type's name in any case,
 * whatever decorations surround it (`Concepts · 12`, `🧠 Sources`, `concepts`).
 */
function sectionOf(heading: string): { type: WikiPageType | null; decorated: boolean } {
  const exact = SECTION_TYPES.get(heading);
  if (exact !== undefined) return { type: exact, decorated: false };
  const words = heading.split(/[^\p{L}]+/u).filter((w) => w !== "");
  const only = words.length === 1 ? SECTION_WORDS.get((words[0] ?? "").toLowerCase()) : undefined;
  return only === undefined ? { type: null, decorated: false } : { type: only, decorated: true };
}

/**
 * The type whose section a `## ` heading opens (see {@link parseWikiIndexWithReport}), or
 * `null` for any other heading (`## Overview`, `## Modules`).
 *
 * @param heading - the heading's text, from {@link headingText}.
 */
export function sectionType(heading: string): WikiPageType | null {
  return sectionOf(heading).type;
}

/** The title after a link: `— title` (canonical), else `--`, `–`, `-`, `:` (a warning). */
function titleOf(rest: string): { title: string; separator: "canonical" | "other" } | null {
  const text = rest.trim();
  for (const [mark, separator] of [
    ["—", "canonical"],
    ["--", "other"],
    ["–", "other"],
    ["-", "other"],
    [":", "other"],
  ] as const) {
    if (!text.startsWith(mark)) continue;
    const title = text.slice(mark.length).trim();
    return title === "" ? null : { title, separator };
  }
  return null;
}

/**
 * Parses a wiki `index.md`, reports the entry-like lines it could not read and the
 * non-canonical ones it read anyway.
 *
 * Behaviour (seed 001, Task 1): sections are `## Entities|Concepts|Packages|Sources|Raw`
 * (any other `## ` heading, e.g. `## Overview`, ends the current section and is skipped);
 * under a section, lines `- [label](type/slug.md) — title` (Unicode em-dash) become
 * `{ slug: "type/slug", type, title }`; the placeholder `<!-- (none yet) -->`, blank lines
 * and anything else are ignored; empty or malformed input gives no entries. A link target
 * may hold balanced parentheses (`entities/yolka-(tree).md`). What real wikis hold is read
 * with a warning (see {@link WikiIndexWarningCode}): `-- title` (two hyphens, also `–`,
 * `-`, `:`), a line without a title (the link text is the title), a decorated heading.
 * Pure; never throws; linear in the input's length.
 *
 * @param md - the index text (LF or CRLF).
 * @returns entries in file order, problems and warnings by line.
 */
export function parseWikiIndexWithReport(md: string): WikiIndexReport {
  const entries: WikiIndexEntry[] = [];
  const problems: WikiIndexProblem[] = [];
  const warnings: WikiIndexWarning[] = [];
  if (typeof md !== "string" || md.length === 0) return { entries, problems, warnings };
  const lines = md.split(/\r?\n/);
  let currentType: WikiPageType | null = null;
  for (const [index, line] of lines.entries()) {
    const warn = (code: WikiIndexWarningCode): void => {
      warnings.push({ code, line: index + 1, text: line.slice(0, 200), message: WARNINGS[code] });
    };
    const heading = headingText(line);
    if (heading !== null) {
      const section = sectionOf(heading);
      currentType = section.type;
      if (section.decorated) warn("decorated_heading");
      continue;
    }
    if (currentType === null || !line.startsWith("- [")) continue;
    const problem = (code: WikiIndexProblemCode): void => {
      problems.push({ code, line: index + 1, text: line, message: MESSAGES[code] });
    };
    const link = splitLinkLine(line);
    if (link.kind === "unbalanced") {
      problem("unbalanced_link_target");
      continue;
    }
    if (link.kind === "other") {
      problem("not_an_entry");
      continue;
    }
    const titled = titleOf(link.rest);
    const label = link.label.trim();
    if (titled === null && (link.rest.trim() !== "" || label === "")) {
      problem("not_an_entry");
      continue;
    }
    const target = link.target;
    if (!target.startsWith(`${currentType}/`) || !target.endsWith(".md")) {
      problem("link_outside_section");
      continue;
    }
    const slug = target.slice(0, -".md".length);
    if (slugProblem(slug) !== null) {
      problem("unsafe_slug");
      continue;
    }
    if (titled === null) warn("link_text_title");
    else if (titled.separator === "other") warn("title_separator");
    entries.push({ slug, type: currentType, title: titled?.title ?? label });
  }
  return { entries, problems, warnings };
}

/**
 * Parses a canonical wiki `index.md` into its entries — the seed's `parseWikiIndex`
 * (seed 001, Task 1; see {@link parseWikiIndexWithReport} for the rules).
 *
 * @param md - the index text.
 * @returns `Array<{ slug, type, title }>` in file order; `[]` for empty or malformed input.
 */
export function parseWikiIndex(md: string): WikiIndexEntry[] {
  return parseWikiIndexWithReport(md).entries;
}

/**
 * A fresh canonical `index.md`: `# Wiki Index`, an `## Overview` section linking
 * `overview.md`, then every type section in canonical order holding the
 * `<!-- (none yet) -->` placeholder (federation, “The wiki layout”).
 *
 * @returns the text, LF line ends, ending with one newline.
 */
export function freshIndexMd(): string {
  const parts = [
    "# Wiki Index",
    "",
    "## Overview",
    "",
    "- [overview.md](overview.md) — project overview",
  ];
  for (const type of WIKI_PAGE_TYPES)
    parts.push("", `## ${WIKI_SECTION_HEADINGS[type]}`, "", EMPTY_SECTION_PLACEHOLDER);
  return `${parts.join("\n")}\n`;
}

/** The type of a slug (its first segment), or `null` when it is not a page type. */
export function slugType(slug: string): WikiPageType | null {
  const first = slug.split("/")[0] ?? "";
  return (WIKI_PAGE_TYPES as readonly string[]).includes(first) ? (first as WikiPageType) : null;
}

/** True when every `(` in the text is closed by a later `)` and no `)` comes unopened. */
function parenthesesBalance(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === "(") depth++;
    else if (ch === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * Formats one canonical index line: `- [<slug without type>](<slug>.md) — <title>`.
 *
 * @param entry - `{ slug, title }`; the title is put on one line (runs of whitespace → one space).
 * @returns the line, no newline.
 * @throws LoreError `invalid_slug` when the slug is unsafe, has no page-type prefix, or
 *   holds `[`, `]` or unbalanced parentheses (the parser could not read it back).
 */
export function formatIndexLine(entry: { slug: string; title: string }): string {
  const { slug } = entry;
  const type = slugType(slug);
  const problem = slugProblem(slug);
  const refuse = (en: string, ru: string) => {
    throw new LoreError("invalid_slug", { slug, reason: en, reason_ru: ru });
  };
  if (problem !== null) refuse(problem.en, problem.ru);
  if (type === null || slug === type)
    refuse(
      `it must start with a page type (${WIKI_PAGE_TYPES.join(", ")}) and a name`,
      `он должен начинаться с типа страницы (${WIKI_PAGE_TYPES.join(", ")}) и имени`,
    );
  if (/[[\]]/.test(slug) || !parenthesesBalance(slug))
    refuse(
      "it holds brackets or unbalanced parentheses",
      "в нём квадратные или несбалансированные скобки",
    );
  const title = entry.title.replace(/\s+/g, " ").trim() || slug;
  return `- [${slug.slice((type as string).length + 1)}](${slug}.md) — ${title}`;
}

/**
 * Inserts (or updates) one page's line in its type section of a canonical index (the wiki
 * layout: sorted, idempotent, replacing the placeholder).
 *
 * - The section is the slug's type; a missing section is added in canonical order.
 * - The `<!-- (none yet) -->` placeholder of that section is replaced by the line.
 * - The line goes before the first entry whose slug sorts after it (code-point order).
 * - An entry with the same slug is replaced by the new line (same line → text unchanged).
 * - Empty input starts from {@link freshIndexMd}; CRLF input keeps CRLF.
 *
 * @param md - the current index text (may be empty).
 * @param entry - `{ slug, title }`, slug with its type prefix (e.g. `concepts/foo`).
 * @returns the new index text.
 * @throws LoreError `invalid_slug` (see {@link formatIndexLine}).
 */
export function insertIndexEntry(md: string, entry: { slug: string; title: string }): string {
  const newLine = formatIndexLine(entry);
  const type = slugType(entry.slug) as WikiPageType;
  const source = md.trim().length === 0 ? freshIndexMd() : md;
  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  const lines = source.split(/\r?\n/);
  const headingOf = (line: string) => headingText(line) ?? undefined;
  let start = lines.findIndex((line) => headingOf(line) === WIKI_SECTION_HEADINGS[type]);
  if (start < 0) {
    // Add the section before the first canonical section that comes after this type.
    const later = WIKI_PAGE_TYPES.slice(WIKI_PAGE_TYPES.indexOf(type) + 1).map(
      (t) => WIKI_SECTION_HEADINGS[t],
    );
    let at = lines.findIndex((line) => later.includes(headingOf(line) ?? ""));
    if (at < 0) {
      while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
      at = lines.length;
      lines.push("");
    }
    lines.splice(at, 0, `## ${WIKI_SECTION_HEADINGS[type]}`, "", newLine, "");
    return finish(lines, eol);
  }
  let end = lines.findIndex((line, i) => i > start && /^#{1,2}\s/.test(line));
  if (end < 0) end = lines.length;
  const existing: { index: number; slug: string }[] = [];
  for (let i = start + 1; i < end; i++) {
    const found = parseWikiIndex(`## ${WIKI_SECTION_HEADINGS[type]}\n${lines[i]}`)[0];
    if (found !== undefined) existing.push({ index: i, slug: found.slug });
  }
  const same = existing.find((e) => e.slug === entry.slug);
  if (same !== undefined) {
    if (lines[same.index] === newLine) return md.trim().length === 0 ? source : md;
    lines[same.index] = newLine;
    return finish(lines, eol);
  }
  const placeholder = lines.findIndex(
    (line, i) => i > start && i < end && line.trim() === EMPTY_SECTION_PLACEHOLDER,
  );
  if (placeholder >= 0) {
    lines[placeholder] = newLine;
    return finish(lines, eol);
  }
  const after = existing.find((e) => e.slug > entry.slug);
  if (after !== undefined) lines.splice(after.index, 0, newLine);
  else if (existing.length > 0)
    lines.splice((existing[existing.length - 1] as { index: number }).index + 1, 0, newLine);
  else {
    start++;
    lines.splice(start, 0, "", newLine);
    if (lines[start + 2] !== undefined && lines[start + 2] !== "") lines.splice(start + 2, 0, "");
  }
  return finish(lines, eol);
}

function finish(lines: string[], eol: string): string {
  const text = lines.join(eol);
  return text.endsWith(eol) ? text : `${text}${eol}`;
}
