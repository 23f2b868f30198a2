import { CORE_SCHEMA, load } from "js-yaml";
import { type Diagnostic, type DiagnosticDetails, makeDiagnostic } from "./diagnostic.js";
import { type FrontmatterParts, splitFrontmatter } from "./frontmatter-fences.js";
import { invalidUtf8Offset, loneSurrogateIndex, utf8ByteLength } from "./utf8.js";
import { yamlErrorDiagnostic } from "./yaml-error.js";

export { type FrontmatterParts, normalizeBody, splitFrontmatter } from "./frontmatter-fences.js";

/**
 * Bounds on what a frontmatter may expand to once YAML anchors and aliases are followed.
 * js-yaml shares one object per anchor, so loading is cheap; the danger is in whoever
 * walks or serialises the value later (the index stores the contract as JSON, recall and
 * `knowledge_open` print it), so the expanded value is bounded by size as well as by count:
 * a 50 KB file that repeats a 40 KB string through aliases would otherwise expand to GBs.
 */
export const YAML_LIMITS = {
  /** Most alias tokens (`*name`) a frontmatter may hold. Default: 256. */
  aliases: 256,
  /** Most nodes the value may have, aliases expanded. Default: 100,000. */
  nodes: 100_000,
  /** Deepest nesting of lists and mappings. Default: 64. */
  depth: 64,
  /**
   * Most bytes the value may hold once aliases are expanded: the UTF-8 bytes of every key
   * and scalar plus one per node — never more than the text itself when no alias is used.
   * The entry file limit (seed 004 "Пределы": 64 KB). Default: 65,536.
   */
  expandedBytes: 64 * 1024,
} as const;

/** What {@link readEntryFile} found in a file. */
export interface EntryFile {
  /** The frontmatter mapping (`{}` for an empty one), when it was read without error. */
  frontmatter?: Record<string, unknown>;
  /** The fences and body, when the fences were found. */
  parts?: FrontmatterParts;
  /** Problems found, in file order; any `error` means the file cannot be an entry. */
  diagnostics: Diagnostic[];
}

const DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Reads a file as an entry's frontmatter and body: decodes UTF-8, refuses NUL bytes,
 * drops a BOM (`bom_removed` note), turns CRLF and lone CR into LF, finds the fences and
 * loads the YAML. Pure; never throws on any input.
 *
 * Diagnostics: `not_utf8`, `nul_byte`, `bom_removed`, `no_frontmatter`,
 * `unterminated_frontmatter`, `yaml_syntax`, `duplicate_key`, `yaml_alias_limit`,
 * `frontmatter_too_large`, `frontmatter_not_mapping`.
 *
 * @param input - the file's bytes, or its text (a string is checked for lone surrogates).
 * @param path - the file's path, copied into every diagnostic.
 * @returns the parts found and the diagnostics.
 */
export function readEntryFile(input: Uint8Array | string, path?: string): EntryFile {
  const diagnostics: Diagnostic[] = [];
  const at = (details: DiagnosticDetails): DiagnosticDetails =>
    path === undefined ? details : { ...details, path };
  const decoded = decodeText(input);
  if (decoded.nulOffset >= 0) {
    diagnostics.push(
      makeDiagnostic(
        "nul_byte",
        at({ ...lineOfOffset(input, decoded.nulOffset), params: { offset: decoded.nulOffset } }),
      ),
    );
  }
  if (decoded.badOffset >= 0) {
    diagnostics.push(
      makeDiagnostic(
        "not_utf8",
        at({ ...lineOfOffset(input, decoded.badOffset), params: { offset: decoded.badOffset } }),
      ),
    );
  }
  if (decoded.text === undefined || diagnostics.length > 0) return { diagnostics };
  if (decoded.bom) diagnostics.push(makeDiagnostic("bom_removed", at({ line: 1, column: 1 })));
  const text = decoded.text.includes("\r") ? decoded.text.replace(/\r\n?/g, "\n") : decoded.text;
  const parts = splitFrontmatter(text);
  if (parts === "no_frontmatter" || parts === "unterminated_frontmatter") {
    diagnostics.push(makeDiagnostic(parts, at({ line: 1, column: 1 })));
    return { diagnostics };
  }
  const loaded = loadFrontmatter(parts.yaml, path);
  diagnostics.push(...loaded.diagnostics);
  return loaded.value === undefined
    ? { parts, diagnostics }
    : { frontmatter: loaded.value, parts, diagnostics };
}

interface DecodedText {
  text?: string;
  bom: boolean;
  /** Byte offset of the first NUL, or -1. */
  nulOffset: number;
  /** Byte offset of the first byte that is not UTF-8, or -1. */
  badOffset: number;
}

function decodeText(input: Uint8Array | string): DecodedText {
  if (typeof input === "string") {
    const lone = loneSurrogateIndex(input);
    const nul = input.indexOf("\0");
    const bom = input.charCodeAt(0) === 0xfeff;
    return {
      text: bom ? input.slice(1) : input,
      bom,
      nulOffset: nul < 0 ? -1 : utf8ByteLength(input.slice(0, nul)),
      badOffset: lone < 0 ? -1 : utf8ByteLength(input.slice(0, lone)),
    };
  }
  const bom = input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf;
  const nulOffset = input.indexOf(0);
  try {
    return { text: DECODER.decode(bom ? input.subarray(3) : input), bom, nulOffset, badOffset: -1 };
  } catch {
    return { bom, nulOffset, badOffset: invalidUtf8Offset(input) };
  }
}

function lineOfOffset(input: Uint8Array | string, byteOffset: number): { line: number } {
  let line = 1;
  if (typeof input === "string") {
    let bytes = 0;
    for (let i = 0; i < input.length && bytes < byteOffset; i++) {
      const unit = input.charCodeAt(i);
      if (unit === 10) line++;
      // A surrogate pair is 4 bytes: 2 per half.
      bytes += unit < 0x80 ? 1 : unit < 0x800 || (unit & 0xf800) === 0xd800 ? 2 : 3;
    }
    return { line };
  }
  for (let i = 0; i < byteOffset; i++) if (input[i] === 10) line++;
  return { line };
}

/** What {@link loadBoundedYaml} gives: the loaded value, or the one diagnostic that refused it. */
export type BoundedYaml = { value: unknown } | { refused: Diagnostic };

/**
 * Loads YAML with YAML 1.2 core semantics (js-yaml `CORE_SCHEMA`: no timestamps, `no`/`on`
 * stay strings), duplicate keys refused, aliases bounded by {@link YAML_LIMITS}: the one
 * YAML reader of every path that reads frontmatter (entries in `check`, `index`, the
 * knowledge roots; wiki pages; foreign files in `import`). Pure; never throws.
 *
 * Refusals: `yaml_syntax` (with the parser's reason and, where it helps, a hint; also
 * nesting deeper than {@link YAML_LIMITS.depth}), `duplicate_key` (key and line),
 * `yaml_alias_limit` (too many aliases, too many nodes, a cycle), `frontmatter_too_large`
 * (the value, aliases expanded, is over {@link YAML_LIMITS.expandedBytes} bytes).
 * Positions are file lines: the YAML's first line is line 2.
 *
 * @param yaml - the text between the fences.
 * @param path - the file's path for the diagnostics.
 */
export function loadBoundedYaml(yaml: string, path?: string): BoundedYaml {
  const where = (details: DiagnosticDetails): DiagnosticDetails =>
    path === undefined ? details : { ...details, path };
  if (yaml.includes("*") && countAliases(yaml) > YAML_LIMITS.aliases) {
    return {
      refused: makeDiagnostic(
        "yaml_alias_limit",
        where({ line: 2, params: aliasReason("count", YAML_LIMITS.aliases) }),
      ),
    };
  }
  let value: unknown;
  try {
    value = load(yaml, { schema: CORE_SCHEMA });
  } catch (error) {
    return { refused: yamlErrorDiagnostic(error, yaml, where) };
  }
  const shape = measureValue(value);
  if (shape === "ok") return { value };
  if (shape === "depth") {
    const reason = {
      reason: `lists and mappings nest deeper than ${YAML_LIMITS.depth} levels`,
      reason_ru: `списки и наборы вложены глубже ${YAML_LIMITS.depth} уровней`,
      hint: "",
    };
    return { refused: makeDiagnostic("yaml_syntax", where({ line: 2, params: reason })) };
  }
  if (shape === "bytes") {
    return {
      refused: makeDiagnostic(
        "frontmatter_too_large",
        where({ line: 2, params: { limit: YAML_LIMITS.expandedBytes } }),
      ),
    };
  }
  return {
    refused: makeDiagnostic(
      "yaml_alias_limit",
      where({ line: 2, params: aliasReason(shape, YAML_LIMITS.nodes) }),
    ),
  };
}

/**
 * Loads frontmatter YAML through {@link loadBoundedYaml} and requires a mapping.
 *
 * Diagnostics: those of {@link loadBoundedYaml}, and `frontmatter_not_mapping`.
 *
 * @param yaml - the text between the fences.
 * @param path - the file's path for the diagnostics.
 * @returns the mapping (`{}` for an empty or comment-only frontmatter) or diagnostics.
 */
export function loadFrontmatter(
  yaml: string,
  path?: string,
): { value?: Record<string, unknown>; diagnostics: Diagnostic[] } {
  const loaded = loadBoundedYaml(yaml, path);
  if ("refused" in loaded) return { diagnostics: [loaded.refused] };
  const value = loaded.value;
  if (value === undefined || value === null) return { value: {}, diagnostics: [] };
  if (typeof value !== "object" || Array.isArray(value)) {
    const list = Array.isArray(value);
    const params = { kind: list ? "list" : "scalar", kind_ru: list ? "список" : "скаляр" };
    const details: DiagnosticDetails = { line: 2, column: 1, params };
    return {
      diagnostics: [
        makeDiagnostic(
          "frontmatter_not_mapping",
          path === undefined ? details : { ...details, path },
        ),
      ],
    };
  }
  return { value: value as Record<string, unknown>, diagnostics: [] };
}

/** Counts alias tokens: `*` starting a node (after a line start, space, `[`, `{` or `,`). */
function countAliases(yaml: string): number {
  return yaml.match(/(?:^|[\s[{,])\*[^\s,[\]{}]/g)?.length ?? 0;
}

function aliasReason(
  kind: "count" | "nodes" | "cycle",
  limit: number,
): Record<string, string | number> {
  if (kind === "count") {
    return { reason: `more than ${limit} aliases`, reason_ru: `ссылок больше ${limit}` };
  }
  if (kind === "cycle") {
    return {
      reason: "an alias refers to a node that contains it",
      reason_ru: "ссылка указывает на узел, который её содержит",
    };
  }
  return {
    reason: `they expand past ${limit} nodes`,
    reason_ru: `они раскрываются больше чем в ${limit} узлов`,
  };
}

/**
 * Walks the loaded value, aliases expanded, within the budgets: stops at the first excess,
 * so an exponential "billion laughs" costs at most {@link YAML_LIMITS.nodes} steps and a
 * large string repeated through aliases at most {@link YAML_LIMITS.expandedBytes} bytes
 * of measuring (one string's length beyond it).
 */
function measureValue(root: unknown): "ok" | "nodes" | "cycle" | "depth" | "bytes" {
  let count = 0;
  let bytes = 0;
  const ancestors = new Set<object>();
  const stack: ({ value: unknown; depth: number } | { exit: object })[] = [
    { value: root, depth: 0 },
  ];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if ("exit" in top) {
      ancestors.delete(top.exit);
      continue;
    }
    if (++count > YAML_LIMITS.nodes) return "nodes";
    const { value, depth } = top;
    bytes += 1 + scalarBytes(value);
    if (bytes > YAML_LIMITS.expandedBytes) return "bytes";
    if (typeof value !== "object" || value === null) continue;
    if (ancestors.has(value)) return "cycle";
    if (depth >= YAML_LIMITS.depth) return "depth";
    ancestors.add(value);
    stack.push({ exit: value });
    if (Array.isArray(value)) {
      for (const child of value) stack.push({ value: child, depth: depth + 1 });
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      bytes += utf8ByteLength(key);
      if (bytes > YAML_LIMITS.expandedBytes) return "bytes";
      stack.push({ value: child, depth: depth + 1 });
    }
  }
  return "ok";
}

/** UTF-8 bytes of a scalar as text (0 for lists, mappings and null). */
function scalarBytes(value: unknown): number {
  if (typeof value === "string") return utf8ByteLength(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value).length;
  return 0;
}
