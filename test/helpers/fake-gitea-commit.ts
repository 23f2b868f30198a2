import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runGit } from "../../src/adapters/git-cli/run-git.js";

/** One change of {@link commitFiles}: write `content` at `path`, or delete `path`. */
export type PlumbingChange = { path: string; content: string } | { path: string; delete: true };

/** A person and when, as git records them. */
export interface PlumbingSignature {
  name: string;
  email: string;
  /** ms since the epoch. */
  at: number;
}

/**
 * Writes one commit in a bare repository with git plumbing only (no work tree): the
 * parent's tree read into a temporary index, blobs written, entries added or removed,
 * `write-tree`, `commit-tree`, then `update-ref <ref> <new> <old>` — git's own
 * compare-and-swap, so a ref that moved meanwhile is not overwritten.
 *
 * @returns the new commit's sha.
 * @throws LoreError `git_failed` (the ref moved, or git itself failed).
 */
export async function commitFiles(options: {
  gitDir: string;
  /** `refs/heads/<branch>`. */
  ref: string;
  /** The parent commit; the ref must still point at it (or not exist when `create`). */
  parent: string;
  /** True when the ref does not exist yet. */
  create: boolean;
  changes: readonly PlumbingChange[];
  message: string;
  author: PlumbingSignature;
  committer: PlumbingSignature;
}): Promise<string> {
  const tmp = await mkdtemp(join(tmpdir(), "lore-fake-gitea-index-"));
  const env = {
    GIT_INDEX_FILE: join(tmp, "index"),
    GIT_AUTHOR_NAME: options.author.name,
    GIT_AUTHOR_EMAIL: options.author.email,
    GIT_AUTHOR_DATE: `@${Math.floor(options.author.at / 1000)} +0000`,
    GIT_COMMITTER_NAME: options.committer.name,
    GIT_COMMITTER_EMAIL: options.committer.email,
    GIT_COMMITTER_DATE: `@${Math.floor(options.committer.at / 1000)} +0000`,
  };
  const git = async (
    args: string[],
    more: { values?: string[]; paths?: string[]; input?: string } = {},
  ) => (await runGit({ cwd: options.gitDir, args, env, ...more })).stdout.toString("utf8").trim();
  try {
    await git(["read-tree"], { values: [options.parent] });
    for (const change of options.changes) {
      if ("delete" in change) {
        await git(["update-index", "--force-remove"], { paths: [change.path] });
        continue;
      }
      const blob = await git(["hash-object", "-w", "--stdin"], { input: change.content });
      await git(["update-index", "--add", "--cacheinfo"], {
        values: [`100644,${blob},${change.path}`],
      });
    }
    const tree = await git(["write-tree"]);
    // `-p` takes the next value: both shas go through the checked values.
    const made = await git(["commit-tree", "-F", "-", "-p"], {
      values: [options.parent, tree],
      input: options.message,
    });
    await git(["update-ref", "-m", "fake gitea ChangeFiles"], {
      values: [options.ref, made, options.create ? "0".repeat(40) : options.parent],
    });
    return made;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
