/**
 * The git plumbing both local delivery targets share (seed 004, "Как знание выходит
 * наружу"): reading a branch head and the blobs of some paths, and writing one commit
 * atomically — `git fast-import` onto a temporary ref `refs/lore/deliver/<ms>-<uuid>`, then
 * `git update-ref refs/heads/<branch> <new> <expected>` as the compare-and-swap, then the
 * temporary ref is deleted. A delivery killed at any moment leaves the branch either at the
 * whole new commit or where it was (at worst an unreferenced pack and a temporary ref).
 */
import { randomUUID } from "node:crypto";
import { LoreError } from "../../core/errors/lore-error.js";
import type { DeliveryCommit, DeliveryWrite, GitPerson } from "../../ports/delivery-target.js";
import { runGit } from "./run-git.js";

/** The all-zero object name: `update-ref`'s "must not exist yet". */
const ZERO_OID = "0".repeat(40);

/** Time limit of one fast-import (a 10 MB batch), ms. */
const FAST_IMPORT_TIMEOUT_MS = 120_000;

/** Largest number of paths given to one `ls-tree` (keeps the argument list short). */
const PATHS_PER_LS_TREE = 500;

/**
 * Checks that `branch` names a branch git accepts (`git check-ref-format refs/heads/<b>`).
 *
 * @param dir - the repository (bare folder or work tree top).
 * @throws LoreError `invalid_input` when it does not.
 */
export async function assertBranchName(dir: string, branch: string): Promise<void> {
  const out = await runGit({
    cwd: dir,
    args: ["check-ref-format"],
    values: [`refs/heads/${branch}`],
    okExitCodes: [1],
  });
  if (out.exitCode !== 0 || branch.startsWith("-")) {
    throw new LoreError("invalid_input", {
      reason: `“${branch}” is not a valid branch name`,
      reason_ru: `«${branch}» — недопустимое имя ветки`,
    });
  }
}

/**
 * The commit `refs/heads/<branch>` points at, or `undefined` when there is no such branch.
 *
 * @throws LoreError `invalid_input` (bad name), `git_failed`.
 */
export async function readBranchHead(dir: string, branch: string): Promise<string | undefined> {
  await assertBranchName(dir, branch);
  const out = await runGit({
    cwd: dir,
    args: ["rev-parse", "--verify", "--quiet"],
    values: [`refs/heads/${branch}^{commit}`],
    okExitCodes: [1],
  });
  const sha = out.stdout.toString("utf8").trim();
  return out.exitCode === 0 && sha !== "" ? sha : undefined;
}

/**
 * Which of `paths` exist in `commit`'s tree, with their blob sha (`git ls-tree -z`).
 *
 * @throws LoreError `git_failed` (e.g. an unknown commit).
 */
export async function readPathsAt(
  dir: string,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < paths.length; i += PATHS_PER_LS_TREE) {
    const chunk = paths.slice(i, i + PATHS_PER_LS_TREE);
    const out = await runGit({
      cwd: dir,
      args: ["ls-tree", "-z", "--full-tree"],
      values: [commit],
      paths: chunk,
    });
    for (const record of out.stdout.toString("utf8").split("\0")) {
      const tab = record.indexOf("\t");
      if (tab < 0) continue;
      const [, type, sha] = record.slice(0, tab).split(" ");
      if (type === "blob" && sha !== undefined) found.set(record.slice(tab + 1), sha);
    }
  }
  return found;
}

/** A name or e-mail fit for a fast-import ident line (no `<`, `>` or line break). */
function identPart(text: string): string {
  return text.replace(/[<>\n\r\0]/g, "").trim();
}

function identLine(kind: "author" | "committer", person: GitPerson, at: number): string {
  const seconds = Math.floor(at / 1000);
  return `${kind} ${identPart(person.name) || "unknown"} <${identPart(person.email)}> ${seconds} +0000\n`;
}

function assertDeliveryPath(path: string): void {
  if (
    path === "" ||
    /[\n\r\0"]/.test(path) ||
    path.startsWith("/") ||
    path.split("/").includes("..")
  ) {
    throw new LoreError("invalid_input", {
      reason: `“${path}” is not a path a delivery writes`,
      reason_ru: `«${path}» — не путь, который пишет доставка`,
    });
  }
}

/** The fast-import stream of one commit onto `ref` (files inline, `from` the parent). */
export function fastImportStream(
  ref: string,
  commit: DeliveryCommit,
  parent: string | undefined,
): Buffer {
  const parts: Buffer[] = [];
  const text = (s: string) => parts.push(Buffer.from(s, "utf8"));
  const message = Buffer.from(commit.message, "utf8");
  text(`commit ${ref}\n`);
  text(identLine("author", commit.author, commit.at));
  text(identLine("committer", commit.committer, commit.at));
  text(`data ${message.byteLength}\n`);
  parts.push(message);
  text("\n");
  if (parent !== undefined) text(`from ${parent}\n`);
  for (const file of commit.files) {
    assertDeliveryPath(file.path);
    const content = Buffer.from(file.content, "utf8");
    text(`M 100644 inline ${file.path}\ndata ${content.byteLength}\n`);
    parts.push(content);
    text("\n");
  }
  text("\ndone\n");
  return Buffer.concat(parts);
}

/** A temporary ref older than this (by the time in its name) was left by a killed delivery, ms. */
const TEMP_REF_STALE_MS = 60 * 60 * 1000;

/**
 * Deletes the temporary refs killed deliveries left behind (older than an hour), so a
 * hosted repository does not advertise them for ever. Best effort: a failure is ignored.
 */
async function pruneTempRefs(dir: string, now: number): Promise<void> {
  try {
    const out = await runGit({
      cwd: dir,
      args: ["for-each-ref", "--format=%(refname) %(objectname)", "refs/lore/deliver/"],
    });
    for (const line of out.stdout.toString("utf8").split("\n")) {
      const [ref, oid] = line.split(" ");
      if (ref === undefined || oid === undefined) continue;
      // The name holds when it was made (`<ms>-<uuid>`); the commit's own date is the
      // caller's and says nothing of the ref's age.
      const made = Number(/^refs\/lore\/deliver\/(\d+)-/.exec(ref)?.[1] ?? 0);
      if (now - made < TEMP_REF_STALE_MS) continue;
      await runGit({
        cwd: dir,
        args: ["update-ref", "-d"],
        values: [ref, oid],
        okExitCodes: [1, 128],
      });
    }
  } catch {
    // Leftover refs are harmless; the delivery goes on.
  }
}

/**
 * Writes one commit and moves the branch to it by compare-and-swap (see the file's
 * comment). The parent is `expectedHead`, or `from` when the branch is created.
 *
 * @param dir - the repository (bare folder or work tree top).
 * @param commit - what to write.
 * @returns `{commit}`, or `{raced: true}` when the branch no longer pointed at
 *   `expectedHead` (or existed when it was to be created): the branch is then untouched.
 * @throws LoreError `invalid_input` (bad branch name or path), `git_failed`.
 */
export async function writeDeliveryCommit(
  dir: string,
  commit: DeliveryCommit,
): Promise<DeliveryWrite> {
  await assertBranchName(dir, commit.branch);
  await pruneTempRefs(dir, Date.now());
  const parent = commit.expectedHead ?? commit.from;
  const temp = `refs/lore/deliver/${Date.now()}-${randomUUID()}`;
  try {
    await runGit({
      cwd: dir,
      args: ["fast-import", "--quiet", "--done"],
      input: fastImportStream(temp, commit, parent),
      timeoutMs: FAST_IMPORT_TIMEOUT_MS,
    });
    const made = (
      await runGit({ cwd: dir, args: ["rev-parse", "--verify"], values: [`${temp}^{commit}`] })
    ).stdout
      .toString("utf8")
      .trim();
    const moved = await runGit({
      cwd: dir,
      args: ["update-ref", "-m", "lore: deliver drafts"],
      values: [`refs/heads/${commit.branch}`, made, commit.expectedHead ?? ZERO_OID],
      okExitCodes: [1, 128],
    });
    if (moved.exitCode !== 0) {
      // A failed update-ref is a race when the branch is no longer where we expected it.
      const now = await readBranchHead(dir, commit.branch);
      if (now !== commit.expectedHead) return { raced: true };
      throw new LoreError(
        "git_failed",
        { reason: `git update-ref: ${moved.stderr.trim()}` },
        { data: { stderr: moved.stderr } },
      );
    }
    return { commit: made };
  } finally {
    await runGit({
      cwd: dir,
      args: ["update-ref", "-d"],
      values: [temp],
      okExitCodes: [1, 128],
    }).catch(() => undefined);
  }
}

/** The branch HEAD names (`git symbolic-ref --short HEAD`), or `undefined` when detached. */
export async function headBranch(dir: string): Promise<string | undefined> {
  const out = await runGit({
    cwd: dir,
    args: ["symbolic-ref", "--quiet", "HEAD"],
    okExitCodes: [1, 128],
  });
  const ref = out.stdout.toString("utf8").trim();
  return out.exitCode === 0 && ref.startsWith("refs/heads/")
    ? ref.slice("refs/heads/".length)
    : undefined;
}
