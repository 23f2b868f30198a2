/**
 * Root resolution, the one rule every tool uses (seed 003 ADR 015 "Решение (MCP)"; knowledge
 * roots, resolution and access): `knowledge_root_id` (case-insensitive, `user`/`primary` = the
 * primary root) or `knowledge_path` (an absolute path to a root folder), never both;
 * neither = primary. Pure: path comparison is textual (the caller passes resolved paths).
 */

import { LoreError } from "../errors/lore-error.js";
import { type KnowledgeRoot, PRIMARY_ROOT_ID, sameRootId } from "./knowledge-roots.js";

/** The root arguments a tool takes. */
export interface RootArgs {
  knowledge_root_id?: string | undefined;
  knowledge_path?: string | undefined;
}

/** Options of {@link resolveRoot}. */
export interface ResolveRootOptions {
  /**
   * Whether a `knowledge_path` that is not a configured root may be read (as an ad-hoc
   * read-only root with id `path`). False over HTTP (`lore serve`): no arbitrary disk reads
   * for remote callers. Default: true.
   */
  allowUnconfiguredPath?: boolean;
}

/**
 * Normalises a path for comparison: `\` → `/`, no trailing `/`, a drive letter in lower
 * case (`D:/x` = `d:\x\`).
 *
 * @param path - an absolute path.
 */
export function comparablePath(path: string): string {
  let out = path.replaceAll("\\", "/");
  while (out.length > 1 && out.endsWith("/") && !/^[A-Za-z]:\/$/.test(out)) out = out.slice(0, -1);
  if (/^[A-Za-z]:/.test(out)) out = (out[0] as string).toLowerCase() + out.slice(1);
  return out;
}

/**
 * Tells whether a path is absolute, POSIX (`/x`) or Windows (`D:/x`, `D:\x`, `\\server\x`).
 *
 * @param path - any path.
 */
export function isAbsoluteAnyStyle(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/**
 * Picks the root a call is about.
 *
 * @param roots - the configured roots (`listRoots`), paths resolved.
 * @param args - `knowledge_root_id` and/or `knowledge_path`.
 * @param options - see {@link ResolveRootOptions}.
 * @returns the root: a configured one, or for an unconfigured `knowledge_path` (when
 *   allowed) `{id: "path", kind: "named", path, writable: false}`.
 * @throws LoreError `root_args_conflict` when both are given; `unknown_root` (data: `{id,
 *   known}`) for an id no root has; `no_primary_root` when neither is given (or `user`) and
 *   no primary is configured; `invalid_input` for a relative `knowledge_path`;
 *   `root_not_configured` for an unconfigured `knowledge_path` when not allowed.
 */
export function resolveRoot(
  roots: readonly KnowledgeRoot[],
  args: RootArgs,
  options: ResolveRootOptions = {},
): KnowledgeRoot {
  const id = blankToUndefined(args.knowledge_root_id);
  const path = blankToUndefined(args.knowledge_path);
  if (id !== undefined && path !== undefined) {
    throw new LoreError("root_args_conflict", {}, { data: { knowledge_root_id: id, path } });
  }
  if (path !== undefined) {
    if (!isAbsoluteAnyStyle(path)) {
      throw new LoreError("invalid_input", {
        reason: `knowledge_path must be an absolute path to a root folder, not “${path}”`,
        reason_ru: `knowledge_path должен быть абсолютным путём к папке корня, а не «${path}»`,
      });
    }
    const wanted = comparablePath(path);
    const configured = roots.find((root) => comparablePath(root.path) === wanted);
    if (configured !== undefined) return configured;
    if (options.allowUnconfiguredPath === false) {
      throw new LoreError("root_not_configured", { path }, { data: { path } });
    }
    return { id: "path", kind: "named", path, writable: false };
  }
  const wantedId = id ?? PRIMARY_ROOT_ID;
  const found = roots.find((root) => sameRootId(root.id, wantedId));
  if (found !== undefined) return found;
  if (sameRootId(wantedId, PRIMARY_ROOT_ID)) throw new LoreError("no_primary_root");
  throw new LoreError(
    "unknown_root",
    { id: wantedId, known: roots.map((root) => root.id).join(", ") || "—" },
    { data: { id: wantedId, known: roots.map((root) => root.id) } },
  );
}

/**
 * Refuses a write to any root but the primary one (seed 003: «Запись — только primary»).
 *
 * @param root - the resolved root.
 * @throws LoreError `read_only_root` (data: `{root, kind}`) naming the root.
 */
export function requireWritable(root: KnowledgeRoot): void {
  if (!root.writable) {
    throw new LoreError(
      "read_only_root",
      { root: root.id },
      { data: { root: root.id, kind: root.kind } },
    );
  }
}

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
