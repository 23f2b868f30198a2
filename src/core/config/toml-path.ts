/**
 * Writing paths into TOML (knowledge roots: "Where Lore writes TOML, paths go out as literal
 * strings"). Pure.
 */

/**
 * A path as a TOML string value: a literal string `'C:\Users\kb'` (backslashes kept as
 * they are); when the path holds `'` or a control character, a basic string with `\\`,
 * `\"` and `\uXXXX` escapes instead.
 *
 * @param path - any path.
 * @returns the TOML value text, quotes included.
 */
export function tomlPathString(path: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we look for
  if (!/['\u0000-\u001f\u007f]/.test(path)) return `'${path}'`;
  let out = '"';
  for (const ch of path) {
    const code = ch.codePointAt(0) as number;
    if (ch === "\\") out += "\\\\";
    else if (ch === '"') out += '\\"';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}
