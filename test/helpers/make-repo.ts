import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runGit } from "../../src/adapters/git-cli/run-git.js";

/** File contents by path relative to the repository root (`/`-separated). */
export type RepoFiles = Record<string, string | Uint8Array>;

/** Options of {@link makeRepo}. */
export interface MakeRepoOptions {
  /** Message of the first commit. Default: `initial`. */
  message?: string;
  /** Default branch name. Default: `main`. */
  branch?: string;
}

/** A real git repository in a temp folder, with helpers that commit to it. */
export interface TestRepo {
  /** The work tree folder. */
  dir: string;
  /** The sha of the first commit (undefined when `files` was empty: no commit yet). */
  initial: string | undefined;
  /** Writes (creates or overwrites) files and commits them; returns the new commit sha. */
  commit(files: RepoFiles, message?: string): Promise<string>;
  /** Deletes files and commits; returns the new commit sha. */
  remove(paths: readonly string[], message?: string): Promise<string>;
  /** Renames one file (`git mv`) and commits; returns the new commit sha. */
  rename(from: string, to: string, message?: string): Promise<string>;
  /** Runs a git command in the repository; returns stdout as text. */
  git(args: readonly string[], paths?: readonly string[]): Promise<string>;
  /** Removes the folder. */
  cleanup(): Promise<void>;
}

const FIXED_DATE = "2024-01-01T00:00:00Z";

async function writeFiles(dir: string, files: RepoFiles): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const file = join(dir, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/**
 * Makes a real git repository in a temp folder (`git init -b main`, local user name and
 * e-mail, fixed dates) holding `files` in a first commit.
 *
 * @param files - contents by path; empty = a repository with no commit.
 * @param options - see {@link MakeRepoOptions}.
 */
export async function makeRepo(files: RepoFiles, options: MakeRepoOptions = {}): Promise<TestRepo> {
  const dir = await mkdtemp(join(tmpdir(), "lore-repo-"));
  const env = {
    GIT_AUTHOR_DATE: FIXED_DATE,
    GIT_COMMITTER_DATE: FIXED_DATE,
  };
  const git = async (args: readonly string[], paths: readonly string[] = []) =>
    (await runGit({ cwd: dir, args, paths, env })).stdout.toString("utf8");
  await git(["init", "-q", "-b", options.branch ?? "main"]);
  await git(["config", "user.name", "Lore Test"]);
  await git(["config", "user.email", "lore-test@example.invalid"]);
  await git(["config", "commit.gpgsign", "false"]);
  const commitAll = async (message: string) => {
    await git(["add", "-A"]);
    await git(["commit", "-q", "--allow-empty", "--no-verify", "-m", message]);
    return (await git(["rev-parse", "HEAD"])).trim();
  };
  let initial: string | undefined;
  if (Object.keys(files).length > 0) {
    await writeFiles(dir, files);
    initial = await commitAll(options.message ?? "initial");
  }
  return {
    dir,
    initial,
    async commit(more, message = "update") {
      await writeFiles(dir, more);
      return commitAll(message);
    },
    async remove(paths, message = "remove") {
      await git(["rm", "-q"], paths);
      return commitAll(message);
    },
    async rename(from, to, message = "rename") {
      await mkdir(dirname(join(dir, to)), { recursive: true });
      await git(["mv"], [from, to]);
      return commitAll(message);
    },
    git,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Makes a bare clone of a repository in a temp folder (as a server holds it).
 *
 * @param source - the repository folder to clone.
 * @returns the bare folder and its cleanup.
 */
export async function makeBareClone(
  source: string,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const parent = await mkdtemp(join(tmpdir(), "lore-bare-"));
  const dir = join(parent, "repo.git");
  await runGit({ cwd: parent, args: ["clone", "-q", "--bare"], paths: [source, dir] });
  return { dir, cleanup: () => rm(parent, { recursive: true, force: true }) };
}
