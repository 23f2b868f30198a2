import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
