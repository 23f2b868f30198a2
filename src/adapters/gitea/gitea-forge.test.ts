import { afterEach, describe, expect, it } from "vitest";
import { type FakeGitea, startFakeGitea } from "../../../test/helpers/fake-gitea.js";
import { GiteaForge } from "./gitea-forge.js";

let gitea: FakeGitea;
afterEach(async () => {
  await gitea?.close();
});

async function setUp(knobs: Parameters<typeof startFakeGitea>[0] = {}) {
  gitea = await startFakeGitea(knobs);
  return new GiteaForge({ url: gitea.url, token: gitea.token, pageSize: 2 });
}

describe("GiteaForge against the fake Gitea", () => {
  it("lists every page of the user's repositories, with Link, X-Total-Count or neither", async () => {
    const forge = await setUp();
    for (const name of ["a", "b", "c", "d", "e"]) await gitea.addRepo(name, { "x.md": name });
    await gitea.addRepo("trunky", {}, { branch: "trunk" });
    const expected = [
      { name: "a", default_branch: "main" },
      { name: "b", default_branch: "main" },
      { name: "c", default_branch: "main" },
      { name: "d", default_branch: "main" },
      { name: "e", default_branch: "main" },
      { name: "trunky", default_branch: "trunk" },
    ];
    expect(await forge.listUserRepos()).toEqual(expected);
    expect(gitea.requests.filter((r) => r.path === "/user/repos")).toHaveLength(3);
    for (const mode of ["total-only", "none"] as const) {
      gitea.knobs.paginationHeaders = mode;
      expect(await forge.listUserRepos()).toEqual(expected);
    }
  });

  it("reads raw files at a ref (404 → null) and files with sha (base64)", async () => {
    const forge = await setUp();
    await gitea.addRepo("proj", { ".wiki/index.md": "# Wiki Index\n", "dir/ё ж.md": "ёж\n" });
    expect(await forge.getRawFile(gitea.user, "proj", ".wiki/index.md")).toBe("# Wiki Index\n");
    expect(await forge.getRawFile(gitea.user, "proj", "dir/ё ж.md", "main")).toBe("ёж\n");
    expect(await forge.getRawFile(gitea.user, "proj", "missing.md")).toBeNull();
    expect(await forge.getRawFile(gitea.user, "ghost", "x.md")).toBeNull();
    const file = await forge.getFileWithSha(gitea.user, "proj", "dir/ё ж.md");
    expect(file).toEqual({
      content: "ёж\n",
      sha: await gitea.git("proj", ["rev-parse"], ["main:dir/ё ж.md"]),
    });
    expect(await forge.getFileWithSha(gitea.user, "proj", "nope.md")).toBeNull();
  });

  it("creates and updates files; a stale sha is a conflict (409 or 422)", async () => {
    const forge = await setUp();
    await gitea.addRepo("proj", { "README.md": "r" });
    const made = await forge.commitFile({
      owner: gitea.user,
      repo: "proj",
      path: ".tasks/STATUS.md",
      content: "one",
      message: "add",
    });
    expect(made.commit).toBe(await gitea.git("proj", ["rev-parse"], ["main"]));
    await expect(
      forge.commitFile({
        owner: gitea.user,
        repo: "proj",
        path: ".tasks/STATUS.md",
        content: "dup",
        message: "dup",
      }),
    ).rejects.toMatchObject({ code: "forge_conflict" });
    const updated = await forge.commitFile({
      owner: gitea.user,
      repo: "proj",
      path: ".tasks/STATUS.md",
      content: "two",
      message: "upd",
      sha: made.sha,
    });
    for (const status of [409, 422] as const) {
      gitea.knobs.staleShaStatus = status;
      await expect(
        forge.commitFile({
          owner: gitea.user,
          repo: "proj",
          path: ".tasks/STATUS.md",
          content: "3",
          message: "stale",
          sha: made.sha,
        }),
      ).rejects.toMatchObject({ code: "forge_conflict", kind: "conflict" });
    }
    expect(await forge.getFileWithSha(gitea.user, "proj", ".tasks/STATUS.md")).toEqual({
      content: "two",
      sha: updated.sha,
    });
  });

  it("maps statuses to error kinds in one place: 401, 404, 500", async () => {
    const forge = await setUp();
    await gitea.addRepo("proj", { "a.md": "a" });
    const bad = new GiteaForge({ url: gitea.url, token: "wrong" });
    await expect(bad.listUserRepos()).rejects.toMatchObject({
      code: "forge_unauthorized",
      kind: "forbidden",
    });
    await expect(
      forge.commitFile({
        owner: gitea.user,
        repo: "ghost",
        path: "a.md",
        content: "a",
        message: "m",
      }),
    ).rejects.toMatchObject({ code: "forge_not_found" });
    gitea.failWith(500, "/raw/");
    await expect(forge.getRawFile(gitea.user, "proj", "a.md")).rejects.toMatchObject({
      code: "forge_unavailable",
    });
    const closed = new GiteaForge({ url: "http://127.0.0.1:9", token: "t", timeoutMs: 2000 });
    await expect(closed.listUserRepos()).rejects.toMatchObject({ code: "forge_unavailable" });
  });

  it("case 2: contents API gives no content for a large file → raw fallback, never an empty text", async () => {
    const forge = await setUp({ knobs: { apiMaxBlobSize: 10 } });
    const big = `# Wiki Index\n\n${"- [x](concepts/x.md) — X\n".repeat(50)}`;
    await gitea.addRepo("proj", { ".wiki/index.md": big, "small.md": "" });
    for (const largeContent of [null, ""] as const) {
      gitea.knobs.largeContent = largeContent;
      const file = await forge.getFileWithSha(gitea.user, "proj", ".wiki/index.md");
      expect(file?.content).toBe(big);
      expect(file?.sha).toBe(await gitea.git("proj", ["rev-parse"], ["main:.wiki/index.md"]));
    }
    expect(await forge.getFileWithSha(gitea.user, "proj", "small.md")).toMatchObject({
      content: "",
    });
    gitea.failWith(500, "/raw/.wiki/index.md");
    await expect(forge.getFileWithSha(gitea.user, "proj", ".wiki/index.md")).rejects.toMatchObject({
      code: "file_too_large_for_api",
    });
  });

  it("case 3: a branch named kb/ёлка-update is created, read and written (no 404)", async () => {
    const forge = await setUp();
    await gitea.addRepo("proj", { ".wiki/index.md": "base\n" });
    const branch = "kb/ёлка-update";
    const base = await forge.getFileWithSha(gitea.user, "proj", ".wiki/index.md");
    await forge.commitFile({
      owner: gitea.user,
      repo: "proj",
      path: ".wiki/index.md",
      content: "ёлка\n",
      message: "kb",
      sha: base?.sha,
      branch,
    });
    expect(await forge.getRawFile(gitea.user, "proj", ".wiki/index.md", branch)).toBe("ёлка\n");
    const onBranch = await forge.getFileWithSha(gitea.user, "proj", ".wiki/index.md", branch);
    await forge.commitFile({
      owner: gitea.user,
      repo: "proj",
      path: ".wiki/index.md",
      content: "ёлка 2\n",
      message: "kb2",
      sha: onBranch?.sha,
      branch,
    });
    await forge.commitFile({
      owner: gitea.user,
      repo: "proj",
      path: "entities/ёлка-(tree).md",
      content: "e\n",
      message: "kb3",
      branch,
    });
    expect(await forge.getRawFile(gitea.user, "proj", "entities/ёлка-(tree).md", branch)).toBe(
      "e\n",
    );
    expect(await forge.getRawFile(gitea.user, "proj", ".wiki/index.md")).toBe("base\n");
    expect(
      gitea.requests.filter((r) => r.status === 404 && !r.path.includes("/branches/")),
    ).toEqual([]);
  });

  it("case 4: the first commit into an empty repository lands on another branch → default branch fixed", async () => {
    const forge = await setUp({ knobs: { firstCommitBranch: "master" } });
    await gitea.addRepo("fresh", {});
    await forge.commitFile({
      owner: gitea.user,
      repo: "fresh",
      path: ".wiki/index.md",
      content: "# Wiki Index\n",
      message: "first",
    });
    expect(await forge.listUserRepos()).toEqual([{ name: "fresh", default_branch: "master" }]);
    expect(await forge.getRawFile(gitea.user, "fresh", ".wiki/index.md")).toBe("# Wiki Index\n");
    expect(gitea.requests.some((r) => r.method === "PATCH")).toBe(true);
  });

  it("case 4: when the default branch cannot be fixed, the mismatch is reported with the commit", async () => {
    const forge = await setUp({ knobs: { firstCommitBranch: "master", allowEditRepo: false } });
    await gitea.addRepo("fresh", {});
    const error = await forge
      .commitFile({
        owner: gitea.user,
        repo: "fresh",
        path: "a.md",
        content: "a",
        message: "first",
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "default_branch_mismatch",
      data: { commit: expect.stringMatching(/^[0-9a-f]{40}$/) },
    });
    expect((error as Error).message).toContain("master");
  });

  it("case 4: a normal first commit into an empty repository needs no fix", async () => {
    const forge = await setUp();
    await gitea.addRepo("fresh", {});
    await forge.commitFile({
      owner: gitea.user,
      repo: "fresh",
      path: "a.md",
      content: "a",
      message: "first",
    });
    expect(await forge.getRawFile(gitea.user, "fresh", "a.md")).toBe("a");
    expect(gitea.requests.some((r) => r.method === "PATCH")).toBe(false);
  });
});
