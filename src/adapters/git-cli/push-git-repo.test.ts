import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BLOBS_AT_ONCE, PushGitRepo } from "./push-git-repo.js";

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

describe("PushGitRepo.readBlobs with blobsAtOnce (a hook's synchronous batches)", () => {
  const readAll = async (repo: PushGitRepo, shas: string[]) => {
    const out: { sha: string; text: string }[] = [];
    for await (const blob of repo.readBlobs(shas)) {
      out.push({ sha: blob.sha, text: Buffer.from(blob.bytes).toString("utf8") });
    }
    return out;
  };

  it("answers as the pipelined reader does: same objects, same order, across batches", async () => {
    const bare = join(dir, "app.git");
    git("init", "-q", "--bare", bare);
    // One more than a batch, so the second synchronous batch is read too; one name twice.
    const texts = Array.from(
      { length: BLOBS_AT_ONCE + 1 },
      (_, i) => `blob ${i}\n${"x".repeat(i % 7)}`,
    );
    const files = texts.map((text, i) => {
      const path = join(dir, `${i}.txt`);
      writeFileSync(path, text);
      return path;
    });
    const shas = spawnSync("git", ["--git-dir", bare, "hash-object", "-w", "--stdin-paths"], {
      input: `${files.join("\n")}\n`,
      encoding: "utf8",
    })
      .stdout.trim()
      .split("\n");
    const asked = [...shas.reverse(), shas[0] as string];
    const plain = new PushGitRepo(bare);
    const atOnce = new PushGitRepo(bare, { blobsAtOnce: true });
    try {
      const expected = await readAll(plain, asked);
      expect(expected).toHaveLength(BLOBS_AT_ONCE + 2);
      expect(expected[0]?.text).toBe(texts[BLOBS_AT_ONCE]);
      expect(await readAll(atOnce, asked)).toEqual(expected);
    } finally {
      await Promise.all([plain.close(), atOnce.close()]);
    }
  });

  it("reads with the hook's environment, and fails as the pipelined reader on a missing or malformed name", async () => {
    const bare = join(dir, "app.git");
    const quarantine = join(dir, "incoming.git");
    git("init", "-q", "--bare", bare);
    git("init", "-q", "--bare", quarantine);
    // An object only in the other object folder: visible only through the environment.
    const sha = spawnSync("git", ["--git-dir", quarantine, "hash-object", "-w", "--stdin"], {
      input: "pushed\n",
      encoding: "utf8",
    }).stdout.trim();
    const env = {
      GIT_OBJECT_DIRECTORY: join(quarantine, "objects"),
      GIT_ALTERNATE_OBJECT_DIRECTORIES: join(bare, "objects"),
    };
    const withEnv = new PushGitRepo(bare, { blobsAtOnce: true, env });
    const without = new PushGitRepo(bare, { blobsAtOnce: true });
    try {
      expect(await readAll(withEnv, [sha])).toEqual([{ sha, text: "pushed\n" }]);
      await expect(readAll(without, [sha])).rejects.toMatchObject({
        code: "git_failed",
        message: expect.stringContaining(`object ${sha} is missing`),
      });
      await expect(readAll(without, ["-x"])).rejects.toMatchObject({ code: "invalid_input" });
      expect(await readAll(without, [])).toEqual([]);
    } finally {
      await Promise.all([withEnv.close(), without.close()]);
    }
  });
});
