/**
 * What the renderers of `lore export` take (export and import, both ways): one reachable
 * entry with its display summary and the path it lives at, and the helpers the three
 * formats share — the formats' names, the group of an entry, a stable slug, the contract
 * in words for a description. Pure.
 */
import type { Entry } from "../entry/entry.js";
import { normalizeBody } from "../entry/frontmatter-fences.js";
import { LoreError } from "../errors/lore-error.js";
import { nearestKey } from "../text/nearest-key.js";

/** The formats `lore export` writes. */
export const EXPORT_FORMATS = ["agents-md", "cursor", "skills"] as const;

/** One format of {@link EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One entry to export. */
export interface ExportEntry {
  /** The entry as stored (no unknown keys: only reachable entries are exported). */
  entry: Entry;
  /** The display fragment (the override when it says something else, else the first paragraph). */
  summary: string;
  /** The entry file's path in its repository, `/`-separated (`.gitriver/knowledge/x/<id>.md`). */
  path: string;
}

/** One file a renderer makes: its path under the output folder and its text. */
export interface ExportFile {
  /** `/`-separated, relative to the output folder (`.cursor/rules/lore/x-1a2b3c4d.mdc`). */
  path: string;
  /** The file's text, LF line ends, one final newline. */
  text: string;
  /** The ids of the entries the file holds. */
  ids: string[];
}

/**
 * Reads a format name.
 *
 * @param name - as typed.
 * @throws LoreError `invalid_input` naming the nearest format (`agents` → `agents-md`).
 */
export function parseExportFormat(name: string | undefined): ExportFormat {
  const wanted = (name ?? "").trim();
  if ((EXPORT_FORMATS as readonly string[]).includes(wanted)) return wanted as ExportFormat;
  const lower = wanted.toLowerCase();
  // A word cut short (`agent`) names the format it starts, past the edit-distance bound.
  const nearest =
    wanted === ""
      ? undefined
      : (nearestKey(wanted, EXPORT_FORMATS) ??
        EXPORT_FORMATS.find((format) => format.startsWith(lower.slice(0, 4))));
  const list = EXPORT_FORMATS.join(", ");
  if (wanted === "") {
    throw new LoreError("invalid_input", {
      reason: `a format is needed: one of ${list}`,
      reason_ru: `нужен формат: один из ${list}`,
    });
  }
  throw new LoreError("invalid_input", {
    reason: `“${wanted}” is not an export format (${list})${nearest ? `; did you mean “${nearest}”?` : ""}`,
    reason_ru: `«${wanted}» — не формат выгрузки (${list})${nearest ? `; может быть, «${nearest}»?` : ""}`,
  });
}

const KNOWLEDGE_PREFIX = ".gitriver/knowledge/";

/**
 * The group of an entry: the folder it lives in under `.gitriver/knowledge/` (the entry
 * format's own grouping: teams sort entries into sub-folders), `general` at the top.
 *
 * @param path - the entry file's path in its repository.
 */
export function groupOf(path: string): string {
  const inside = path.startsWith(KNOWLEDGE_PREFIX) ? path.slice(KNOWLEDGE_PREFIX.length) : path;
  const slash = inside.lastIndexOf("/");
  return slash <= 0 ? "general" : inside.slice(0, slash);
}

/**
 * Sorts entries the way every format lists them: by group, then by path, then by id
 * (UTF-16 code unit order), so the same entries always give the same bytes.
 */
export function sortForExport(entries: readonly ExportEntry[]): ExportEntry[] {
  const key = (e: ExportEntry) => [groupOf(e.path), e.path, e.entry.id] as const;
  return [...entries].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) {
      if (ka[i] !== kb[i]) return (ka[i] as string) < (kb[i] as string) ? -1 : 1;
    }
    return 0;
  });
}

/** The body as the entry file holds it: LF, no leading blank lines, one final newline. */
export function exportBody(entry: Entry): string {
  return normalizeBody(entry.body);
}

const CYRILLIC: Record<string, string> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "e",
  ж: "zh",
  з: "z",
  и: "i",
  й: "i",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "iu",
  я: "ia",
};

/** Most characters of the words part of a slug. */
const SLUG_WORDS_CHARS = 40;

/**
 * A stable file-name-safe name for an entry: up to 40 characters of its summary in lower
 * case ASCII (`[a-z0-9]` and single hyphens; Cyrillic transliterated, accents dropped), a
 * hyphen, and the last 8 hex digits of its id — so two entries never share a name and the
 * name matches the Agent Skills rule (`^[a-z0-9]+(-[a-z0-9]+)*$`, at most 64 characters).
 *
 * @param summary - the entry's display summary.
 * @param id - the entry's UUIDv7.
 */
export function exportSlug(summary: string, id: string): string {
  const ascii = summary
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/gu, "")
    .replace(/[а-яё]/gu, (char) => CYRILLIC[char] ?? "");
  let words = ascii.replace(/[^a-z0-9]+/gu, "-").replace(/^-+|-+$/gu, "");
  if (words.length > SLUG_WORDS_CHARS) {
    const cut = words.slice(0, SLUG_WORDS_CHARS);
    const dash = cut.lastIndexOf("-");
    // Whole words only, unless one word alone is longer than the limit.
    words = (dash > 0 && words[SLUG_WORDS_CHARS] !== "-" ? cut.slice(0, dash) : cut).replace(
      /-+$/u,
      "",
    );
  }
  const tail = id.replace(/-/gu, "").slice(-8);
  return `${words === "" ? "entry" : words}-${tail}`;
}

/**
 * The contract in words, for the descriptions other tools show their model to decide when
 * a rule or skill applies: `Use when the task mentions: a, b, c. Before calling the tool:
 * x.` (`on_query` words, then `on_tool` names; empty when the entry has neither).
 *
 * @param entry - the entry.
 */
export function contractSentence(entry: Entry): string {
  const words: string[] = [];
  const tools: string[] = [];
  for (const clause of entry.contract) {
    if (clause.mechanism === "on_query" && Array.isArray(clause.params.words)) {
      for (const word of clause.params.words) if (typeof word === "string") words.push(word);
    }
    if (clause.mechanism === "on_tool" && typeof clause.params.name === "string") {
      tools.push(clause.params.name);
    }
  }
  const parts: string[] = [];
  if (words.length > 0)
    parts.push(`Use when the task mentions: ${[...new Set(words)].join(", ")}.`);
  if (tools.length > 0) parts.push(`Before calling the tool: ${[...new Set(tools)].join(", ")}.`);
  return parts.join(" ");
}

/**
 * The description other tools show their model for an entry: its summary (closed with a
 * full stop when it ends without punctuation), then {@link contractSentence}; folded to one
 * line and cut to `max` characters at a word.
 *
 * @param item - the entry and its display summary.
 * @param max - the longest description, UTF-16 code units.
 */
export function exportDescription(item: ExportEntry, max: number): string {
  const summary = item.summary.trim();
  const closed = summary === "" || /[.!?…:;)»"'`]$/u.test(summary) ? summary : `${summary}.`;
  return oneLine([closed, contractSentence(item.entry)].filter(Boolean).join(" "), max);
}

/**
 * The file globs of an entry's path-scoped clauses: a mechanism `on_path` with
 * `params.glob` (a string) or `params.globs` (a list of strings). This version does not
 * fire `on_path` itself, but other tools do (Cursor's `globs`), so an entry that declares
 * one next to a mechanism Lore understands carries it over. In clause order, distinct.
 *
 * @param entry - the entry.
 */
export function entryGlobs(entry: Entry): string[] {
  const globs: string[] = [];
  for (const clause of entry.contract) {
    if (clause.mechanism !== "on_path") continue;
    const { glob, globs: list } = clause.params;
    if (typeof glob === "string" && glob.trim() !== "") globs.push(glob.trim());
    if (Array.isArray(list)) {
      for (const item of list)
        if (typeof item === "string" && item.trim() !== "") globs.push(item.trim());
    }
  }
  return [...new Set(globs)];
}

/**
 * Folds text to one line and cuts it to at most `max` UTF-16 code units at a word, adding
 * `…` when it cut (descriptions: Agent Skills allow 1,024 characters).
 */
export function oneLine(text: string, max: number): string {
  const folded = text.replace(/\s+/gu, " ").trim();
  if (folded.length <= max) return folded;
  let cut = folded.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  if (space > (max * 3) / 4) cut = cut.slice(0, space);
  // A cut between the halves of a surrogate pair would leave half a character.
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
