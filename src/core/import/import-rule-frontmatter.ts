/**
 * A tolerant reader of *foreign* frontmatter — the `---` block of a Cursor rule, a skill,
 * a wiki page — for the import rule (real input). Not the Lore entry
 * parser: nothing here is refused, the reader takes what it can.
 */
import type { Diagnostic } from "../entry/diagnostic.js";
import { loadBoundedYaml } from "../entry/yaml-frontmatter.js";

/** How the frontmatter of a source file was read. */
export type SourceFrontmatterKind =
  /** No `---` first line. */
  | "none"
  /** A `---` first line that is never closed: the whole text is body. */
  | "unterminated"
  /** The block is a YAML (or JSON) mapping, or empty. */
  | "yaml"
  /** The block is not valid YAML (e.g. `globs: **\/*.ts`); top-level `key: value` lines were read. */
  | "lines"
  /**
   * The block's YAML aliases expand past the size bound of the entry parser
   * (`frontmatter_too_large`): nothing was read; the file is skipped.
   */
  | "refused";

/** A source file split into its frontmatter fields and its body. */
export interface SourceFrontmatter {
  kind: SourceFrontmatterKind;
  /** Top-level keys in file order with their values (YAML values, or strings for `lines`). */
  fields: Map<string, unknown>;
  /** The text after the closing fence (the whole text for `none` and `unterminated`). */
  body: string;
  /** For `refused`: the diagnostic of the bounded YAML reader. */
  refused?: Diagnostic;
}

/** Frontmatter blocks longer than this (UTF-16 units) are read line by line, never as YAML. */
const MAX_YAML_CHARS = 64 * 1024;

const FENCE = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Splits a source text (BOM removed, LF line ends) into frontmatter fields and body.
 * The block is parsed as YAML 1.2 core by the entry parser's bounded reader
 * (`loadBoundedYaml`: no timestamps, no `yes` booleans, aliases bounded by count and by
 * expanded size); a block whose aliases expand past those bounds is `refused`. When the
 * YAML fails otherwise (duplicate keys, unquoted `*` globs, template placeholders)
 * or gives no mapping, top-level `key: value` lines are read instead: the first occurrence
 * of a key wins, quotes around a value are removed, `|`/`>` block scalars and indented
 * continuation lines are joined, and a key followed by `- item` lines gets the list.
 * Never throws.
 *
 * @param text - the file's text, LF line ends, no BOM.
 * @returns the fields, the body and how the block was read.
 */
export function readSourceFrontmatter(text: string): SourceFrontmatter {
  const lines = text.split("\n");
  if (lines.length === 0 || !FENCE.test(lines[0] ?? "")) {
    return { kind: "none", fields: new Map(), body: text };
  }
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (CLOSE.test(lines[i] ?? "")) {
      close = i;
      break;
    }
  }
  if (close < 0) return { kind: "unterminated", fields: new Map(), body: text };
  const block = lines.slice(1, close);
  const body = lines.slice(close + 1).join("\n");
  const source = block.join("\n");
  if (source.length <= MAX_YAML_CHARS) {
    const parsed = tryYaml(source);
    if (parsed instanceof Map) return { kind: "yaml", fields: parsed, body };
    if (parsed !== undefined) return { kind: "refused", fields: new Map(), body, refused: parsed };
  }
  return { kind: "lines", fields: readLines(block), body };
}

/** The mapping; the refusal when aliases expand too far; undefined when not a YAML mapping. */
function tryYaml(source: string): Map<string, unknown> | Diagnostic | undefined {
  const loaded = loadBoundedYaml(source);
  if ("refused" in loaded) {
    // Too many `*` tokens (globs such as `*.ts` count too), a cycle, too many nodes: the
    // lines are read instead, which costs no more than the text. Only a value that did
    // expand past the bound is refused: its file is skipped.
    return loaded.refused.code === "frontmatter_too_large" ? loaded.refused : undefined;
  }
  const value = loaded.value;
  if (value === null || value === undefined) return new Map();
  if (typeof value !== "object" || Array.isArray(value)) return undefined;
  return new Map(Object.entries(value as Record<string, unknown>));
}

const KEY_LINE = /^([^\s#\-:'"][^:]*?):(?:[ \t]+(.*?))?[ \t]*$/;
const BLOCK_INDICATOR = /^[|>][+-]?\d?$/;
const LIST_ITEM = /^[ \t]*-[ \t]+(.*?)[ \t]*$/;

function readLines(block: readonly string[]): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  let i = 0;
  while (i < block.length) {
    const match = KEY_LINE.exec(block[i] ?? "");
    i++;
    if (!match) continue;
    const key = (match[1] ?? "").trim();
    const raw = match[2] ?? "";
    const continuation: string[] = [];
    while (i < block.length && /^(?:[ \t]|$)/.test(block[i] ?? "")) {
      continuation.push(block[i] ?? "");
      i++;
    }
    if (fields.has(key)) continue;
    const items = continuation.map((line) => LIST_ITEM.exec(line)?.[1]);
    if (raw === "" && items.length > 0 && items.every((item) => item !== undefined)) {
      fields.set(
        key,
        items.map((item) => unquote(item ?? "")),
      );
      continue;
    }
    const rest = continuation.map((line) => line.trim()).filter(Boolean);
    if (BLOCK_INDICATOR.test(raw)) fields.set(key, rest.join(raw.startsWith("|") ? "\n" : " "));
    else fields.set(key, unquote([raw, ...rest].join(" ").trim()));
  }
  return fields;
}

function unquote(value: string): string {
  if (value.length >= 2) {
    const first = value[0];
    if ((first === '"' || first === "'") && value.endsWith(first)) return value.slice(1, -1);
  }
  return value;
}
