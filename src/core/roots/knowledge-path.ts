/**
 * Path safety for `file_path` (seed 003; knowledge roots, “Resolution and access”; DESIGN.md
 * "Non-negotiables": no path escapes its root). Pure: the symlink check is done by the
 * caller with `realpath` (`services/roots/knowledge-files.ts`).
 */
import { LoreError } from "../errors/lore-error.js";

/** Why a `file_path` was refused (the `reason` of a `path_outside_root` error). */
export type UnsafePathReason =
  | "empty"
  | "nul_byte"
  | "absolute"
  | "drive_letter"
  | "parent_segment"
  | "symlink_escape";

/** The outcome of {@link checkKnowledgePath}: a clean path, or why it is refused. */
export type KnowledgePathResult =
  | { ok: true; path: string }
  | { ok: false; reason: UnsafePathReason };

/**
 * Checks a path relative to a root's `knowledge/` folder and normalises it: `\` is read as
 * `/`, empty and `.` segments are dropped. Refused: an empty path, a NUL byte, an absolute
 * path (`/x`, `\x`, `//server/share`), a drive letter anywhere in the first segment
 * (`C:\x`, `C:x`), and any `..` segment (even one that would stay inside).
 *
 * @param filePath - the caller's `file_path`.
 * @returns `{ok: true, path}` with `/`-separated segments, or `{ok: false, reason}`.
 */
export function checkKnowledgePath(filePath: string): KnowledgePathResult {
  if (filePath.includes("\u0000")) return { ok: false, reason: "nul_byte" };
  const slashed = filePath.replaceAll("\\", "/");
  if (slashed.trim() === "") return { ok: false, reason: "empty" };
  if (slashed.startsWith("/")) return { ok: false, reason: "absolute" };
  if (/^[A-Za-z]:/.test(slashed)) return { ok: false, reason: "drive_letter" };
  const parts = slashed.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.some((part) => part === "..")) return { ok: false, reason: "parent_segment" };
  if (parts.length === 0) return { ok: false, reason: "empty" };
  return { ok: true, path: parts.join("/") };
}

/**
 * Like {@link checkKnowledgePath}, for callers that refuse at once.
 *
 * @param filePath - the caller's `file_path`.
 * @param root - the root's id, for the message.
 * @returns the clean `/`-separated path.
 * @throws LoreError `path_outside_root` (data: `{file_path, root, reason}`).
 */
export function requireKnowledgePath(filePath: string, root: string): string {
  const result = checkKnowledgePath(filePath);
  if (result.ok) return result.path;
  throw pathOutsideRoot(filePath, root, result.reason);
}

/**
 * The `path_outside_root` error for a path and a reason.
 *
 * @param filePath - the path as the caller gave it (NUL bytes shown as `\0`).
 * @param root - the root's id.
 * @param reason - why.
 */
export function pathOutsideRoot(filePath: string, root: string, reason: UnsafePathReason) {
  const shown = filePath.replaceAll("\u0000", "\\0");
  return new LoreError(
    "path_outside_root",
    { path: shown, root, reason },
    { data: { file_path: shown, root, reason } },
  );
}
