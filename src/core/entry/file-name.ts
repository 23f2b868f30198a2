/**
 * File names as Lore accepts and shows them: which characters a written file's name may
 * not hold (they hide or fake what a reviewer sees), and how a name that is not UTF-8 is
 * shown in a report. Pure.
 */
import { type Diagnostic, makeDiagnostic } from "./diagnostic.js";

/** What kind of character makes a file name refused (see {@link unsafeNameCharacter}). */
export type UnsafeNameKind = "control" | "newline" | "bidi";

/**
 * Bidirectional formatting characters: the embeddings and overrides (U+202A–U+202E), the
 * isolates (U+2066–U+2069) and the marks (U+200E, U+200F, U+061C). An override makes
 * `evil\u202Edm.exe` read as `evilexe.md`.
 */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/**
 * The first character of a name that a written file may not hold: a newline (LF, CR,
 * U+2028, U+2029, U+0085), another control character (C0, DEL, C1), or a bidi
 * formatting character (see {@link BIDI}).
 *
 * @param name - a path or name.
 * @returns the character's code point as `U+XXXX` and its kind, or undefined when none.
 */
export function unsafeNameCharacter(
  name: string,
): { codePoint: string; kind: UnsafeNameKind } | undefined {
  for (const char of name) {
    const code = char.codePointAt(0) ?? 0;
    const shown = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    if (code === 0x0a || code === 0x0d || code === 0x85 || code === 0x2028 || code === 0x2029) {
      return { codePoint: shown, kind: "newline" };
    }
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return { codePoint: shown, kind: "control" };
    if (BIDI.test(char)) return { codePoint: shown, kind: "bidi" };
  }
  return undefined;
}

/**
 * Shows a name with every character {@link unsafeNameCharacter} refuses as `\uXXXX`, so a
 * message that names it stays on one line and is not turned around by a bidi override.
 *
 * @param name - a path or name.
 */
export function escapeNameText(name: string): string {
  let out = "";
  for (const char of name) {
    const found = unsafeNameCharacter(char);
    out += found === undefined ? char : `\\u${found.codePoint.slice(2)}`;
  }
  return out;
}

/**
 * Shows a file name given as raw bytes: valid UTF-8 runs as text, every other byte as
 * `\xNN`, and control characters of valid runs as `\xNN` too, so the name fits on one
 * report line and can be told apart from a similar one. A valid name without control
 * characters is returned as it is.
 *
 * @param bytes - the name as the file system gave it.
 */
export function escapeFileName(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const length = utf8SequenceLength(bytes, i);
    if (length === 0) {
      out += `\\x${(bytes[i] ?? 0).toString(16).padStart(2, "0")}`;
      i++;
      continue;
    }
    const text = new TextDecoder().decode(bytes.subarray(i, i + length));
    const code = text.codePointAt(0) ?? 0;
    out +=
      code < 0x20 || code === 0x7f || code === 0x5c
        ? code === 0x5c
          ? "\\\\"
          : `\\x${code.toString(16).padStart(2, "0")}`
        : text;
    i += length;
  }
  return out;
}

/** Whether the bytes are a name in UTF-8. */
export function isUtf8Name(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; ) {
    const length = utf8SequenceLength(bytes, i);
    if (length === 0) return false;
    i += length;
  }
  return true;
}

/** Length of the well-formed UTF-8 sequence at `i` (Unicode table 3-7), or 0. */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i] ?? 0;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => {
    const b = bytes[i + k];
    return b !== undefined && b >= lo && b <= hi;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b0 >= 0xe1 && b0 <= 0xec) || b0 === 0xee || b0 === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b0 === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b0 === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/**
 * The diagnostic of a file whose name is not UTF-8: `file_name_not_utf8` (error: the file
 * is skipped), at the name shown by {@link escapeFileName}.
 *
 * @param path - the display path, its last part escaped.
 */
export function fileNameNotUtf8(path: string): Diagnostic {
  return makeDiagnostic("file_name_not_utf8", { path });
}
