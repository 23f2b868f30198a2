/**
 * The git plumbing of merge requests over the git CLI (seed 004, "Как знание выходит
 * наружу"): a merge made without a work tree — `git merge-tree --write-tree` (git ≥ 2.38)
 * for the tree or the conflicting paths, `git commit-tree` for the merge commit, `git
 * update-ref <ref> <new> <old>` for a compare-and-swap of the branch — and `git diff
 * --numstat -z` for the diff stat. Every child goes through `runGit`: no shell, user values
 * never options, an isolated environment, a time limit.
 */
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import type { GitPerson } from "../../ports/delivery-target.js";
import type { DiffStat, MergeGit, MergeTreeResult } from "../../ports/merge-git.js";
import { assertGitValue, firstLine, runGit } from "./run-git.js";

const OBJECT_NAME = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * The {@link MergeGit} of one bare repository.
 *
 * @param dir - the bare repository's folder (`<data>/repos/<owner>/<name>.git`).
 * @throws (from its methods) LoreError `invalid_input` for a branch or commit that starts
 *   with `-` or holds NUL/LF; `git_failed` when git fails.
 */
export function bareMergeGit(dir: string): MergeGit {
  const branchHead = async (branch: string): Promise<string | undefined> => {
    assertGitValue(branch, "branch");
    const out = await runGit({
      cwd: dir,
      args: ["rev-parse", "--verify", "--quiet", "--end-of-options"],
      values: [`refs/heads/${branch}^{commit}`],
      okExitCodes: [1, 128],
    });
    const sha = out.stdout.toString("latin1").trim();
    return out.exitCode === 0 && OBJECT_NAME.test(sha) ? sha : undefined;
  };
  return {
    branchHead,
    async diffStat(target, source) {
      const out = await runGit({
        cwd: dir,
        args: ["diff", "--numstat", "-z", "--no-renames", "--end-of-options"],
        values: [`${target}...${source}`],
      });
      return parseNumstat(out.stdout.toString("utf8"));
    },
    async mergeTree(ours, theirs) {
      const out = await runGit({
        cwd: dir,
        args: ["merge-tree", "--write-tree", "-z", "--name-only", "--no-messages"],
        values: [ours, theirs],
        okExitCodes: [1, 128],
      });
      if (out.exitCode === 128) {
        // Branches with no common history cannot be merged: a refusal, not a failure.
        if (out.stderr.includes("unrelated histories")) return { unrelated: true };
        throw new LoreError("git_failed", { reason: `git merge-tree: ${firstLine(out.stderr)}` });
      }
      return parseMergeTree(out.stdout.toString("utf8"), out.exitCode);
    },
    async commitTree(commit) {
      const date = `${Math.floor(commit.at / 1000)} +0000`;
      const out = await runGit({
        cwd: dir,
        args: ["commit-tree", ...commit.parents.flatMap((parent) => ["-p", parent])],
        values: [commit.tree],
        input: commit.message,
        env: personEnv(commit.author, date),
      });
      return out.stdout.toString("latin1").trim();
    },
    async moveBranch(branch, next, expected) {
      assertGitValue(branch, "branch");
      try {
        await runGit({
          cwd: dir,
          args: ["update-ref", "-m", "lore: merge request merged"],
          values: [`refs/heads/${branch}`, next, expected],
        });
        return true;
      } catch (error) {
        // git refuses when the ref is not at <old> any more: a race, not a failure.
        if (isLoreError(error) && error.code === "git_failed") {
          const now = await branchHead(branch);
          if (now !== expected) return false;
        }
        throw error;
      }
    },
  };
}

/** The author and committer of a merge commit: the merging user, at `date`. */
function personEnv(person: GitPerson, date: string): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: person.name,
    GIT_AUTHOR_EMAIL: person.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: person.name,
    GIT_COMMITTER_EMAIL: person.email,
    GIT_COMMITTER_DATE: date,
  };
}

/**
 * Sums `git diff --numstat -z` output: `<added>\t<deleted>\t<path>\0` per file, `-\t-` for a
 * binary file (counted as changed, no lines).
 *
 * @param text - the raw output.
 */
export function parseNumstat(text: string): DiffStat {
  const stat: DiffStat = { files: 0, insertions: 0, deletions: 0 };
  for (const record of text.split("\0")) {
    const match = /^(\d+|-)\t(\d+|-)\t/.exec(record);
    if (match === null) continue;
    stat.files += 1;
    if (match[1] !== "-") stat.insertions += Number(match[1]);
    if (match[2] !== "-") stat.deletions += Number(match[2]);
  }
  return stat;
}

/**
 * Reads `git merge-tree --write-tree -z --name-only --no-messages`: the tree id, then — on
 * exit 1 — the conflicting paths, each once, NUL-separated.
 *
 * @param text - the raw output.
 * @param exitCode - 0 (clean) or 1 (conflicts).
 */
export function parseMergeTree(text: string, exitCode: number): MergeTreeResult {
  const [tree = "", ...rest] = text.split("\0");
  if (exitCode === 0) return { tree: tree.trim() };
  const paths: string[] = [];
  for (const path of rest) {
    if (path === "") break;
    if (!paths.includes(path)) paths.push(path);
  }
  return { conflicts: paths };
}
