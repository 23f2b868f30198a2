/**
 * Markdown structure the import rule reads: headings, the first prose paragraph, and the
 * split of a body too large for one entry into parts (real input; seed 004
 * "Пределы": 64 KB per file).
 */
import { capUtf8 } from "../entry/summary.js";
import { utf8ByteLength } from "../entry/utf8.js";

/** One ATX heading found outside code fences. */
export interface Heading {
  /** 1 to 6. */
  level: number;
  /** The heading text, trailing `#`s removed. */
  text: string;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/** Tells, line by line, whether a line is inside (or opens/closes) a fenced code block. */
function fencedLines(lines: readonly string[]): boolean[] {
  const fenced: boolean[] = [];
  let open: string | null = null;
  for (const line of lines) {
    const match = FENCE_OPEN.exec(line);
    if (open === null) {
      if (match) open = (match[1] ?? "").slice(0, 3);
      fenced.push(match !== null);
    } else {
      fenced.push(true);
      if (match && (match[1] ?? "").startsWith(open) && line.trim() === match[1]) open = null;
    }
  }
  return fenced;
}

/**
 * Lists the ATX headings (`# …` to `###### …`) outside fenced code blocks, in order.
 *
 * @param body - markdown, LF line ends.
 * @returns the headings (possibly empty).
 */
export function listHeadings(body: string): Heading[] {
  const lines = body.split("\n");
  const fenced = fencedLines(lines);
  const headings: Heading[] = [];
  lines.forEach((line, i) => {
    if (fenced[i]) return;
    const match = HEADING.exec(line);
    const text = match?.[2]?.trim();
    if (match && text) headings.push({ level: (match[1] ?? "#").length, text });
  });
  return headings;
}

/** Lines that carry no prose: MDX imports/exports, lone tags, comments, YFM tags, tables, rules. */
const NOT_PROSE =
  /^(?:import\s|export\s|<[/!A-Za-z][^>]*>?\s*$|\{\/\*|\{%|\||(?:[-*_][ \t]*){3,}$|!\[)/;

/**
 * Finds the first prose paragraph: the first run of lines, between blank lines and outside
 * code fences, that are neither headings nor non-prose lines (MDX `import`, lone HTML tags,
 * comments, `{% … %}` tags, table rows, thematic breaks, images). Whitespace is folded.
 *
 * @param body - markdown, LF line ends.
 * @returns the paragraph, or `""` when there is none.
 */
export function firstProseParagraph(body: string): string {
  const lines = body.split("\n");
  const fenced = fencedLines(lines);
  const paragraph: string[] = [];
  let inComment = false;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    if (inComment) {
      if (line.includes("-->")) inComment = false;
      continue;
    }
    if (line.startsWith("<!--") && !line.includes("-->")) {
      inComment = true;
      if (paragraph.length > 0) break;
      continue;
    }
    const prose = !fenced[i] && line !== "" && !HEADING.test(line) && !NOT_PROSE.test(line);
    if (prose) paragraph.push(line);
    else if (paragraph.length > 0) break;
  }
  return paragraph.join(" ").replace(/\s+/gu, " ").trim();
}

/**
 * Cuts text to at most `maxBytes` of UTF-8 (`capUtf8`: on a character boundary), then back
 * to a whitespace when one lies in the last quarter; adds `…` when it cut.
 *
 * @param text - the text.
 * @param maxBytes - the cap in bytes, `…` included (≥ 4).
 * @returns the text itself when it fits, else the cut text ending in `…`.
 */
export function capBytes(text: string, maxBytes: number): string {
  if (utf8ByteLength(text) <= maxBytes) return text;
  let cut = capUtf8(text, maxBytes - utf8ByteLength("…")).text;
  const space = cut.search(/\s\S*$/u);
  if (space > (cut.length * 3) / 4) cut = cut.slice(0, space);
  return `${cut.trimEnd()}…`;
}

/**
 * Splits a markdown body into parts of at most `maxBytes` of UTF-8 each, keeping whole
 * sections where it can: first at headings outside code fences, a section still too large
 * at blank lines, a paragraph still too large at line ends, a line still too large on code
 * point boundaries; then consecutive pieces are packed greedily into parts. Joining the
 * parts gives the body back.
 *
 * @param body - markdown, LF line ends.
 * @param maxBytes - the largest part in bytes (≥ 4).
 * @returns the parts in order; one part when the body fits.
 */
export function splitBody(body: string, maxBytes: number): string[] {
  if (utf8ByteLength(body) <= maxBytes) return [body];
  const pieces: string[] = [];
  for (const section of splitBefore(body, headingStarts(body))) {
    for (const paragraph of splitIfOver(section, maxBytes, paragraphEnds)) {
      for (const line of splitIfOver(paragraph, maxBytes, lineEnds))
        pieces.push(...splitChars(line, maxBytes));
    }
  }
  const parts: string[] = [];
  let current = "";
  let currentBytes = 0;
  for (const piece of pieces) {
    const size = utf8ByteLength(piece);
    if (currentBytes + size > maxBytes && current !== "") {
      parts.push(current);
      current = "";
      currentBytes = 0;
    }
    current += piece;
    currentBytes += size;
  }
  if (current !== "") parts.push(current);
  return parts;
}

/** Offsets (UTF-16) where a heading line outside fences starts, except offset 0. */
function headingStarts(text: string): number[] {
  const lines = text.split("\n");
  const fenced = fencedLines(lines);
  const starts: number[] = [];
  let offset = 0;
  lines.forEach((line, i) => {
    if (i > 0 && !fenced[i] && HEADING.test(line)) starts.push(offset);
    offset += line.length + 1;
  });
  return starts;
}

/** Offsets just after a blank line that is outside fences. */
function paragraphEnds(text: string): number[] {
  const lines = text.split("\n");
  const fenced = fencedLines(lines);
  const ends: number[] = [];
  let offset = 0;
  lines.forEach((line, i) => {
    offset += line.length + 1;
    if (!fenced[i] && line.trim() === "" && offset < text.length) ends.push(offset);
  });
  return ends;
}

/** Offsets just after each line feed. */
function lineEnds(text: string): number[] {
  const ends: number[] = [];
  for (let i = text.indexOf("\n"); i >= 0 && i + 1 < text.length; i = text.indexOf("\n", i + 1)) {
    ends.push(i + 1);
  }
  return ends;
}

function splitBefore(text: string, offsets: readonly number[]): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const offset of offsets) {
    if (offset > start) pieces.push(text.slice(start, offset));
    start = offset;
  }
  pieces.push(text.slice(start));
  return pieces;
}

function splitIfOver(text: string, maxBytes: number, cuts: (text: string) => number[]): string[] {
  return utf8ByteLength(text) <= maxBytes ? [text] : splitBefore(text, cuts(text));
}

function splitChars(text: string, maxBytes: number): string[] {
  if (utf8ByteLength(text) <= maxBytes) return [text];
  const pieces: string[] = [];
  let current = "";
  let bytes = 0;
  for (const char of text) {
    const size = utf8ByteLength(char);
    if (bytes + size > maxBytes) {
      pieces.push(current);
      current = "";
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  if (current !== "") pieces.push(current);
  return pieces;
}
