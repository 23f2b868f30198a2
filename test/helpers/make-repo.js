import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runGit } from "../../src/adapters/git-cli/run-git.js";

const FIXED_DATE = "2024-01-01T00:00:00Z";
async function writeFiles(dir, files) {
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
export async function makeRepo(files, options = {}) {
  const dir = await mkdtemp(join(tmpdir(), "lore-repo-"));
  const env = {
    GIT_AUTHOR_DATE: FIXED_DATE,
    GIT_COMMITTER_DATE: FIXED_DATE,
  };
  const git = async (args, paths = []) =>
    (await runGit({ cwd: dir, args, paths, env })).stdout.toString("utf8");
  await git(["init", "-q", "-b", options.branch ?? "main"]);
  await git(["config", "user.name", "Lore Test"]);
  await git(["config", "user.email", "lore-test@example.invalid"]);
  await git(["config", "commit.gpgsign", "false"]);
  const commitAll = async (message) => {
    await git(["add", "-A"]);
    await git(["commit", "-q", "--allow-empty", "--no-verify", "-m", message]);
    return (await git(["rev-parse", "HEAD"])).trim();
  };
  let initial;
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
export async function makeBareClone(source) {
  const parent = await mkdtemp(join(tmpdir(), "lore-bare-"));
  const dir = join(parent, "repo.git");
  await runGit({ cwd: parent, args: ["clone", "-q", "--bare"], paths: [source, dir] });
  return { dir, cleanup: () => rm(parent, { recursive: true, force: true }) };
}
//# sourceMappingURL=make-repo.js.map
