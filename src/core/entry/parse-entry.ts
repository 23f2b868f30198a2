import { nearestKey } from "../text/nearest-key.js";
import {
  type Diagnostic,
  type DiagnosticCode,
  type DiagnosticDetails,
  makeDiagnostic,
} from "./diagnostic.js";
import {
  type ContractClause,
  type Entry,
  KNOWN_KEYS,
  LIMITS,
  type Origin,
  type ParseResult,
} from "./entry.js";
import {
  controlHint,
  EXPECTED,
  findControlCharacter,
  invalidField,
  type Report,
  show,
} from "./field-diagnostic.js";
import { createFrontmatterLocator, type FrontmatterLocator } from "./frontmatter-locator.js";
import { readContract } from "./parse-contract.js";
import { findPlaceholder } from "./placeholder-text.js";
import { resolveSummary } from "./summary.js";
import { utf8ByteLength } from "./utf8.js";
import { isUuidV7 } from "./uuid7.js";
import { readEntryFile } from "./yaml-frontmatter.js";

/**
 * How to treat what this version does not understand (seed 004, "Строго на запись,
 * терпимо на чтение"):
 * - `strict` (writes through the API): every warning is an error, the file is refused;
 * - `lenient` (files from a repository): unknown keys and mechanisms keep the entry but make
 *   it unreachable; only *wrong* files are skipped.
 */
export type ParseMode = "strict" | "lenient";

/** Options of {@link parseEntry}. */
export interface ParseOptions {
  /** `strict` or `lenient`; no default — the caller decides by where the data comes from. */
  mode: ParseMode;
  /** The file's path, copied into every diagnostic. Default: none. */
  path?: string;
  /** The mechanisms this version knows (see `readContract`). Default: `KNOWN_MECHANISMS`. */
  mechanisms?: readonly string[];
}

/**
 * Parses one entry file (seed 004, "Устройство файла" to "Пределы").
 *
 * Checks, in order: size (`file_too_large`, over {@link LIMITS.fileBytes} bytes of input),
 * encoding and fences and YAML (see `readEntryFile`), then the fields:
 * - `id` — required UUIDv7 (`missing_id`, `invalid_id`); held in lower case;
 * - `origin` — `human` | `agent`, default `agent` (`invalid_field`);
 * - `contract` — list of `{mechanism, params}`; `on_query` needs `params.words` (non-empty
 *   list of non-blank strings), `on_tool` needs `params.name` (non-blank string), neither
 *   holding a control character other than TAB and LF (`invalid_mechanism_params`); another mechanism is kept as written and makes the entry
 *   unreachable (`unknown_mechanism`); other keys in a clause are `invalid_field`; other
 *   params of a known mechanism are `unknown_key` (kept, unreachable);
 * - `links` — list of UUIDv7 (`invalid_field`, `invalid_link` per element); held in lower case;
 * - `summary` — non-blank string with no control character other than TAB and LF
 *   (`invalid_field`; see `findControlCharacter`); see `resolveSummary` for its notes;
 * - any other key — `unknown_key` with the nearest known key or none, kept in `unknownKeys`;
 * - the body — `empty_body` when blank; `placeholder_text` when a placeholder sentence of
 *   `lore new` is left in it (see `placeholder-text.ts`); `no_contract` note when the
 *   contract is empty.
 *
 * A known key written with no value (`links:`) reads as absent, except `id` (`missing_id`).
 *
 * Outcome: with an `error` diagnostic there is no value (the file is *wrong*). In `strict`
 * mode a `warning` is raised to `error` and there is no value either. `reachable` is true
 * when the contract is non-empty and there is no unknown mechanism and no unknown key.
 * Diagnostics are sorted by line. Pure; never throws.
 *
 * @param input - the file's bytes, or its text.
 * @param opts - mode and path, see {@link ParseOptions}.
 * @returns the parsed entry (when not wrong) and every diagnostic.
 */
export function parseEntry(input: Uint8Array | string, opts: ParseOptions): ParseResult {
  const { path } = opts;
  const size = typeof input === "string" ? utf8ByteLength(input) : input.byteLength;
  if (size > LIMITS.fileBytes) {
    const details = { params: { size, limit: LIMITS.fileBytes } };
    return finish(opts.mode, [
      makeDiagnostic("file_too_large", path === undefined ? details : { ...details, path }),
    ]);
  }
  const file = readEntryFile(input, path);
  const diagnostics = file.diagnostics;
  const { parts, frontmatter } = file;
  if (parts === undefined) return finish(opts.mode, diagnostics);
  const report = (code: DiagnosticCode, details: DiagnosticDetails) =>
    diagnostics.push(makeDiagnostic(code, path === undefined ? details : { ...details, path }));
  if (parts.body === "") report("empty_body", { line: parts.bodyLine });
  const placeholder = findPlaceholder(parts.body);
  if (placeholder !== undefined) {
    report("placeholder_text", {
      line: parts.bodyLine + placeholder.line,
      params: { text: placeholder.text },
    });
  }
  if (frontmatter === undefined) return finish(opts.mode, diagnostics);

  const locator = createFrontmatterLocator(parts.yaml);
  const fields = readFields(frontmatter, locator, report, opts.mechanisms);
  // A wrong file is skipped: notes about its summary or contract would only be noise.
  if (fields === undefined || parts.body === "") return finish(opts.mode, diagnostics);
  const { summary, notes } = resolveSummary(fields.summary, parts.body);
  for (const note of notes) {
    const overrideNote = note.code === "summary_too_long";
    report(note.code, {
      line: overrideNote ? locator.lineOfKey("summary") : parts.bodyLine,
      params: note.params,
    });
  }
  if (fields.contract.length === 0) {
    const line = locator.lineOfKey("contract");
    report("no_contract", line === undefined ? {} : { line });
  }
  const entry: Entry = {
    id: fields.id,
    contract: fields.contract,
    origin: fields.origin,
    links: fields.links,
    unknownKeys: fields.unknownKeys,
    body: parts.body,
  };
  if (fields.summary !== undefined) entry.summary = fields.summary;
  const reachable =
    fields.contract.length > 0 && fields.unmetMechanisms.length === 0 && !fields.hasUnknownKey;
  return finish(opts.mode, diagnostics, {
    entry,
    summary,
    reachable,
    unmetMechanisms: fields.unmetMechanisms,
  });
}

function finish(
  mode: ParseMode,
  diagnostics: Diagnostic[],
  value?: ParseResult["value"],
): ParseResult {
  const sorted = diagnostics
    .map((diagnostic, order) => ({ diagnostic, order }))
    .sort((a, b) => (a.diagnostic.line ?? 0) - (b.diagnostic.line ?? 0) || a.order - b.order)
    .map(({ diagnostic }) => diagnostic);
  if (mode === "strict" && sorted.some((d) => d.severity !== "info")) {
    return {
      diagnostics: sorted.map((d) => (d.severity === "warning" ? { ...d, severity: "error" } : d)),
    };
  }
  if (value === undefined || sorted.some((d) => d.severity === "error")) {
    return { diagnostics: sorted };
  }
  return { value, diagnostics: sorted };
}

interface Fields {
  id: string;
  origin: Origin;
  contract: ContractClause[];
  links: string[];
  summary?: string;
  unknownKeys: Record<string, unknown>;
  unmetMechanisms: string[];
  hasUnknownKey: boolean;
}

/** Checks the known fields and collects the unknown ones; `undefined` when a field is wrong. */
function readFields(
  frontmatter: Record<string, unknown>,
  locator: FrontmatterLocator,
  report: Report,
  mechanisms?: readonly string[],
): Fields | undefined {
  let wrong = false;
  let hasUnknownKey = false;
  const fail: Report = (code, details) => {
    wrong = true;
    report(code, details);
  };
  const lineOf = (key: string) => {
    const line = locator.lineOfKey(key);
    return line === undefined ? {} : { line, column: 1 };
  };
  const field = (key: string): unknown =>
    Object.hasOwn(frontmatter, key) ? frontmatter[key] : undefined;

  const unknownKeys: Record<string, unknown> = {};
  for (const key of Object.keys(frontmatter)) {
    if ((KNOWN_KEYS as readonly string[]).includes(key)) continue;
    hasUnknownKey = true;
    setOwn(unknownKeys, key, frontmatter[key]);
    const nearest = nearestKey(key, KNOWN_KEYS);
    report("unknown_key", {
      ...lineOf(key),
      at: show(key),
      params: nearest === undefined ? { key: show(key) } : { key: show(key), nearest },
    });
  }

  const rawId = field("id");
  let id = "";
  if (rawId === undefined || rawId === null) fail("missing_id", { line: 2 });
  else if (typeof rawId !== "string" || !isUuidV7(rawId)) {
    fail("invalid_id", { ...lineOf("id"), at: "id", params: { value: show(rawId) } });
  } else id = rawId.toLowerCase();

  const rawOrigin = field("origin");
  let origin: Origin = "agent";
  if (rawOrigin === "human" || rawOrigin === "agent") origin = rawOrigin;
  else if (rawOrigin !== undefined && rawOrigin !== null) {
    fail("invalid_field", invalidField("origin", lineOf("origin"), EXPECTED.origin));
  }

  const contract = readContract(field("contract"), {
    position: lineOf("contract"),
    locator,
    fail,
    report,
    onUnknownKey: () => {
      hasUnknownKey = true;
    },
    ...(mechanisms === undefined ? {} : { mechanisms }),
  });

  const rawLinks = field("links");
  const links: string[] = [];
  if (Array.isArray(rawLinks)) {
    rawLinks.forEach((link, index) => {
      if (typeof link === "string" && isUuidV7(link)) links.push(link.toLowerCase());
      else {
        fail("invalid_link", {
          ...lineOf("links"),
          at: `links[${index}]`,
          params: { value: show(link) },
        });
      }
    });
  } else if (rawLinks !== undefined && rawLinks !== null) {
    fail("invalid_field", invalidField("links", lineOf("links"), EXPECTED.links));
  }

  const rawSummary = field("summary");
  let summary: string | undefined;
  if (typeof rawSummary === "string" && rawSummary.trim() !== "") {
    const control = findControlCharacter(rawSummary);
    if (control === undefined) summary = rawSummary;
    else {
      const hint = controlHint(control, "it", "он");
      fail("invalid_field", invalidField("summary", lineOf("summary"), EXPECTED.summary, hint));
    }
  } else if (rawSummary !== undefined && rawSummary !== null) {
    fail("invalid_field", invalidField("summary", lineOf("summary"), EXPECTED.summary));
  }

  if (wrong || contract === undefined) return undefined;
  const fields: Fields = {
    id,
    origin,
    contract: contract.clauses,
    links,
    unknownKeys,
    unmetMechanisms: contract.unmet,
    hasUnknownKey,
  };
  if (summary !== undefined) fields.summary = summary;
  return fields;
}

/** Sets an own property, even one named `__proto__`. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
