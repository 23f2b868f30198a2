/**
 * The placeholder sentences `lore new` writes when it is given no `--title` or `--body`,
 * and their detection: a placeholder left in an entry would surface as its summary, so the
 * parser reports it (`placeholder_text`, the file is *wrong*) and `lore check` fails on it.
 */

/** The placeholder first paragraph (the summary agents would see). */
export const PLACEHOLDER_SUMMARY =
  "Replace this line with the first complete thought — agents see it as the summary.";

/** The placeholder paragraph after the summary. */
export const PLACEHOLDER_DETAIL = "Then say why it is so, what to try, and when it does not work.";

/**
 * Finds the first placeholder sentence left in a body.
 *
 * @param body - the entry's body (after the frontmatter).
 * @returns the sentence and its 0-based line within the body, or undefined when none is left.
 */
export function findPlaceholder(body: string): { text: string; line: number } | undefined {
  let found: { text: string; line: number } | undefined;
  for (const text of [PLACEHOLDER_SUMMARY, PLACEHOLDER_DETAIL]) {
    const at = body.indexOf(text);
    if (at < 0) continue;
    const line = body.slice(0, at).split("\n").length - 1;
    if (found === undefined || line < found.line) found = { text, line };
  }
  return found;
}
