import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { LocalForge } from "../../src/adapters/local-forge/local-forge.js";
import { makeRepo, type RepoFiles } from "./make-repo.js";

/** One repository of a test forge: its files, or its files and default branch. */
export type ForgeRepoSpec = RepoFiles | { files: RepoFiles; branch: string };

/** A folder of real bare git repositories and the local forge over it. */
export interface TestForge {
  /** The forge's root folder (`[forge] root`). */
  root: string;
  /** The local forge over `root`. */
  forge: LocalForge;
  /** Adds a bare repository `<root>/<name>.git` (no files = no commit yet); returns its folder. */
  add(name: string, spec: ForgeRepoSpec): Promise<string>;
  /** The folder of repository `name` (`<root>/<name>.git`). */
  dir(name: string): string;
  /** Removes the root and every work folder made. */
  cleanup(): Promise<void>;
}

function isSpecWithBranch(spec: ForgeRepoSpec): spec is { files: RepoFiles; branch: string } {
  const files = (spec as { files?: unknown }).files;
  return (
    typeof (spec as { branch?: unknown }).branch === "string" &&
    typeof files === "object" &&
    files !== null &&
    !(files instanceof Uint8Array)
  );
}

/**
 * Makes a local forge of real repositories in a temp folder: each `name → files` becomes a
 * bare repository `<root>/<name>.git` (a first commit made with real git by
 * {@link makeRepo}, then `git clone --bare`); no files gives a repository with no commit;
 * `{ files, branch }` sets the default branch (default `main`).
 *
 * @param repos - repositories by name.
 */
export async function makeLocalForge(
  repos: Record<string, ForgeRepoSpec> = {},
): Promise<TestForge> {
  const root = await mkdtemp(join(tmpdir(), "lore-forge-"));
  const work: (() => Promise<void>)[] = [];
  const made: TestForge = {
    root,
    forge: new LocalForge({ root }),
    dir: (name) => join(root, `${name}.git`),
    async add(name, spec) {
      const { files, branch } = isSpecWithBranch(spec) ? spec : { files: spec, branch: "main" };
      const dir = join(root, `${name}.git`);
      if (Object.keys(files).length === 0) {
        await mkdir(dir);
        await runGit({ cwd: dir, args: ["init", "-q", "--bare", "-b", branch] });
        return dir;
      }
      const repo = await makeRepo(files, { branch });
      work.push(repo.cleanup);
      await runGit({ cwd: root, args: ["clone", "-q", "--bare"], paths: [repo.dir, dir] });
      return dir;
    },
    async cleanup() {
      for (const done of work.splice(0)) await done();
      await rm(root, { recursive: true, force: true });
    },
  };
  for (const [name, spec] of Object.entries(repos)) await made.add(name, spec);
  return made;
}
