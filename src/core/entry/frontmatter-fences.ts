/**
 * The `---` fences of an entry file and its body (seed 004, "Устройство файла"): pure text
 * work with no YAML, so the index can recover an entry's body from its blob (see
 * `entry-body.ts`) without loading the YAML reader.
 */

/** A file's text split at its `---` fences (seed 004, "Устройство файла"). */
export interface FrontmatterParts {
  /** The YAML between the fences, LF line ends; its first line is line 2 of the file. */
  yaml: string;
  /** The body after the closing fence, normalised by {@link normalizeBody}. */
  body: string;
  /** 1-based file line where the body text starts. */
  bodyLine: number;
}

const FENCE = /^---[ \t]*$/;

/**
 * Splits LF text at its fences: the first line must be `---`; the frontmatter ends at the
 * first later line that is `---` (trailing spaces and tabs allowed on both fences, as they
 * are invisible); any later `---` belongs to the body.
 *
 * @param text - the file's text, LF line ends, no BOM.
 * @returns the parts, or the code of the diagnostic to report.
 */
export function splitFrontmatter(
  text: string,
): FrontmatterParts | "no_frontmatter" | "unterminated_frontmatter" {
  const firstEnd = text.indexOf("\n");
  if (!text.startsWith("---") || !FENCE.test(firstEnd < 0 ? text : text.slice(0, firstEnd))) {
    return "no_frontmatter";
  }
  if (firstEnd < 0) return "unterminated_frontmatter";
  let lineStart = firstEnd + 1;
  let lineNo = 2;
  while (lineStart <= text.length) {
    const end = text.indexOf("\n", lineStart);
    const lineEnd = end < 0 ? text.length : end;
    if (text.startsWith("---", lineStart) && FENCE.test(text.slice(lineStart, lineEnd))) {
      const rest = end < 0 ? "" : text.slice(end + 1);
      const blank = /^(?:[ \t]*\n)*/.exec(rest)?.[0] ?? "";
      return {
        yaml: text.slice(firstEnd + 1, lineStart),
        body: normalizeBody(rest),
        bodyLine: lineNo + 1 + countNewlines(blank),
      };
    }
    if (end < 0) break;
    lineStart = end + 1;
    lineNo++;
  }
  return "unterminated_frontmatter";
}

/**
 * Puts a body in the form the entry model holds: CRLF and CR as LF, leading blank lines
 * dropped, trailing whitespace dropped, one final LF (`""` when nothing is left).
 *
 * @param body - body text as written.
 * @returns the normalised body.
 */
export function normalizeBody(body: string): string {
  const text = body.includes("\r") ? body.replace(/\r\n?/g, "\n") : body;
  const start = /^(?:[ \t]*\n)*/.exec(text)?.[0].length ?? 0;
  const trimmed = text.slice(start).trimEnd();
  return trimmed === "" ? "" : `${trimmed}\n`;
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
