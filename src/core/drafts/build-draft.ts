/**
 * Builds a draft's future file (seed 004, "Как знание выходит наружу", "Строго на запись,
 * терпимо на чтение", "Пределы"). Pure: the id minter is a parameter.
 */
import type { Diagnostic } from "../entry/diagnostic.js";
import { type ContractClause, type Entry, LIMITS, type ParsedEntry } from "../entry/entry.js";
import { formatEntry } from "../entry/format-entry.js";
import { parseEntry } from "../entry/parse-entry.js";
import { utf8ByteLength } from "../entry/utf8.js";
import { readEntryFile } from "../entry/yaml-frontmatter.js";
import { LoreError } from "../errors/lore-error.js";
import { validateBranchName } from "../repos/repo-name.js";
import { nearestKey } from "../text/nearest-key.js";
import { type DraftInput, draftFilePath } from "./draft.js";

/** A draft ready to store: its future file and what the index keeps of it. */
export interface BuiltDraft {
  /** The entry id (lower case). */
  id: string;
  /** The branch the author works on (checked). */
  branch: string;
  /** The whole future file `.gitriver/knowledge/<id>.md`, in the stable serialisation. */
  text: string;
  /** Bytes of `text` as UTF-8, at most {@link LIMITS.fileBytes}. */
  size: number;
  /** The strict parse of `text`. */
  parsed: ParsedEntry;
  /** Its diagnostics (notes only: a warning or an error refuses the draft). */
  diagnostics: Diagnostic[];
}

/** The keys of the two input forms, for the refusal of an input that mixes or lacks them. */
const TEXT_FORM = ["branch", "text"] as const;
const FIELD_FORM = ["branch", "title", "body", "words", "tool", "links"] as const;

/**
 * Builds a draft's future file from what a client wrote.
 *
 * - `{branch, text}`: the whole entry file. An `id` key absent from its frontmatter is
 *   assigned (`mintId`); `origin` defaults to `agent`.
 * - `{branch, title, body, words?, tool?, links?}`: an entry whose first paragraph is the
 *   title (its summary in lists), then the body; `words` become an `on_query` clause,
 *   `tool` an `on_tool` clause; `origin: agent`; the id is assigned.
 *
 * The file is parsed in `strict` mode (a warning refuses it: an unknown key names the
 * nearest known one, `sumary` → `summary`) and stored as `formatEntry` writes it, so the
 * text kept is the text delivery commits.
 *
 * @param input - the client's draft.
 * @param mintId - gives a fresh UUIDv7 (the server assigns ids).
 * @returns the built draft.
 * @throws LoreError `invalid_input` for a branch name git refuses or an input of neither
 *   form (or of both); `unknown_field` (`data: {field, nearest?}`) for a key of neither form,
 *   naming the nearest key (`word` → `words`); `draft_too_large` (`data: {size, limit}`, bytes) when the future file would be
 *   over 65,536 bytes of UTF-8, frontmatter included; `invalid_entry` (`data.diagnostics`)
 *   when the strict parse refuses the file.
 */
export function buildDraft(input: DraftInput, mintId: () => string): BuiltDraft {
  if (typeof input !== "object" || input === null) throw badForm("the draft must be an object");
  if (typeof input.branch !== "string") throw badForm("branch must be a string");
  const branch = validateBranchName(input.branch);
  const text = "text" in input ? textOfFile(input, mintId) : textOfFields(input, mintId);
  checkSize(text);
  const first = strictParse(text);
  // The stored text is the stable serialisation; parse it again so the diagnostics and the
  // summary kept are those of the exact bytes stored.
  const stored = formatEntry(first.entry);
  checkSize(stored);
  const parsed = parseEntry(stored, { mode: "strict", path: draftFilePath(first.entry.id) });
  if (parsed.value === undefined) throw refused(parsed.diagnostics);
  return {
    id: parsed.value.entry.id,
    branch,
    text: stored,
    size: utf8ByteLength(stored),
    parsed: parsed.value,
    diagnostics: parsed.diagnostics,
  };
}

/**
 * Refuses a key of neither form with `unknown_field` naming the nearest key of the form
 * (`word` → `words`), and a key of the other form with `invalid_input`.
 */
function checkKeys(input: Record<string, unknown>, form: readonly string[]): void {
  for (const key of Object.keys(input)) {
    if (form.includes(key)) continue;
    if (
      (TEXT_FORM as readonly string[]).includes(key) ||
      (FIELD_FORM as readonly string[]).includes(key)
    ) {
      throw badForm(
        `“${key}” cannot be given with ${form === TEXT_FORM ? "text" : "title and body"}`,
      );
    }
    const nearest = nearestKey(key, form);
    const shown = key.length > 64 ? `${key.slice(0, 64)}…` : key;
    throw new LoreError(
      "unknown_field",
      {
        field: shown,
        hint: nearest === undefined ? "" : `; did you mean “${nearest}”?`,
        hint_ru: nearest === undefined ? "" : `; возможно, имелось в виду «${nearest}»?`,
      },
      { data: nearest === undefined ? { field: shown } : { field: shown, nearest } },
    );
  }
}

function textOfFile(input: Record<string, unknown>, mintId: () => string): string {
  checkKeys(input, TEXT_FORM);
  if (typeof input.text !== "string") throw badForm("text must be a string");
  const text = input.text;
  // Too large already: refuse with its size before the parser would (file_too_large).
  checkSize(text);
  const file = readEntryFile(text);
  if (file.frontmatter === undefined || Object.hasOwn(file.frontmatter, "id")) return text;
  // The id is absent: assigned by the server, written as the first key after the fence.
  const fenceEnd = text.indexOf("\n");
  return `${text.slice(0, fenceEnd + 1)}id: ${mintId()}\n${text.slice(fenceEnd + 1)}`;
}

function textOfFields(input: Record<string, unknown>, mintId: () => string): string {
  checkKeys(input, FIELD_FORM);
  const { title, body, words, tool, links } = input;
  if (typeof title !== "string" || title.trim() === "") {
    throw badForm("title must be a non-blank string (the entry's first paragraph)");
  }
  if (/\n[ \t]*\n/.test(title.trim())) throw badForm("title must be one paragraph");
  if (typeof body !== "string") throw badForm("body must be a string");
  if (links !== undefined && !Array.isArray(links)) throw badForm("links must be a list of ids");
  const contract: ContractClause[] = [];
  // Wrong values (an empty list, a blank name, a bad link) are left to the strict parse,
  // which names them with their place in the file.
  if (words !== undefined) contract.push({ mechanism: "on_query", params: { words } });
  if (tool !== undefined) contract.push({ mechanism: "on_tool", params: { name: tool } });
  const entry: Entry = {
    id: mintId(),
    origin: "agent",
    contract,
    // Non-strings are refused by the strict parse (invalid_link), not here.
    links: (links as string[] | undefined) ?? [],
    unknownKeys: {},
    body: body.trim() === "" ? title.trim() : `${title.trim()}\n\n${body}`,
  };
  return formatEntry(entry);
}

function strictParse(text: string): ParsedEntry {
  const result = parseEntry(text, { mode: "strict" });
  if (result.value === undefined) throw refused(result.diagnostics);
  return result.value;
}

function checkSize(text: string): void {
  const size = utf8ByteLength(text);
  if (size > LIMITS.fileBytes) {
    throw new LoreError(
      "draft_too_large",
      { size, limit: LIMITS.fileBytes },
      { data: { size, limit: LIMITS.fileBytes } },
    );
  }
}

/** `invalid_entry` with every problem in `data.diagnostics` and the first named in the message. */
function refused(diagnostics: Diagnostic[]): LoreError {
  const problems = diagnostics.filter((d) => d.severity !== "info");
  const count = problems.length;
  const first = problems[0];
  const base = {
    en: `the entry is refused: ${count} problem(s) found`,
    ru: `запись отклонена: найдено замечаний — ${count}`,
  };
  const text =
    first === undefined
      ? base
      : { en: `${base.en}; ${first.message.en}`, ru: `${base.ru}; ${first.message.ru}` };
  return new LoreError("invalid_entry", { count }, { data: { diagnostics: problems }, text });
}

function badForm(reason: string): LoreError {
  return new LoreError("invalid_input", { reason });
}
