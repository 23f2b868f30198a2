import type { LocalizedText } from "../errors/localized-text.js";
import {
  headingText,
  parseWikiIndexWithReport,
  sectionType,
  WIKI_PAGE_TYPES,
  WIKI_SECTION_HEADINGS,
  type WikiIndexEntry,
  type WikiIndexProblemCode,
  type WikiIndexWarning,
} from "./wiki-index.js";

/**
 * Why a line of an index was not read (`lore wiki check`, federation, “Real input”):
 * the parser's own codes for entry-like lines inside type sections (see
 * `WikiIndexProblemCode`), and, for lines that link pages in another layout:
 * - `wikilink` — an Obsidian `[[page]]` link instead of `[label](type/slug.md)`;
 * - `table_row` — a table row naming a page (`| … | concepts/x.md | …`);
 * - `link_outside_type_section` — a page link under a heading that is not a type section
 *   (`## Modules`, `## Patterns` …) or before any heading.
 */
export type WikiCheckCode =
  | WikiIndexProblemCode
  | "wikilink"
  | "table_row"
  | "link_outside_type_section";

/** One line `lore wiki check` reports. */
export interface WikiCheckLine {
  code: WikiCheckCode;
  /** 1-based line number. */
  line: number;
  /** The line as written. */
  text: string;
  /** The reason in English and Russian. */
  message: LocalizedText;
}

/** What {@link checkWikiIndex} found. */
export interface WikiCheckReport {
  /** Pages the parser read (what ask_projects can serve). */
  entries: WikiIndexEntry[];
  /** The canonical `## <Type>` sections present. */
  sections: string[];
  /** Lines that link pages but were not read, in line order. */
  unread: WikiCheckLine[];
  /** Lines and headings read although not canonical (see `WikiIndexWarningCode`). */
  warnings: WikiIndexWarning[];
  /** True when at least one page was read and no line was left unread. */
  canonical: boolean;
}

const MESSAGES: Record<Exclude<WikiCheckCode, WikiIndexProblemCode>, LocalizedText> = {
  wikilink: {
    en: "a [[wikilink]]; the canonical index links pages as [label](type/slug.md) — title",
    ru: "ссылка [[wikilink]]; канонический указатель ссылается так: [метка](type/slug.md) — заголовок",
  },
  table_row: {
    en: "a table row; the canonical index lists pages as “- [label](type/slug.md) — title” lines",
    ru: "строка таблицы; канонический указатель перечисляет страницы строками «- [метка](type/slug.md) — заголовок»",
  },
  link_outside_type_section: {
    en: `a page link outside the sections ${WIKI_PAGE_TYPES.map((t) => `## ${WIKI_SECTION_HEADINGS[t]}`).join(", ")}`,
    ru: `ссылка на страницу вне разделов ${WIKI_PAGE_TYPES.map((t) => `## ${WIKI_SECTION_HEADINGS[t]}`).join(", ")}`,
  },
};

/** Links to the wiki's own files (overview, log, index) are not pages. */
const SPECIAL = /\]\((?:\.\/)?(?:overview|log|index)\.md\)/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;

/**
 * True when the text holds `[[x]]` (x: one or more characters, none `]`) — the regex
 * `/\[\[[^\]]+\]\]/` in one pass: a regex retries from every `[[` and is quadratic
 * on a line of `[[a[[a…`.
 */
export function hasWikilink(text: string): boolean {
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x5b /* [ */) {
      if (open < 0 && text.charCodeAt(i + 1) === 0x5b) open = i;
    } else if (ch === 0x5d /* ] */) {
      if (open >= 0 && i > open + 2 && text.charCodeAt(i + 1) === 0x5d) return true;
      open = -1;
    }
  }
  return false;
}

/**
 * True when the text holds a link to a markdown file, `](….md)` or `](….md#…)` (no `)`
 * inside) — the regex `/\]\([^)]*\.md(#[^)]*)?\)/` in one pass: a regex retries from
 * every `](` and is quadratic on a line of `](](…`.
 */
export function hasMarkdownLink(text: string): boolean {
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x5d /* ] */ && open < 0 && text.charCodeAt(i + 1) === 0x28) open = i + 2;
    else if (ch === 0x29 /* ) */) {
      if (open >= 0) {
        // The first `](` before this `)` gives the longest target; later ones are its suffixes.
        const target = text.slice(open, i);
        if (target.endsWith(".md") || target.includes(".md#")) return true;
      }
      open = -1;
    }
  }
  return false;
}

/**
 * Checks a wiki `index.md` for `lore wiki check`: what the canonical parser reads, and each
 * line that links a page but was not read, with the reason (see {@link WikiCheckCode}).
 * Other lines (prose, headings, blank lines, links to non-pages) are not reported. Pure;
 * never throws; linear in the input's length (lines full of `[`, `](` or `[[a` included).
 *
 * @param md - the index text.
 */
export function checkWikiIndex(md: string): WikiCheckReport {
  const report = parseWikiIndexWithReport(md);
  // A wikilink line inside a type section is "not an entry" to the parser; say why.
  const unread: WikiCheckLine[] = report.problems.map((p) =>
    p.code === "not_an_entry" && hasWikilink(p.text)
      ? { ...p, code: "wikilink", message: MESSAGES.wikilink }
      : { ...p },
  );
  const reported = new Set(report.problems.map((p) => p.line));
  const sections: string[] = [];
  let inType = false;
  let inFence = false;
  const lines = typeof md === "string" ? md.split(/\r?\n/) : [];
  lines.forEach((text, index) => {
    const line = index + 1;
    if (/^\s*(```|~~~)/.test(text)) inFence = !inFence;
    if (inFence) return;
    const heading = headingText(text);
    if (heading !== null) {
      const type = sectionType(heading);
      inType = type !== null;
      if (type !== null) sections.push(WIKI_SECTION_HEADINGS[type]);
      return;
    }
    if (reported.has(line)) return;
    const add = (code: Exclude<WikiCheckCode, WikiIndexProblemCode>) =>
      unread.push({ code, line, text, message: MESSAGES[code] });
    if (/^\s*\|/.test(text) && /\.md\b|\[\[/.test(text) && !/^\s*\|[\s:|-]+$/.test(text)) {
      add("table_row");
    } else if (LIST_ITEM.test(text) && hasWikilink(text)) {
      add("wikilink");
    } else if (LIST_ITEM.test(text) && hasMarkdownLink(text) && !inType && !SPECIAL.test(text)) {
      add("link_outside_type_section");
    }
  });
  unread.sort((a, b) => a.line - b.line);
  return {
    entries: report.entries,
    sections,
    unread,
    warnings: report.warnings,
    canonical: report.entries.length > 0 && unread.length === 0,
  };
}
