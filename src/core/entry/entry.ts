import type { Diagnostic } from "./diagnostic.js";

/** Who wrote an entry, as the file claims it (seed 004, field `origin`). Default `agent`. */
export type Origin = "human" | "agent";

/**
 * One clause of a contract: a mechanism and its parameters, stored as written
 * (seed 004, field `contract`).
 */
export interface ContractClause {
  /** `on_query`, `on_tool`, or a mechanism this version does not know. */
  mechanism: string;
  /** `{words: string[]}` for `on_query`, `{name: string}` for `on_tool`; as written otherwise. */
  params: Record<string, unknown>;
}

/**
 * An entry as its file holds it: the frontmatter model plus the body
 * (seed 004, "Устройство файла", "Поля заголовка").
 */
export interface Entry {
  /** UUIDv7, lower case as written. */
  id: string;
  /** Contract clauses in file order; empty = unreachable. */
  contract: ContractClause[];
  /** `human` or `agent`. */
  origin: Origin;
  /** Ids (UUIDv7) of related entries. */
  links: string[];
  /** The `summary` override as written, when the file has one. */
  summary?: string;
  /** Keys this version does not know, kept as written so re-serialisation preserves them. */
  unknownKeys: Record<string, unknown>;
  /** Markdown body after the closing fence, LF line ends, as written otherwise. */
  body: string;
}

/** The frontmatter keys this version knows, in the order files are written. */
export const KNOWN_KEYS = ["id", "origin", "contract", "links", "summary"] as const;

/** The mechanisms this version understands (seed 004; DESIGN.md glossary). */
export const KNOWN_MECHANISMS = ["on_query", "on_tool"] as const;

/** Limits of seed 004, "Пределы". */
export const LIMITS = {
  /** Largest entry file, bytes (64 KB). */
  fileBytes: 64 * 1024,
  /** Largest parse batch, bytes (10 MB). */
  batchBytes: 10 * 1024 * 1024,
  /** Largest summary, bytes of UTF-8. */
  summaryBytes: 512,
} as const;

/**
 * An entry after parsing, with what the index needs to serve it.
 */
export interface ParsedEntry {
  entry: Entry;
  /** The display fragment: the override when it says something else, else the derived one. */
  summary: string;
  /** At least one understood mechanism and no unknown key (seed 004, "достижимость"). */
  reachable: boolean;
  /** Mechanisms the entry declares that this version does not know, unique, in file order. */
  unmetMechanisms: string[];
}

/**
 * The outcome of parsing one file: `value` is absent when the file is *wrong* (skipped).
 * Diagnostics of every severity are listed either way.
 */
export interface ParseResult {
  value?: ParsedEntry;
  diagnostics: Diagnostic[];
}
