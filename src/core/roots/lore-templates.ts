/**
 * Templates Lore writes into a knowledge root (`lore init --notes`, seed 003 "Шаблоны в
 * каноне"): examples and the README of `work/local` are there for people to read and copy,
 * not knowledge, so the roots indexer skips them and recall never returns them. A file is
 * a template when its name ends `.example.md`, or when its text opens with
 * {@link TEMPLATE_MARK} (the README, whose name must stay `README.md`). Pure.
 */

/** The first line of a template Lore wrote under a name of its own (delete it to index the file). */
export const TEMPLATE_MARK =
  "<!-- lore: template, not indexed as a note (delete this line to index it) -->";

/** The name ending of an example file. */
export const EXAMPLE_SUFFIX = ".example.md";

/**
 * Whether a root's file is a template, never indexed as a note.
 *
 * @param path - the path relative to `knowledge/`, `/`-separated.
 * @param bytes - the file's bytes (a UTF-8 byte order mark before the mark is allowed).
 * @returns true for a name ending `.example.md` (any case) or a text opening with
 *   {@link TEMPLATE_MARK}.
 */
export function isLoreTemplate(path: string, bytes: Uint8Array): boolean {
  if (path.toLowerCase().endsWith(EXAMPLE_SUFFIX)) return true;
  const head = new TextDecoder().decode(bytes.subarray(0, TEMPLATE_MARK.length + 3));
  return head.replace(/^\uFEFF/, "").startsWith(TEMPLATE_MARK);
}
