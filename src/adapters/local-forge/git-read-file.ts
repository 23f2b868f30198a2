import { runGit } from "../git-cli/run-git.js";

/** A file read from a commit: its blob sha and bytes. */
export interface GitFileBlob {
  /** Blob sha (40 hex, or 64 for sha256 repositories). */
  sha: string;
  /** The file's bytes. */
  bytes: Buffer;
}

/**
 * Reads `<rev>:<path>` from a repository with one `git cat-file --batch` (the object name
 * goes on stdin, so it can never become an option).
 *
 * @param dir - the repository folder (bare, or the top of a work tree).
 * @param rev - a branch, tag or commit sha (no `:`, whitespace or line break).
 * @param path - file path in the repository, `/`-separated (no line break).
 * @param timeoutMs - time limit, ms. Default: runGit's 30 000.
 * @returns the blob, or `null` when the revision or the path does not exist, or the path
 *   names a folder.
 * @throws LoreError `git_failed` when git fails.
 */
export async function gitReadFile(
  dir: string,
  rev: string,
  path: string,
  timeoutMs?: number,
): Promise<GitFileBlob | null> {
  const out = await runGit({
    cwd: dir,
    args: ["cat-file", "--batch"],
    input: `${rev}:${path}\n`,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  const stdout = out.stdout;
  const eol = stdout.indexOf(10);
  const header = stdout.subarray(0, eol < 0 ? stdout.length : eol).toString("utf8");
  const match = /^([0-9a-f]{40}|[0-9a-f]{64}) (\w+) (\d+)$/.exec(header);
  if (match === null || match[2] !== "blob") return null;
  const size = Number(match[3]);
  return { sha: match[1] as string, bytes: Buffer.from(stdout.subarray(eol + 1, eol + 1 + size)) };
}
