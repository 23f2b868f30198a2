/**
 * The roots registry (seed 003, "Реестр «файл → root» + hot" and "Формат реестра"; knowledge
 * roots, the registry and the hot section): `knowledge/work/local/knowledge-roots-index-v1.md`
 * in the primary root says which root holds the text of a file. Pure.
 *
 * Format, one entry per line:
 *
 * ```
 * # comment
 * team/                  => group    # a folder prefix (trailing `/`)
 * team/x.md              => user     # one file; `user` (or no `=> …`) = primary
 * group/smoke-test-v1.md => group
 * ```
 *
 * Paths are relative to `knowledge/`. The longest matching entry wins; a prefix matches
 * whole path segments only (`team/` matches `team/y.md`, never `teamwork/z.md`).
 */

import { fillTemplate, type Lang, type LocalizedText } from "../errors/localized-text.js";
import { checkKnowledgePath } from "./knowledge-path.js";
import { PRIMARY_ALIASES, PRIMARY_ROOT_ID } from "./knowledge-roots.js";

/** The registry's path in the primary root, relative to its `knowledge/` folder. */
export const REGISTRY_PATH = "work/local/knowledge-roots-index-v1.md";

/** One registry entry. */
export interface RegistryEntry {
  /** The path relative to `knowledge/`, `/`-separated, without the trailing `/`. */
  path: string;
  /** True when written with a trailing `/`: every file under the folder. */
  prefix: boolean;
  /** The root id, lower case; `primary` for `user`, `primary` or no second part. */
  root: string;
  /** 1-based line in the registry file. */
  line: number;
  /** The line as written (trimmed). */
  text: string;
}

/** A malformed registry line, reported as a value (never thrown) and skipped. */
export interface RegistryProblem {
  /** Stable machine code. */
  code: "registry_line_malformed";
  /** The registry file's path, as given to {@link parseRegistry}. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** The reason in English and Russian. */
  message: LocalizedText;
}

/** The outcome of {@link parseRegistry}: the entries and the malformed lines. */
export interface RegistryParseResult {
  entries: RegistryEntry[];
  /** One per skipped line, with its line number. */
  diagnostics: RegistryProblem[];
}

const MALFORMED: LocalizedText = {
  en: "registry line is not `path => root`: {reason}; skipped",
  ru: "строка реестра не вида `путь => корень`: {reason}; пропущена",
};

/**
 * Formats a registry problem as one line: `path:line: message [code]`.
 *
 * @param problem - the problem.
 * @param lang - the message language.
 */
export function formatRegistryProblem(problem: RegistryProblem, lang: Lang): string {
  return `${problem.path}:${problem.line}: ${problem.message[lang]} [${problem.code}]`;
}

const ROOT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * Parses the registry's text. Never throws: a malformed line (two `=>`, an empty path, a
 * path with `..` or absolute, a root that is not an id, or a line without `=>` that holds
 * spaces) is reported and skipped, the others are kept.
 *
 * @param text - the file's text.
 * @param file - the path to name in diagnostics. Default: {@link REGISTRY_PATH}.
 */
export function parseRegistry(text: string, file = REGISTRY_PATH): RegistryParseResult {
  const entries: RegistryEntry[] = [];
  const diagnostics: RegistryProblem[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = index + 1;
    const content = stripComment(raw).trim();
    if (content === "") continue;
    const bad = (reason: string, reason_ru: string): void => {
      diagnostics.push({
        code: "registry_line_malformed",
        path: file,
        line,
        message: {
          en: fillTemplate(MALFORMED.en, { reason }),
          ru: fillTemplate(MALFORMED.ru, { reason: reason_ru }),
        },
      });
    };
    const parts = content.split("=>");
    if (parts.length > 2) {
      bad("more than one “=>”", "больше одного «=>»");
      continue;
    }
    const rawPath = (parts[0] ?? "").trim();
    const rawRoot = (parts[1] ?? "").trim();
    if (rawPath === "") {
      bad("the path is empty", "путь пуст");
      continue;
    }
    if (parts.length === 1 && /\s/.test(rawPath)) {
      bad("no “=>” and the path holds spaces", "нет «=>», а в пути есть пробелы");
      continue;
    }
    const prefix = rawPath.endsWith("/") || rawPath.endsWith("\\");
    const checked = checkKnowledgePath(rawPath);
    if (!checked.ok) {
      bad(
        `the path is not relative to knowledge/ (${checked.reason})`,
        `путь не относителен knowledge/ (${checked.reason})`,
      );
      continue;
    }
    if (rawRoot !== "" && !ROOT_ID.test(rawRoot)) {
      bad(`“${rawRoot}” is not a root id`, `«${rawRoot}» — не id корня`);
      continue;
    }
    const lower = rawRoot.toLowerCase();
    const root = rawRoot === "" || PRIMARY_ALIASES.includes(lower) ? PRIMARY_ROOT_ID : lower;
    entries.push({ path: checked.path, prefix, root, line, text: raw.trim() });
  }
  return { entries, diagnostics };
}

/**
 * The entry that decides where a path lives: the longest entry that matches it, a file
 * entry matching the path exactly, a prefix entry matching its leading segments. On equal
 * length a file entry wins; then the later line.
 *
 * @param entries - from {@link parseRegistry}.
 * @param path - a path relative to `knowledge/` (checked, `/`-separated).
 * @returns the entry, or undefined when none matches (the file lives in primary).
 */
export function matchRegistry(
  entries: readonly RegistryEntry[],
  path: string,
): RegistryEntry | undefined {
  let best: RegistryEntry | undefined;
  for (const entry of entries) {
    const hit = entry.prefix ? path.startsWith(`${entry.path}/`) : path === entry.path;
    if (!hit) continue;
    if (
      best === undefined ||
      entry.path.length > best.path.length ||
      (entry.path.length === best.path.length && (!entry.prefix || best.prefix))
    ) {
      best = entry;
    }
  }
  return best;
}

/**
 * The root that holds a path by the registry (knowledge roots: registry lines).
 *
 * @param entries - from {@link parseRegistry}.
 * @param path - a path relative to `knowledge/`.
 * @returns the root id, lower case; `primary` when no entry matches or the entry says so.
 */
export function rootForPath(entries: readonly RegistryEntry[], path: string): string {
  return matchRegistry(entries, path)?.root ?? PRIMARY_ROOT_ID;
}

/** Removes a `#` comment: `#` at the start or after white space. */
function stripComment(line: string): string {
  const match = /(^|\s)#/.exec(line);
  return match === null ? line : line.slice(0, match.index);
}
