/**
 * An entry's body recovered from its file's bytes, exactly as the parser stored it
 * (`readEntryFile` + `splitFrontmatter`: UTF-8 decoded, BOM dropped, CRLF and CR as LF,
 * the text after the closing fence normalised by `normalizeBody`). The index keeps no copy
 * of a git-backed entry's body (migration 5) and reads it back through this when `get`
 * shows it or FTS5's exact delete needs the text that was indexed. Pure.
 */
import { splitFrontmatter } from "./frontmatter-fences.js";

const DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The body of an entry file.
 *
 * @param bytes - the file's bytes (a blob).
 * @returns the body as the entry model holds it, or `undefined` when the bytes are not
 *   UTF-8 or have no complete frontmatter (then they were never a stored entry).
 */
export function entryBodyOf(bytes: Uint8Array): string | undefined {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let text: string;
  try {
    text = DECODER.decode(bom ? bytes.subarray(3) : bytes);
  } catch {
    return undefined;
  }
  const lf = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  const parts = splitFrontmatter(lf);
  return typeof parts === "string" ? undefined : parts.body;
}
