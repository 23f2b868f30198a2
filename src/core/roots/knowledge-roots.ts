/**
 * The knowledge roots model (seed 003, ADR 015 "Решение (MCP)"; knowledge roots, “Configuration”):
 * the primary root (the user's, read-write), named roots (`[knowledge.roots]`) and
 * read-only roots (`[[knowledge.read_only]]`, e.g. `group`, `public`). Pure.
 */
import type { LocalizedText } from "../errors/localized-text.js";

/** What a root is: the user's `primary`, a `named` root, or a `read_only` one. */
export type RootKind = "primary" | "named" | "read_only";

/** The id of the primary root in answers; `user` names it too (seed 003, chmod `u`). */
export const PRIMARY_ROOT_ID = "primary";

/** Ids that name the primary root (compared case-insensitively). */
export const PRIMARY_ALIASES: readonly string[] = ["primary", "user"];

/** A root id: a letter or digit, then letters, digits, `_`, `-`, `.`. */
const ROOT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * One configured root. `path` is as written in the TOML file until `main/` resolves it
 * (`~` expanded, relative paths against the config file's folder); a root is a folder that
 * holds `knowledge/`.
 */
export interface KnowledgeRoot {
  /** The id as written (`primary` for the primary root); compare with {@link sameRootId}. */
  id: string;
  kind: RootKind;
  /** The root folder (the one that holds `knowledge/`). */
  path: string;
  /** True for the primary root only: every other root refuses writes (`read_only_root`). */
  writable: boolean;
}

/** The `[knowledge]` table as validated by `core/config/config.ts`. */
export interface KnowledgeConfig {
  /** `[knowledge] primary`: the user root (read-write). */
  primary?: string;
  /** `[knowledge.roots]`: named roots, `id = "<path>"`. */
  roots?: Record<string, string>;
  /** `[[knowledge.read_only]]`: `id` and `path` of each read-only root. */
  read_only?: { id: string; path: string }[];
}

/** A problem of the `[knowledge]` table: the dotted key (array index as `[n]`) and why. */
export interface KnowledgeProblem {
  /** Key path parts, e.g. `["knowledge", "read_only", 1, "id"]`. */
  path: (string | number)[];
  message: LocalizedText;
}

/**
 * Tells whether two root ids are the same (case-insensitive; `user` = `primary`).
 *
 * @param a - an id.
 * @param b - another id.
 */
export function sameRootId(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (PRIMARY_ALIASES.includes(x) && PRIMARY_ALIASES.includes(y)) return true;
  return x === y;
}

/**
 * Checks the ids of a validated `[knowledge]` table: each id well formed, not `user` or
 * `primary` (they name the primary root), and unique across named and read-only roots in
 * any case (`Group` and `group` clash).
 *
 * @param config - the table.
 * @returns the problems in file order of the roots (empty when fine).
 */
export function knowledgeProblems(config: KnowledgeConfig): KnowledgeProblem[] {
  const problems: KnowledgeProblem[] = [];
  const seen = new Map<string, string>();
  const check = (id: string, path: (string | number)[]) => {
    const lower = id.toLowerCase();
    if (!ROOT_ID.test(id)) {
      problems.push({
        path,
        message: {
          en: `root id “${id}” must start with a letter or digit and hold only letters, digits, “_”, “-”, “.”`,
          ru: `id корня «${id}» должен начинаться с буквы или цифры и содержать только буквы, цифры, «_», «-», «.»`,
        },
      });
    } else if (PRIMARY_ALIASES.includes(lower)) {
      problems.push({
        path,
        message: {
          en: `root id “${id}” is reserved: “user” and “primary” name the primary root ([knowledge] primary)`,
          ru: `id корня «${id}» занят: «user» и «primary» означают основной корень ([knowledge] primary)`,
        },
      });
    } else if (seen.has(lower)) {
      problems.push({
        path,
        message: {
          en: `root id “${id}” is used twice (ids are case-insensitive; first: “${seen.get(lower)}”)`,
          ru: `id корня «${id}» встречается дважды (регистр не важен; первый: «${seen.get(lower)}»)`,
        },
      });
    } else {
      seen.set(lower, id);
    }
  };
  for (const id of Object.keys(config.roots ?? {})) check(id, ["knowledge", "roots", id]);
  (config.read_only ?? []).forEach((root, i) => {
    check(root.id, ["knowledge", "read_only", i, "id"]);
  });
  return problems;
}

/**
 * Lists the roots of a validated `[knowledge]` table in a fixed order: primary, named roots
 * in file order, read-only roots in file order. Paths stay as written (`main/` resolves
 * them through `resolvePath`).
 *
 * @param config - the table (its ids already checked by {@link knowledgeProblems}).
 * @param resolvePath - turns a written path into the one to use. Default: identity.
 */
export function listRoots(
  config: KnowledgeConfig,
  resolvePath: (path: string) => string = (path) => path,
): KnowledgeRoot[] {
  const roots: KnowledgeRoot[] = [];
  if (config.primary !== undefined) {
    roots.push({
      id: PRIMARY_ROOT_ID,
      kind: "primary",
      path: resolvePath(config.primary),
      writable: true,
    });
  }
  for (const [id, path] of Object.entries(config.roots ?? {})) {
    roots.push({ id, kind: "named", path: resolvePath(path), writable: false });
  }
  for (const root of config.read_only ?? []) {
    roots.push({ id: root.id, kind: "read_only", path: resolvePath(root.path), writable: false });
  }
  return roots;
}

/**
 * Tells whether a path is written Windows-style with a drive letter (`D:/x`, `D:\x`).
 *
 * @param path - a path as written.
 */
export function isWindowsDrivePath(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path);
}
