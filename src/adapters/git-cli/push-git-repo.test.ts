import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PushGitRepo } from "./push-git-repo.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-push-repo-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const git = (...args: string[]) => {
  const run = spawnSync("git", args, { cwd: dir, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim();
};

describe("PushGitRepo.headBranch", () => {
  it("names the branch HEAD points at, read from the file as git reads it", async () => {
    const bare = join(dir, "app.git");
    git("init", "-q", "--bare", "--initial-branch=trunk", bare);
    const repo = new PushGitRepo(bare);
    try {
      expect(await repo.headBranch()).toBe("trunk");
      git("--git-dir", bare, "symbolic-ref", "HEAD", "refs/heads/release/2.x");
      expect(await repo.headBranch()).toBe("release/2.x");
      // Not a branch name Lore reads by itself: git is asked, and answers the same.
      git("--git-dir", bare, "symbolic-ref", "HEAD", "refs/heads/ünï");
      expect(await repo.headBranch()).toBe("ünï");
      // A detached head names no branch.
      writeFileSync(join(bare, "HEAD"), `${"a".repeat(40)}\n`);
      expect(await repo.headBranch()).toBeUndefined();
    } finally {
      await repo.close();
    }
  });
});

describe("PushGitRepo.changedKnowledge with a kept diff", () => {
  it("pre-receive's diff is what the heal reads, once; without the option git is asked", async () => {
    const work = join(dir, "work");
    git("init", "-q", "--initial-branch=main", work);
    const commit = (files: Record<string, string>, message: string) => {
      for (const [path, text] of Object.entries(files)) {
        const full = join(work, path);
        spawnSync("mkdir", ["-p", join(full, "..")]);
        writeFileSync(full, text);
      }
      git("-C", work, "add", "-A");
      git("-C", work, "-c", "user.name=T", "-c", "user.email=t@e", "commit", "-qm", message);
      return git("-C", work, "rev-parse", "HEAD");
    };
    const first = commit({ ".gitriver/knowledge/a.md": "a\n", "README.md": "r\n" }, "one");
    const second = commit(
      { ".gitriver/knowledge/a.md": "a2\n", ".gitriver/knowledge/b.md": "b\n" },
      "two",
    );
    const bare = join(dir, "app.git");
    git("clone", "-q", "--bare", work, bare);
    const K = ".gitriver/knowledge";
    const plain = new PushGitRepo(bare);
    const keeper = new PushGitRepo(bare, { diffMemo: "keep" });
    const taker = new PushGitRepo(bare, { diffMemo: "take" });
    try {
      const expected = await plain.changedKnowledge(first, second, K);
      expect(expected.map((c) => [c.kind, c.path])).toEqual([
        ["modified", ".gitriver/knowledge/a.md"],
        ["added", ".gitriver/knowledge/b.md"],
      ]);
      expect(await keeper.changedKnowledge(first, second, K)).toEqual(expected);
      // A plain repository neither reads nor removes the kept diff.
      expect(await plain.changedKnowledge(first, second, K)).toEqual(expected);
      const kept = readdirSync(join(bare, "lore-diffs"));
      expect(kept).toHaveLength(1);
      expect(await taker.changedKnowledge(first, second, K)).toEqual(expected);
      expect(readdirSync(join(bare, "lore-diffs"))).toEqual([]);
      // Nothing kept any more: git answers the same.
      expect(await taker.changedKnowledge(first, second, K)).toEqual(expected);
    } finally {
      await Promise.all([plain.close(), keeper.close(), taker.close()]);
    }
  });
});
