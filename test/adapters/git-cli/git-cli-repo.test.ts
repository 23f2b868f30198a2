import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openGitRepo } from "../../../src/adapters/git-cli/git-cli-repo.js";
import { makeBareClone, makeRepo, type TestRepo } from "../../helpers/make-repo.js";

const PREFIX = ".gitriver/knowledge/";

describe("GitCliRepo", () => {
  let repo: TestRepo;
  beforeAll(async () => {
    repo = await makeRepo({
      ".gitriver/knowledge/a.md": "alpha\n",
      ".gitriver/knowledge/sub/b.md": "beta beta\n",
      ".gitriver/knowledge/notes.txt": "not an entry\n",
      ".gitriver/knowledge/имя файла.md": "gamma\n",
      ".gitriver/knowledgebase/c.md": "outside the folder\n",
      "README.md": "root\n",
    });
  });
  afterAll(() => repo.cleanup());

  it("resolves HEAD and lists only .md blobs under the prefix, with sizes", async () => {
    const git = await openGitRepo(repo.dir);
    try {
      const commit = await git.resolveCommit();
      expect(commit).toBe(repo.initial);
      const blobs = await git.listKnowledgeBlobs(commit, PREFIX);
      expect(blobs.map((b) => [b.path, b.size])).toEqual([
        [".gitriver/knowledge/a.md", 6],
        [".gitriver/knowledge/sub/b.md", 10],
        [".gitriver/knowledge/имя файла.md", 6],
      ]);
      const texts: string[] = [];
      for await (const blob of git.readBlobs(blobs.map((b) => b.sha))) {
        texts.push(Buffer.from(blob.bytes).toString("utf8"));
      }
      expect(texts).toEqual(["alpha\n", "beta beta\n", "gamma\n"]);
    } finally {
      await git.close();
      await git.close();
    }
  });

  it("opens a sub-folder at the work tree top and a bare clone", async () => {
    const sub = await openGitRepo(join(repo.dir, ".gitriver"));
    expect(sub.dir).toBe(repo.dir);
    expect(sub.bare).toBe(false);
    const bare = await makeBareClone(repo.dir);
    try {
      const git = await openGitRepo(bare.dir);
      expect(git.bare).toBe(true);
      expect(await git.resolveCommit()).toBe(repo.initial);
      expect(await git.resolveCommit("main")).toBe(repo.initial);
      await git.close();
    } finally {
      await bare.cleanup();
    }
  });

  it("refuses a revision starting with - and reports a missing one as git_failed", async () => {
    const git = await openGitRepo(repo.dir);
    await expect(git.resolveCommit("--all")).rejects.toMatchObject({ code: "invalid_input" });
    await expect(git.resolveCommit("nosuch")).rejects.toMatchObject({ code: "git_failed" });
    await expect(git.listKnowledgeBlobs("-x", PREFIX)).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("reports not_a_repository and path_not_found", async () => {
    const plain = await mkdtemp(join(tmpdir(), "lore-plain-"));
    try {
      await expect(openGitRepo(plain)).rejects.toMatchObject({ code: "not_a_repository" });
      await expect(openGitRepo(join(plain, "nope"))).rejects.toMatchObject({
        code: "path_not_found",
      });
    } finally {
      await rm(plain, { recursive: true, force: true });
    }
  });
});
