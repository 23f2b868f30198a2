/**
 * The query text an agent hook recalls with (section "Deterministic surfacing through agent
 * hooks"): the prompt, or a tool's input flattened to its words, cut to a byte bound so that
 * a pasted log or a large file edit costs no more to parse than a question. Pure.
 */

/** Most bytes of query text a hook recalls with (recall reads at most 512 tokens anyway). */
export const MAX_QUERY_TEXT_BYTES = 2_048;

/** Most bytes of a tool's input read into the query (a `Write` of a whole file is mostly code). */
export const MAX_TOOL_INPUT_BYTES = 1_024;

/**
 * Cuts a text to at most `maxBytes` of UTF-8, on a character boundary.
 *
 * @param value - the text.
 * @param maxBytes - the bound, bytes.
 */
export function cutUtf8(value: string, maxBytes: number): string {
  if (Buffer.byteLength(value, "utf8") <= maxBytes) return value;
  const bytes = Buffer.from(value, "utf8").subarray(0, maxBytes);
  // A cut inside a multi-byte character decodes to U+FFFD at the end: drop it.
  return bytes.toString("utf8").replace(/\uFFFD+$/u, "");
}

/**
 * A tool's input as query text: every string, number and boolean in it, depth first, keys
 * left out (`command`, `file_path` are the same for every call and say nothing), joined by
 * spaces and cut to `maxBytes`. A string that holds JSON (Cursor's `tool_input`) is read as
 * that JSON.
 *
 * @param input - the tool input as the client sent it.
 * @param maxBytes - the bound, bytes; default {@link MAX_TOOL_INPUT_BYTES}.
 * @returns the text, `""` when the input holds no words.
 */
export function toolInputText(input: unknown, maxBytes = MAX_TOOL_INPUT_BYTES): string {
  let value = input;
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
      try {
        value = JSON.parse(trimmed);
      } catch {
        // Not JSON after all: its words are the text.
      }
    }
  }
  const parts: string[] = [];
  let bytes = 0;
  const visit = (v: unknown, depth: number): void => {
    if (bytes >= maxBytes || depth > 8) return;
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
      const s = String(v);
      if (s === "") return;
      parts.push(s);
      bytes += Buffer.byteLength(s, "utf8") + 1;
    } else if (Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
    } else if (v !== null && typeof v === "object") {
      for (const item of Object.values(v)) visit(item, depth + 1);
    }
  };
  visit(value, 0);
  return cutUtf8(parts.join(" "), maxBytes);
}
