import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bareDeliveryTarget } from "../../src/adapters/git-cli/bare-delivery-target.js";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import type { LoreError } from "../../src/core/errors/lore-error.js";
import type { DeliveryCommit } from "../../src/ports/delivery-target.js";
import { makeBareClone, makeRepo } from "../helpers/make-repo.js";

let bare: string;
let cleanup: () => Promise<void>;
let initial: string;

const git = async (args: string[], values: string[] = []) =>
  (await runGit({ cwd: bare, args, values })).stdout.toString("utf8");

const commit = (over: Partial<DeliveryCommit>): DeliveryCommit => ({
  branch: "main",
  expectedHead: initial,
  files: [{ path: ".gitriver/knowledge/a.md", content: "A\n" }],
  message: "deliver",
  author: { name: "Ann <x>", email: "ann@example.com" },
  committer: { name: "Lore", email: "lore@lore.invalid" },
  at: Date.now(),
  ...over,
});

beforeEach(async () => {
  const work = await makeRepo({ "README.md": "hi\n" });
  initial = work.initial ?? "";
  const clone = await makeBareClone(work.dir);
  await work.cleanup();
  bare = clone.dir;
  cleanup = clone.cleanup;
});
afterEach(() => cleanup());

describe("bareDeliveryTarget", () => {
  it("reads the default branch, heads and paths; writes by compare-and-swap", async () => {
    const target = bareDeliveryTarget(bare);
    expect(await target.defaultBranch()).toBe("main");
    expect(await target.branchHead("main")).toBe(initial);
    expect(await target.branchHead("nope")).toBeUndefined();
    const write = await target.writeCommit(commit({}));
    if (!("commit" in write)) throw new Error("raced");
    expect(await target.branchHead("main")).toBe(write.commit);
    const paths = await target.pathsAt(write.commit, [
      ".gitriver/knowledge/a.md",
      "README.md",
      "x.md",
    ]);
    expect([...paths.keys()].sort()).toEqual([".gitriver/knowledge/a.md", "README.md"]);
    expect(await git(["log", "-1", "--format=%an|%ae"], [write.commit])).toBe(
      "Ann x|ann@example.com\n",
    );
    // the stale expected head: raced, nothing moved
    expect(await target.writeCommit(commit({}))).toEqual({ raced: true });
    expect(await target.branchHead("main")).toBe(write.commit);
    // creating a branch that exists: raced
    expect(await target.writeCommit(commit({ expectedHead: undefined, from: initial }))).toEqual({
      raced: true,
    });
    // creating a new one from a commit
    const made = await target.writeCommit(
      commit({ branch: "knowledge/x-1", expectedHead: undefined, from: initial }),
    );
    if (!("commit" in made)) throw new Error("raced");
    expect((await git(["rev-parse"], [`${made.commit}^`])).trim()).toBe(initial);
    // no temporary ref is left
    expect(await git(["for-each-ref", "--format=%(refname)"])).not.toContain("refs/lore/");
  });

  it("refuses a bad branch name and a path outside the repository", async () => {
    const target = bareDeliveryTarget(bare);
    const bad = await target.writeCommit(commit({ branch: "a..b" })).catch((e: unknown) => e);
    expect((bad as LoreError).code).toBe("invalid_input");
    const path = await target
      .writeCommit(commit({ files: [{ path: "../x.md", content: "x" }] }))
      .catch((e: unknown) => e);
    expect((path as LoreError).code).toBe("invalid_input");
    expect(await target.branchHead("main")).toBe(initial);
  });

  it("prunes temporary refs a killed delivery left more than an hour ago", async () => {
    const old = `refs/lore/deliver/${Date.now() - 2 * 3600_000}-a`;
    // a running delivery's ref: made now, though its commit is dated 2024
    const fresh = `refs/lore/deliver/${Date.now()}-b`;
    await git(["update-ref"], [old, initial]);
    await git(["update-ref"], [fresh, initial]);
    const target = bareDeliveryTarget(bare);
    const write = await target.writeCommit(commit({}));
    expect("commit" in write).toBe(true);
    const refs = await git(["for-each-ref", "--format=%(refname)"]);
    expect(refs).not.toContain(old);
    expect(refs).toContain(fresh);
  });
});
