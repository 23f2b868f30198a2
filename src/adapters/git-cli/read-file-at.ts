import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { runGit } from "./run-git.js";

/** Most bytes of one file read by {@link readFileAt} (a larger one is `invalid_input`). */
export const MAX_RAW_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Reads one file's bytes at a revision of a (bare) repository: `git rev-parse` of
 * `<ref>^{commit}`, `git ls-tree -z` of the path at that commit (a literal path, after
 * `--`), then `git cat-file blob <sha>` — no shell, an isolated environment, a time limit,
 * the ref a checked value (never an option), and the object looked up by id.
 *
 * @param dir - the repository's folder.
 * @param ref - a branch, tag or commit (must not start with `-`).
 * @param path - the file's path from the repository's top, `/`-separated, no dot segments
 *   (checked by the caller).
 * @returns the bytes, or `undefined` when the ref or the path does not exist, or the path is
 *   not a file (a folder, a submodule).
 * @throws LoreError `invalid_input` for a ref starting with `-` or holding NUL/LF, or a file
 *   over {@link MAX_RAW_FILE_BYTES}; `git_failed` when git fails otherwise.
 */
export async function readFileAt(
  dir: string,
  ref: string,
  path: string,
): Promise<Uint8Array | undefined> {
  let commit: string;
  try {
    const out = await runGit({
      cwd: dir,
      args: ["rev-parse", "--verify", "--quiet", "--end-of-options"],
      values: [`${ref}^{commit}`],
    });
    commit = out.stdout.toString("latin1").trim();
  } catch (error) {
    if (isLoreError(error) && error.code === "git_failed") return undefined;
    throw error;
  }
  const tree = await runGit({
    cwd: dir,
    args: ["-c", "core.quotePath=false", "ls-tree", "-z", "--long", "--full-tree"],
    values: [commit],
    paths: [path],
  });
  // `<mode> <type> <sha> <size>\t<path>\0`: exactly the path asked (a literal pathspec).
  const line = tree.stdout.toString("utf8").split("\0")[0] ?? "";
  const match = /^(\d+) (\w+) ([0-9a-f]+) +(\S+)\t(.*)$/s.exec(line);
  if (match === null || match[2] !== "blob" || match[5] !== path) return undefined;
  const size = Number(match[4]);
  if (size > MAX_RAW_FILE_BYTES) {
    throw new LoreError("invalid_input", {
      reason: `${path} is ${size} bytes, over the ${MAX_RAW_FILE_BYTES}-byte limit of one raw read`,
      reason_ru: `${path} — ${size} байт, больше предела одного чтения ${MAX_RAW_FILE_BYTES} байт`,
    });
  }
  const blob = await runGit({ cwd: dir, args: ["cat-file", "blob"], values: [match[3] as string] });
  return new Uint8Array(blob.stdout);
}
