/**
 * The markers `lore export` writes into the files of other tools, and reads back on `lore
 * import`, so that an entry keeps its id through AGENTS.md, Cursor rules and Agent Skills
 * (one source of truth for a team mixing tools; export and import, both ways). Pure.
 *
 * - `<!-- lore:entry {json} -->` opens one entry: its id, origin, contract, links and the
 *   summary override, as JSON (`<`, `>`, `&` written as `\u003c`, `\u003e`, `\u0026`, so no
 *   value can close the comment). The entry's body follows verbatim.
 * - `<!-- /lore:entry -->` closes an entry inside an AGENTS.md section (a Cursor rule or a
 *   skill holds one entry: its body runs to the end of the file).
 * - `<!-- lore:begin … -->` and `<!-- lore:end -->` enclose Lore's section of an AGENTS.md;
 *   the text outside them is the user's and is never touched.
 */
import type { ContractClause, Entry, Origin } from "../entry/entry.js";

/** The opening of an entry's meta comment (followed by a space and the JSON). */
export const ENTRY_OPEN = "<!-- lore:entry ";

/** The line closing an entry inside an AGENTS.md section. */
export const ENTRY_CLOSE = "<!-- /lore:entry -->";

/** The opening of the line that starts Lore's section of an AGENTS.md. */
export const SECTION_BEGIN = "<!-- lore:begin";

/** The line that ends Lore's section of an AGENTS.md. */
export const SECTION_END = "<!-- lore:end -->";

/** What the meta comment keeps of an entry: every frontmatter key an exported entry has. */
export interface EntryMeta {
  id: string;
  origin: Origin;
  contract: ContractClause[];
  links: string[];
  /** The `summary` override as written, when the entry has one. */
  summary?: string;
}

/**
 * The meta comment line of an entry (no newline): `<!-- lore:entry {"id":…} -->`.
 *
 * @param entry - the entry (its unknown keys, which an exported entry never has, are not kept).
 */
export function entryMetaLine(entry: Entry): string {
  const meta: EntryMeta = {
    id: entry.id,
    origin: entry.origin,
    contract: entry.contract.map(({ mechanism, params }) => ({ mechanism, params })),
    links: entry.links,
  };
  if (entry.summary !== undefined) meta.summary = entry.summary;
  const json = JSON.stringify(meta)
    .replace(/</gu, "\\u003c")
    .replace(/>/gu, "\\u003e")
    .replace(/&/gu, "\\u0026");
  return `${ENTRY_OPEN}${json} -->`;
}

/** Tells whether a line (trailing whitespace and CR ignored) opens an entry. */
export function isEntryMetaLine(line: string): boolean {
  return line.startsWith(ENTRY_OPEN);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;

/**
 * Reads a meta comment line back.
 *
 * @param line - the line, as {@link entryMetaLine} wrote it (trailing whitespace allowed).
 * @returns the meta, or `{error}` naming what is wrong (not closed, not JSON, a bad id,
 *   origin, contract or links): a damaged marker is never guessed at.
 */
export function readEntryMetaLine(line: string): EntryMeta | { error: string } {
  const text = line.trimEnd();
  if (!text.startsWith(ENTRY_OPEN) || !text.endsWith(" -->")) {
    return { error: "the lore:entry comment is not closed by -->" };
  }
  let value: unknown;
  try {
    value = JSON.parse(text.slice(ENTRY_OPEN.length, -" -->".length));
  } catch {
    return { error: "the lore:entry comment does not hold JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { error: "the lore:entry comment does not hold an object" };
  }
  const raw = value as Record<string, unknown>;
  if (typeof raw.id !== "string" || !UUID.test(raw.id)) {
    return { error: "the lore:entry comment holds no UUIDv7 id" };
  }
  if (raw.origin !== "human" && raw.origin !== "agent") {
    return { error: `the lore:entry comment of ${raw.id} holds no origin human or agent` };
  }
  const contract = raw.contract;
  const clausesOk =
    Array.isArray(contract) &&
    contract.every(
      (clause) =>
        typeof clause === "object" &&
        clause !== null &&
        typeof (clause as ContractClause).mechanism === "string" &&
        typeof (clause as ContractClause).params === "object" &&
        (clause as ContractClause).params !== null,
    );
  if (!clausesOk) return { error: `the lore:entry comment of ${raw.id} holds no contract list` };
  const links = raw.links;
  if (
    !Array.isArray(links) ||
    !links.every((link) => typeof link === "string" && UUID.test(link))
  ) {
    return { error: `the lore:entry comment of ${raw.id} holds no list of link ids` };
  }
  if (raw.summary !== undefined && typeof raw.summary !== "string") {
    return { error: `the lore:entry comment of ${raw.id} holds a summary that is not text` };
  }
  const meta: EntryMeta = {
    id: raw.id,
    origin: raw.origin,
    contract: contract as ContractClause[],
    links: links as string[],
  };
  if (typeof raw.summary === "string") meta.summary = raw.summary;
  return meta;
}

/**
 * Tells whether a body line would be taken for one of Lore's markers inside an AGENTS.md
 * section (an entry's open or close line, the section's begin or end line): such a body
 * cannot be delimited there and is left out of the section.
 *
 * @param body - the entry body, LF line ends.
 */
export function bodyHoldsMarker(body: string): boolean {
  return body.split("\n").some((raw) => {
    const line = raw.trimEnd();
    return (
      line.startsWith(ENTRY_OPEN) ||
      line === ENTRY_CLOSE ||
      line.startsWith(SECTION_BEGIN) ||
      line === SECTION_END
    );
  });
}
