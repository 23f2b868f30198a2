/**
 * Creating the bare repository of a hosted repository (`lore repo create`).
 */
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { assertGitValue, runGit } from "./run-git.js";

/**
 * Runs `git init --bare --initial-branch=<branch> -- <dir>` (no shell, isolated
 * environment, the default time limit of `runGit`), creating the parent folder first.
 *
 * @param dir - the bare repository folder (`<data>/repos/<owner>/<name>.git`).
 * @param defaultBranch - the branch HEAD names (`main`).
 * @throws LoreError `invalid_input` for a branch starting with `-` or holding NUL/LF;
 *   `git_failed`.
 */
export async function initBareRepo(dir: string, defaultBranch: string): Promise<void> {
  assertGitValue(defaultBranch, "branch");
  await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
  await runGit({
    cwd: dirname(dir),
    args: ["init", "--quiet", "--bare", `--initial-branch=${defaultBranch}`],
    paths: [dir],
  });
}
