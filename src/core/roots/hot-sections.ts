/**
 * The hot file (`agent-notes.md` at the primary root) split into sections by markdown
 * headings, and the sections relevant to a query (seed 003, "Поток агента"; knowledge roots, “The
 * registry and the hot section”). Matching uses `analyzeText`, the normalisation and stems
 * of recall. Pure.
 */
import { analyzeText } from "../text/analyze-text.js";

/** The hot file's name at the primary root (not under `knowledge/`). */
export const HOT_FILE = "agent-notes.md";

/** The id of the routing contract section (seed 003). */
export const ROUTING_SECTION_ID = "knowledge-roots-routing-v1";

/** One section of the hot file. */
export interface HotSection {
  /** The heading text without `#` marks; empty for text before the first heading. */
  heading: string;
  /** The heading as a slug: lower case, runs of other characters → `-`. */
  id: string;
  /** The heading level (1–6); 0 for the text before the first heading. */
  level: number;
  /** 1-based line of the heading (or 1). */
  line: number;
  /** The whole section text, heading line included, trailing blank lines removed. */
  text: string;
}

/** A section with its relevance to a query. */
export interface ScoredSection extends HotSection {
  /** Query stems found in the heading × 3 + query stems found in the body. */
  score: number;
}

/**
 * Splits markdown into sections at ATX headings (`#` … `######`), ignoring headings inside
 * fenced code blocks. Text before the first heading, when not blank, is a section of level 0.
 *
 * @param text - the hot file's text.
 */
export function splitHotSections(text: string): HotSection[] {
  const lines = text.split(/\r?\n/);
  const sections: HotSection[] = [];
  let current: { heading: string; level: number; line: number; lines: string[] } = {
    heading: "",
    level: 0,
    line: 1,
    lines: [],
  };
  let fence: string | undefined;
  const flush = () => {
    while (current.lines.length > 0 && (current.lines.at(-1) as string).trim() === "") {
      current.lines.pop();
    }
    if (current.level === 0 && current.lines.every((l) => l.trim() === "")) return;
    sections.push({
      heading: current.heading,
      id: slugify(current.heading),
      level: current.level,
      line: current.line,
      text: current.lines.join("\n"),
    });
  };
  lines.forEach((line, index) => {
    const fenceMatch = /^\s{0,3}(```|~~~)/.exec(line);
    if (fenceMatch) {
      const mark = fenceMatch[1] as string;
      if (fence === undefined) fence = mark;
      else if (fence === mark) fence = undefined;
    }
    const heading = fence === undefined ? /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line) : null;
    if (heading && !fenceMatch) {
      flush();
      current = {
        heading: (heading[2] as string).trim(),
        level: (heading[1] as string).length,
        line: index + 1,
        lines: [line],
      };
    } else {
      current.lines.push(line);
    }
  });
  flush();
  return sections;
}

/**
 * Finds a section by id: its slug equals `id` or starts with `id` and a separator
 * (`## knowledge-roots-routing-v1 — where files live`).
 *
 * @param sections - from {@link splitHotSections}.
 * @param id - e.g. {@link ROUTING_SECTION_ID}.
 */
export function findSection(sections: readonly HotSection[], id: string): HotSection | undefined {
  return sections.find((s) => s.id === id || s.id.startsWith(`${id}-`));
}

/**
 * The sections relevant to a query, best first: a section scores 3 for each distinct query
 * stem in its heading and 1 for each in its body; sections scoring 0 are left out; ties
 * keep file order.
 *
 * @param sections - from {@link splitHotSections}.
 * @param query - the agent's query, any language.
 * @param limit - most sections. Default: 5.
 */
export function relevantSections(
  sections: readonly HotSection[],
  query: string,
  limit = 5,
): ScoredSection[] {
  const stems = new Set(analyzeText(query));
  if (stems.size === 0) return [];
  const scored: ScoredSection[] = [];
  for (const section of sections) {
    const heading = new Set(analyzeText(section.heading));
    const body = new Set(analyzeText(section.text));
    let score = 0;
    for (const stem of stems) {
      if (heading.has(stem)) score += 3;
      else if (body.has(stem)) score += 1;
    }
    if (score > 0) scored.push({ ...section, score });
  }
  return scored.sort((a, b) => b.score - a.score).slice(0, limit);
}

/**
 * A heading as a slug: lower case, every run of characters other than letters and digits
 * becomes `-`, no `-` at either end.
 *
 * @param heading - heading text.
 */
export function slugify(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}
