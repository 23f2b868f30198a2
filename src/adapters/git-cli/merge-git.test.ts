import { describe, expect, it } from "vitest";
import { makeRepo } from "../../../test/helpers/make-repo.js";
import { bareMergeGit, parseMergeTree, parseNumstat } from "./merge-git.js";
import { runGit } from "./run-git.js";

describe("bareMergeGit over a real repository", () => {
  it("moves a branch only from the expected commit (compare-and-swap)", async () => {
    const repo = await makeRepo({ "a.txt": "a\n" });
    try {
      const first = repo.initial as string;
      const second = await repo.commit({ "a.txt": "b\n" });
      const git = bareMergeGit(repo.dir);
      await repo.git(["branch", "side", first]);
      // Expected `second` but side is at `first`: raced, nothing changes.
      expect(await git.moveBranch("side", second, second)).toBe(false);
      expect(await git.branchHead("side")).toBe(first);
      expect(await git.moveBranch("side", second, first)).toBe(true);
      expect(await git.branchHead("side")).toBe(second);
      expect(await git.branchHead("no-such")).toBeUndefined();
    } finally {
      await repo.cleanup();
    }
  });

  it("merge-tree gives a tree for a clean merge and the conflicting paths otherwise", async () => {
    const repo = await makeRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    try {
      const base = repo.initial as string;
      const ours = await repo.commit({ "a.txt": "ours\n" });
      await repo.git(["checkout", "-q", "-b", "side", base]);
      const clean = await repo.commit({ "b.txt": "side\n" });
      const clash = await repo.commit({ "a.txt": "theirs\n" });
      const git = bareMergeGit(repo.dir);
      const merged = await git.mergeTree(ours, clean);
      expect(merged).toHaveProperty("tree");
      const commit = await git.commitTree({
        tree: (merged as { tree: string }).tree,
        parents: [ours, clean],
        message: "Merge\n",
        author: { name: "vera", email: "vera@lore.invalid" },
        at: Date.UTC(2026, 0, 2),
      });
      const shown = (
        await runGit({ cwd: repo.dir, args: ["cat-file", "commit"], values: [commit] })
      ).stdout.toString("utf8");
      expect(shown).toContain(`parent ${ours}\nparent ${clean}\n`);
      expect(shown).toContain("author vera <vera@lore.invalid> 1767312000 +0000");
      expect(await git.mergeTree(ours, clash)).toEqual({ conflicts: ["a.txt"] });
      expect(await git.diffStat(ours, clean)).toEqual({ files: 1, insertions: 1, deletions: 1 });
    } finally {
      await repo.cleanup();
    }
  });

  it("branches with no common history are unrelated, not a failure", async () => {
    const repo = await makeRepo({ "a.txt": "a\n" });
    try {
      await repo.git(["checkout", "-q", "--orphan", "other"]);
      const other = await repo.commit({ "b.txt": "b\n" });
      const git = bareMergeGit(repo.dir);
      expect(await git.mergeTree(repo.initial as string, other)).toEqual({ unrelated: true });
    } finally {
      await repo.cleanup();
    }
  });
});

describe("parsing git's output", () => {
  it("sums numstat, a binary file counted with no lines", () => {
    expect(parseNumstat("3\t1\ta.txt\0-\t-\tlogo.png\0" + "10\t0\tb/c.md\0")).toEqual({
      files: 3,
      insertions: 13,
      deletions: 1,
    });
    expect(parseNumstat("")).toEqual({ files: 0, insertions: 0, deletions: 0 });
  });

  it("reads each conflicting path once", () => {
    expect(parseMergeTree("abc\0f\0f\0g\0\0", 1)).toEqual({ conflicts: ["f", "g"] });
    expect(parseMergeTree("abc\n", 0)).toEqual({ tree: "abc" });
  });
});
