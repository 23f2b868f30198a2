/**
 * The delivery target of the user's working repository (local mode; seed 004, "Как знание
 * выходит наружу"): the commit is written with git plumbing (see `delivery-plumbing.ts`),
 * never through the user's index or work tree, so their uncommitted work is never touched.
 * When the branch written is the checked-out one, after the branch moves exactly the new
 * paths are added to the user's index (with the committed blobs) and written to the work
 * tree, so `git status` shows neither a deletion of them nor anything else changed.
 */
import { createHash } from "node:crypto";
import { lstat, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import type { DeliveryCommit, DeliveryTarget, DeliveryWrite } from "../../ports/delivery-target.js";
import {
  headBranch,
  readBranchHead,
  readPathsAt,
  writeDeliveryCommit,
} from "./delivery-plumbing.js";
import { runGit } from "./run-git.js";

/**
 * The working repository's default branch: the one `origin/HEAD` names, else `main`, else
 * `master` when it exists, else the checked-out branch (`main` when detached).
 */
async function workDefaultBranch(workTop: string): Promise<string> {
  const origin = await runGit({
    cwd: workTop,
    args: ["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"],
    okExitCodes: [1, 128],
  });
  const ref = origin.stdout.toString("utf8").trim();
  if (origin.exitCode === 0 && ref.startsWith("refs/remotes/origin/")) {
    return ref.slice("refs/remotes/origin/".length);
  }
  for (const name of ["main", "master"]) {
    if ((await readBranchHead(workTop, name)) !== undefined) return name;
  }
  return (await headBranch(workTop)) ?? "main";
}

/** The paths of `paths` the user's index or work tree holds already. */
async function takenPaths(workTop: string, paths: readonly string[]): Promise<string[]> {
  const taken = new Set<string>();
  if (paths.length > 0) {
    const out = await runGit({ cwd: workTop, args: ["ls-files", "-z", "--cached"], paths });
    for (const path of out.stdout.toString("utf8").split("\0")) if (path !== "") taken.add(path);
  }
  for (const path of paths) {
    if ((await lstat(join(workTop, path)).catch(() => undefined)) !== undefined) taken.add(path);
  }
  return [...taken].sort();
}

/** Git's blob name of a text (sha1 of `blob <size>\0<bytes>`). */
function blobName(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

async function writeCheckedOut(workTop: string, commit: DeliveryCommit): Promise<DeliveryWrite> {
  const paths = commit.files.map((file) => file.path);
  const taken = await takenPaths(workTop, paths);
  if (taken.length > 0) {
    throw new LoreError("file_exists", { path: taken[0] ?? "" }, { data: { paths: taken } });
  }
  // Files a killed delivery committed already but never added to the index (see pathsAt):
  // when every file sits at the head as is, only the index and work tree are brought up.
  const atHead =
    commit.expectedHead === undefined
      ? new Map<string, string>()
      : await readPathsAt(workTop, commit.expectedHead, paths);
  const committed = commit.files.every((file) => atHead.get(file.path) === blobName(file.content));
  const write: DeliveryWrite =
    committed && commit.expectedHead !== undefined
      ? { commit: commit.expectedHead }
      : await writeDeliveryCommit(workTop, commit);
  if (!("commit" in write)) return write;
  const blobs = await readPathsAt(workTop, write.commit, paths);
  const lines = paths.map((path) => `100644 ${blobs.get(path) ?? ""}\t${path}\n`).join("");
  await runGit({ cwd: workTop, args: ["update-index", "--add", "--index-info"], input: lines });
  for (const file of commit.files) {
    const target = join(workTop, file.path);
    await mkdir(dirname(target), { recursive: true });
    // "wx": never overwrite a file the user made meanwhile.
    await writeFile(target, file.content, { flag: "wx" }).catch(() => undefined);
  }
  return write;
}

/**
 * The paths of a commit, as the delivery's recovery reads them: at the checked-out
 * branch's head, a delivered file that is in neither the index nor the work tree counts as
 * absent (a delivery was killed after the branch moved, before the index was updated), so
 * the delivery writes it again — which brings only the index and work tree up to date.
 */
async function workPathsAt(
  workTop: string,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const found = await readPathsAt(workTop, commit, paths);
  const branch = await headBranch(workTop);
  if (found.size === 0 || branch === undefined) return found;
  if ((await readBranchHead(workTop, branch)) !== commit) return found;
  const taken = new Set(await takenPaths(workTop, [...found.keys()]));
  for (const path of [...found.keys()]) if (!taken.has(path)) found.delete(path);
  return found;
}

/**
 * A {@link DeliveryTarget} over the user's working repository.
 *
 * @param workTop - the work tree's top folder.
 * @returns the target. `writeCommit` into the checked-out branch whose files all sit at
 *   the head already (a killed delivery's) writes no commit and answers the head. It throws LoreError
 *   `file_exists` (data.paths) before writing anything when a delivered path is in the
 *   index or the work tree already; every method throws `invalid_input` (a bad branch name)
 *   and `git_failed`.
 */
export function worktreeDeliveryTarget(workTop: string): DeliveryTarget {
  return {
    defaultBranch: () => workDefaultBranch(workTop),
    branchHead: (branch) => readBranchHead(workTop, branch),
    pathsAt: (commit, paths) => workPathsAt(workTop, commit, paths),
    async writeCommit(commit) {
      if ((await headBranch(workTop)) === commit.branch) return writeCheckedOut(workTop, commit);
      return writeDeliveryCommit(workTop, commit);
    },
  };
}
