import { LoreError } from "../errors/lore-error.js";
import { slugProblem } from "./wiki-slug.js";

/**
 * Refuses a file path inside a repository that could escape it or break git's line
 * protocols: `..`, absolute, backslash, drive letter, control characters, empty segments
 * (DESIGN.md "Non-negotiables"). Used by both forge adapters.
 *
 * @param path - `/`-separated path relative to the repository root.
 * @throws LoreError `invalid_input`.
 */
export function checkRepoPath(path: string): void {
  const problem = slugProblem(path);
  if (problem !== null)
    throw new LoreError("invalid_input", { reason: `path “${path}”: ${problem.en}` });
}

/**
 * Refuses a ref (branch, tag, sha) that git could read as an option or that would break
 * `<ref>:<path>`: empty, leading `-`, `:`, whitespace or control characters. Non-ASCII
 * names such as `kb/ёлка-update` pass.
 *
 * @param ref - the ref as given.
 * @throws LoreError `invalid_input`.
 */
export function checkRef(ref: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused
  if (ref.length === 0 || ref.startsWith("-") || /[:\s\u0000-\u001f\u007f]/.test(ref))
    throw new LoreError("invalid_input", {
      reason: `ref “${ref}” is not a branch, tag or commit name`,
    });
}
