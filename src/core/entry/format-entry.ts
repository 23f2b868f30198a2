import { DEFAULT_SCHEMA, dump } from "js-yaml";
import { LoreError } from "../errors/lore-error.js";
import { type Entry, KNOWN_KEYS } from "./entry.js";
import { normalizeBody } from "./yaml-frontmatter.js";

/**
 * Serialises an entry as its file (seed 004, "Устройство файла"): `---`, the frontmatter
 * in a stable key order — `id`, `origin`, `contract` (always, `[]` when empty), `links`
 * (when any), `summary` (when set), then the unknown keys in their own order (JavaScript
 * puts integer-like keys first) — `---`, a blank line, the body with LF line ends and
 * exactly one final newline. `parseEntry(formatEntry(e))` gives back `e` for any entry that
 * parses (ids and links in lower case, body as {@link normalizeBody} leaves it).
 *
 * The YAML is written block style, no line folding, no anchors. Values are dumped with
 * js-yaml's default schema so strings that older YAML readers would take for a timestamp,
 * a boolean (`no`, `on`) or a merge key (`<<`) are quoted; Lore reads them back with the
 * core schema as the same strings.
 *
 * @param entry - the entry.
 * @returns the file's text.
 * @throws LoreError `invalid_input` when `unknownKeys` holds a known key or a value YAML
 *   cannot hold (a function, a symbol, `undefined`).
 */
export function formatEntry(entry: Entry): string {
  const head: Record<string, unknown> = {
    id: entry.id,
    origin: entry.origin,
    contract: entry.contract.map(({ mechanism, params }) => ({ mechanism, params })),
  };
  if (entry.links.length > 0) head.links = entry.links;
  if (entry.summary !== undefined) head.summary = entry.summary;
  for (const [key, value] of Object.entries(entry.unknownKeys)) {
    if ((KNOWN_KEYS as readonly string[]).includes(key)) {
      throw new LoreError("invalid_input", {
        reason: `unknownKeys holds the known key “${key}”`,
      });
    }
    Object.defineProperty(head, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  let yaml: string;
  try {
    yaml = dump(head, { schema: DEFAULT_SCHEMA, lineWidth: -1, noRefs: true });
  } catch (cause) {
    throw new LoreError(
      "invalid_input",
      { reason: `the entry cannot be written as YAML: ${String(cause)}` },
      { cause },
    );
  }
  const body = normalizeBody(entry.body);
  return `---\n${yaml}---\n${body === "" ? "" : `\n${body}`}`;
}
