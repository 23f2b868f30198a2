import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type KnowledgeChange, parseDiffTreeRaw } from "../../core/push/knowledge-changes.js";
import type { PushRepo } from "../../ports/push-repo.js";
import { keepDiffMemo, takeDiffMemo } from "./diff-memo.js";
import { GitCliRepo, type GitCliRepoOptions } from "./git-cli-repo.js";
import { readObjectsSync } from "./read-blobs-sync.js";

/** Options of {@link PushGitRepo}. */
export interface PushGitRepoOptions extends GitCliRepoOptions {
  /**
   * The knowledge diffs of a push, kept by `pre-receive` for the heal that follows
   * (`diff-memo.ts`): `keep` writes each diff it asks git for, `take` reads a kept one
   * before asking git. Default: neither.
   */
  diffMemo?: "keep" | "take";
  /**
   * True for a process that does nothing else while it reads (a git push hook): blobs are
   * read {@link BLOBS_AT_ONCE} at a time by one synchronous `git cat-file --batch` each
   * (`readObjectsSync`), which blocks the event loop but reads about twice as fast as the
   * long-lived pipelined reader on a busy machine. A server keeps the default. Default: false.
   */
  blobsAtOnce?: boolean;
}

/** Blobs read by one synchronous `git cat-file --batch` (see `blobsAtOnce`). */
export const BLOBS_AT_ONCE = 1_000;

/** A branch ref whose loose file may be read directly (no `..`, no odd characters). */
const LOOSE_BRANCH =
  /^refs\/heads\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const OBJECT_NAME = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The {@link PushRepo} port over the git CLI, for a bare repository: parse on push and
 * self-healing (seed 004, "Разбор при отправке"). Every command runs with `runGit`'s
 * isolated environment plus `options.env` — in a `pre-receive` hook, the quarantine
 * variables (`hookReadEnvironment`), so the pushed objects are visible; elsewhere none.
 */
export class PushGitRepo extends GitCliRepo implements PushRepo {
  readonly #diffMemo: "keep" | "take" | undefined;
  readonly #blobsAtOnce: boolean;

  /**
   * @param dir - the bare repository.
   * @param options - see {@link PushGitRepoOptions} (`env` for the hook's quarantine).
   */
  constructor(dir: string, options: PushGitRepoOptions = {}) {
    super(resolve(dir), true, options);
    this.#diffMemo = options.diffMemo;
    this.#blobsAtOnce = options.blobsAtOnce === true;
  }

  /**
   * See `GitCliRepo.readBlobs`; with `blobsAtOnce`, read {@link BLOBS_AT_ONCE} at a time
   * synchronously (same objects, order and errors).
   */
  override async *readBlobs(
    shas: readonly string[],
  ): AsyncIterable<{ sha: string; bytes: Uint8Array }> {
    if (!this.#blobsAtOnce) {
      yield* super.readBlobs(shas);
      return;
    }
    const { home, timeoutMs, env } = this.options;
    for (let start = 0; start < shas.length; start += BLOBS_AT_ONCE) {
      const objects = readObjectsSync(this.dir, shas.slice(start, start + BLOBS_AT_ONCE), {
        ...(home === undefined ? {} : { home }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(env === undefined ? {} : { env }),
      });
      for (const object of objects) yield { sha: object.sha, bytes: object.bytes };
    }
  }

  async changedKnowledge(
    from: string | null,
    to: string,
    prefix: string,
  ): Promise<KnowledgeChange[]> {
    const folder = prefix.endsWith("/") ? prefix : `${prefix}/`;
    if (from === null) {
      // Against the empty tree every file is added: one listing, no diff needed.
      const blobs = await this.listKnowledgeBlobs(to, folder);
      return blobs.map((blob) => ({
        kind: "added" as const,
        path: blob.path,
        sha: blob.sha,
        ...(blob.refused === undefined ? {} : { refused: blob.refused }),
      }));
    }
    if (this.#diffMemo === "take") {
      const kept = await takeDiffMemo(this.dir, from, to, folder);
      if (kept !== undefined) return parseDiffTreeRaw(kept.toString("latin1"), folder);
    }
    const { stdout } = await this.git(
      ["-c", "core.quotePath=false", "diff-tree", "-r", "-z", "-M", "--no-commit-id", "--raw"],
      [from, to],
      [folder],
    );
    if (this.#diffMemo === "keep") await keepDiffMemo(this.dir, from, to, folder, stdout);
    return parseDiffTreeRaw(stdout.toString("latin1"), folder);
  }

  async refCommit(ref: string): Promise<string | undefined> {
    // A read checks the head on every call: a loose branch file is read without a git
    // process; anything else (packed, symbolic, reftable) asks git.
    if (LOOSE_BRANCH.test(ref)) {
      const text = await readFile(join(this.dir, ...ref.split("/")), "latin1").catch(() => "");
      const sha = text.trim();
      if (OBJECT_NAME.test(sha)) return sha;
    }
    const out = await this.git(
      ["rev-parse", "--verify", "--quiet", "--end-of-options"],
      [`${ref}^{commit}`],
      [],
      [1, 128],
    );
    const sha = out.stdout.toString("latin1").trim();
    return out.exitCode === 0 && sha.length > 0 ? sha : undefined;
  }

  async hasCommit(sha: string): Promise<boolean> {
    const out = await this.git(["cat-file", "-e"], [`${sha}^{commit}`], [], [1, 128]);
    return out.exitCode === 0;
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    const out = await this.git(["merge-base", "--is-ancestor"], [ancestor, descendant], [], [1]);
    return out.exitCode === 0;
  }

  async headBranch(): Promise<string | undefined> {
    // A hook asks on every push: a plain `HEAD` file naming a branch is read without a git
    // process; anything else (a detached head, reftable's placeholder, a symlink) asks git.
    const text = await readFile(join(this.dir, "HEAD"), "utf8").catch(() => "");
    const named = /^ref: (refs\/heads\/\S+)\n?$/.exec(text)?.[1];
    if (named !== undefined && LOOSE_BRANCH.test(named)) {
      return named.slice("refs/heads/".length);
    }
    const out = await this.git(["symbolic-ref", "--quiet", "HEAD"], [], [], [1, 128]);
    const ref = out.stdout.toString("utf8").trim();
    return out.exitCode === 0 && ref.startsWith("refs/heads/")
      ? ref.slice("refs/heads/".length)
      : undefined;
  }

  async blobSizes(shas: readonly string[]): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    if (shas.length === 0) return sizes;
    const { stdout } = await this.git(
      ["cat-file", "--batch-check"],
      [],
      [],
      [],
      `${shas.join("\n")}\n`,
    );
    for (const line of stdout.toString("latin1").split("\n")) {
      const [sha, type, size] = line.split(" ");
      if (sha !== undefined && type === "blob" && size !== undefined) sizes.set(sha, Number(size));
    }
    return sizes;
  }
}
