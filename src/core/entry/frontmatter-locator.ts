/**
 * Positions in a frontmatter for diagnostics (seed 004, "Отчёт разбора": a line per
 * problem). js-yaml returns plain values without positions, so lines are found in the text:
 * top-level keys by their first line, `- #word` items by their own line. Linear; nothing is
 * computed until asked.
 */

/**
 * Reads the mapping key written at a column of a line: `key:`, `"key":`, `'key':`, `? key`.
 *
 * @param lineText - one line of YAML.
 * @param column - 0-based column where the key starts (leading spaces are skipped).
 * @returns the key as written, unquoted.
 */
export function mappingKeyAt(lineText: string, column: number): string {
  let text = lineText.slice(column).trimStart();
  if (text.startsWith("? ")) text = text.slice(2).trimStart();
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const close = text.indexOf(quote, 1);
    if (close > 0) return text.slice(1, close);
  }
  return plainKey(text) ?? text.trim();
}

/**
 * Reads a plain mapping key at the start of a line: the text before the first `:` that is
 * followed by a space, a tab or the end of the line. Linear in the line's length.
 */
function plainKey(text: string): string | undefined {
  for (let i = text.indexOf(":"); i >= 0; i = text.indexOf(":", i + 1)) {
    const next = text[i + 1];
    if (next === undefined || next === " " || next === "\t") return text.slice(0, i).trimEnd();
  }
  return undefined;
}

/**
 * Finds file lines in a frontmatter for diagnostics: the line of each top-level key, and
 * the list items that YAML read as comments (`- #hooks`). Built on demand; linear.
 */
export interface FrontmatterLocator {
  /** 1-based file line of a top-level key (its first occurrence), when it is found. */
  lineOfKey(key: string): number | undefined;
  /** List items written as `- #word`, in file order, with their 1-based file lines. */
  commentItems(): { line: number; text: string }[];
}

/**
 * Builds a {@link FrontmatterLocator} over the YAML between the fences.
 *
 * @param yaml - the frontmatter text; its first line is line 2 of the file.
 * @returns the locator.
 */
export function createFrontmatterLocator(yaml: string): FrontmatterLocator {
  let keys: Map<string, number> | undefined;
  let lines: string[] | undefined;
  const allLines = () => {
    lines ??= yaml.split("\n");
    return lines;
  };
  return {
    lineOfKey(key) {
      if (keys === undefined) {
        keys = new Map();
        allLines().forEach((text, index) => {
          const first = text[0];
          if (first === undefined || first === " " || first === "\t" || first === "#") return;
          const key = first === '"' || first === "'" ? mappingKeyAt(text, 0) : plainKey(text);
          if (key !== undefined && keys?.has(key) === false) keys.set(key, index + 2);
        });
      }
      return keys.get(key);
    },
    commentItems() {
      const found: { line: number; text: string }[] = [];
      allLines().forEach((text, index) => {
        const match = /^[ \t]*-[ \t]+(#.*)$/.exec(text);
        if (match?.[1] !== undefined) found.push({ line: index + 2, text: match[1].trimEnd() });
      });
      return found;
    },
  };
}
