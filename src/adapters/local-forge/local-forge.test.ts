import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeRepo } from "../../../test/helpers/make-repo.js";
import { WIKI_LIMITS } from "../../core/wiki/wiki-limits.js";
import { runGit } from "../git-cli/run-git.js";
import { LocalForge } from "./local-forge.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function forgeRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "lore-forge-"));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  return root;
}

async function git(cwd: string, args: string[], values: string[] = []): Promise<string> {
  return (await runGit({ cwd, args, values })).stdout.toString("utf8").trim();
}

/** A bare repository `<root>/<name>.git` holding `files` (none = an empty repository). */
async function bareRepo(
  root: string,
  name: string,
  files: Record<string, string>,
  branch = "main",
) {
  const dir = join(root, `${name}.git`);
  if (Object.keys(files).length === 0) {
    await mkdir(dir);
    await git(dir, ["init", "-q", "--bare", "-b", branch]);
    return dir;
  }
  const work = await makeRepo(files, { branch });
  cleanups.push(work.cleanup);
  await runGit({ cwd: root, args: ["clone", "-q", "--bare"], paths: [work.dir, dir] });
  return dir;
}

describe("LocalForge", () => {
  it("lists bare repositories, working clones and empty ones with their default branch", async () => {
    const root = await forgeRoot();
    await bareRepo(root, "alpha", { "README.md": "a" });
    await bareRepo(root, "empty", {}, "trunk");
    await runGit({ cwd: root, args: ["init", "-q", "-b", "dev"], paths: [join(root, "clone")] });
    await mkdir(join(root, "not-a-repo"));
    const forge = new LocalForge({ root });
    expect(await forge.listUserRepos()).toEqual([
      { name: "alpha", default_branch: "main" },
      { name: "clone", default_branch: "dev" },
      { name: "empty", default_branch: "trunk" },
    ]);
  });

  it("reads files at the default branch or a ref; missing → null; sha is git's blob sha", async () => {
    const root = await forgeRoot();
    const dir = await bareRepo(root, "alpha", {
      ".wiki/index.md": "# Wiki Index\n",
      "ё.md": "ёлка\n",
    });
    await bareRepo(root, "empty", {});
    const forge = new LocalForge({ root });
    expect(await forge.getRawFile("u", "alpha", ".wiki/index.md")).toBe("# Wiki Index\n");
    expect(await forge.getRawFile("u", "alpha", "ё.md", "main")).toBe("ёлка\n");
    expect(await forge.getRawFile("u", "alpha", ".tasks/STATUS.md")).toBeNull();
    expect(await forge.getRawFile("u", "alpha", ".wiki")).toBeNull();
    expect(await forge.getRawFile("u", "alpha", "ё.md", "no-such-branch")).toBeNull();
    expect(await forge.getRawFile("u", "empty", ".wiki/index.md")).toBeNull();
    const file = await forge.getFileWithSha("u", "alpha", ".wiki/index.md");
    expect(file).toEqual({
      content: "# Wiki Index\n",
      sha: await git(dir, ["rev-parse"], ["main:.wiki/index.md"]),
    });
  });

  it("refuses unknown repositories, escaping paths and option-like refs", async () => {
    const root = await forgeRoot();
    await bareRepo(root, "alpha", { "a.md": "a" });
    const forge = new LocalForge({ root });
    await expect(forge.getRawFile("u", "ghost", "a.md")).rejects.toMatchObject({
      code: "forge_not_found",
    });
    await expect(forge.getRawFile("u", "..", "a.md")).rejects.toMatchObject({
      code: "forge_not_found",
    });
    await expect(forge.getRawFile("u", "alpha", "../x.md")).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(forge.getRawFile("u", "alpha", "/etc/passwd")).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(forge.getRawFile("u", "alpha", "a.md", "--output=x")).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("creates, updates and refuses stale writes with sha as compare-and-swap", async () => {
    const root = await forgeRoot();
    const dir = await bareRepo(root, "empty", {});
    const forge = new LocalForge({ root });
    const first = await forge.commitFile({
      owner: "u",
      repo: "empty",
      path: ".wiki/index.md",
      content: "one\n",
      message: "first",
    });
    expect(await git(dir, ["rev-parse"], ["refs/heads/main"])).toBe(first.commit);
    expect(await forge.getFileWithSha("u", "empty", ".wiki/index.md")).toEqual({
      content: "one\n",
      sha: first.sha,
    });
    await expect(
      forge.commitFile({
        owner: "u",
        repo: "empty",
        path: ".wiki/index.md",
        content: "x",
        message: "again",
      }),
    ).rejects.toMatchObject({ code: "forge_conflict", kind: "conflict" });
    const second = await forge.commitFile({
      owner: "u",
      repo: "empty",
      path: ".wiki/index.md",
      content: "two\n",
      message: "second",
      sha: first.sha,
    });
    expect(await git(dir, ["rev-parse"], [`${second.commit}^`])).toBe(first.commit);
    await expect(
      forge.commitFile({
        owner: "u",
        repo: "empty",
        path: ".wiki/index.md",
        content: "3",
        message: "stale",
        sha: first.sha,
      }),
    ).rejects.toMatchObject({ code: "forge_conflict" });
    expect(await forge.getRawFile("u", "empty", ".wiki/index.md")).toBe("two\n");
    expect(await git(dir, ["log", "--format=%s"], ["main"])).toBe("second\nfirst");
  });

  it("serialises 20 concurrent commits to one repository: 20 commits, every file present", async () => {
    const root = await forgeRoot();
    const dir = await bareRepo(root, "alpha", { "README.md": "a" });
    const forge = new LocalForge({ root });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        forge.commitFile({
          owner: "u",
          repo: "alpha",
          path: `.tasks/t${i}.md`,
          content: `task ${i}\n`,
          message: `task ${i}`,
        }),
      ),
    );
    expect(await git(dir, ["rev-list", "--count"], ["main"])).toBe("21");
    for (let i = 0; i < 20; i++)
      expect(await forge.getRawFile("u", "alpha", `.tasks/t${i}.md`)).toBe(`task ${i}\n`);
  });

  it("loses nothing when two independent writers race (update-ref compare-and-swap + retry)", async () => {
    const root = await forgeRoot();
    const dir = await bareRepo(root, "alpha", { "README.md": "a" });
    const writers = [new LocalForge({ root }), new LocalForge({ root })];
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (writers[i % 2] as LocalForge).commitFile({
          owner: "u",
          repo: "alpha",
          path: `f${i}.md`,
          content: `${i}`,
          message: `w${i}`,
        }),
      ),
    );
    expect(await git(dir, ["rev-list", "--count"], ["main"])).toBe("17");
    const tree = await git(dir, ["ls-tree", "--name-only"], ["main"]);
    for (let i = 0; i < 16; i++) expect(tree.split("\n")).toContain(`f${i}.md`);
  });

  it("case 3: a branch named kb/ёлка-update is created from the default branch, read and written", async () => {
    const root = await forgeRoot();
    const dir = await bareRepo(root, "alpha", { ".wiki/index.md": "base\n" });
    const forge = new LocalForge({ root });
    const branch = "kb/ёлка-update";
    const base = await forge.getFileWithSha("u", "alpha", ".wiki/index.md", branch);
    expect(base).toBeNull();
    const main = await forge.getFileWithSha("u", "alpha", ".wiki/index.md");
    const made = await forge.commitFile({
      owner: "u",
      repo: "alpha",
      path: ".wiki/index.md",
      content: "ёлка\n",
      message: "kb",
      sha: main?.sha,
      branch,
    });
    expect(await forge.getRawFile("u", "alpha", ".wiki/index.md", branch)).toBe("ёлка\n");
    expect(await forge.getRawFile("u", "alpha", ".wiki/index.md")).toBe("base\n");
    await forge.commitFile({
      owner: "u",
      repo: "alpha",
      path: "entities/ёлка.md",
      content: "x",
      message: "kb 2",
      branch,
    });
    expect(await git(dir, ["rev-list", "--count"], [`refs/heads/${branch}`])).toBe("3");
    expect(made.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it("a clean clone's checked-out branch: index and work tree follow the commit (updateInstead)", async () => {
    const root = await forgeRoot();
    const work = await makeRepo({ "a.md": "a" });
    cleanups.push(work.cleanup);
    const clone = join(root, "clone");
    await runGit({ cwd: root, args: ["clone", "-q"], paths: [work.dir, clone] });
    const forge = new LocalForge({ root });
    await forge.commitFile({
      owner: "u",
      repo: "clone",
      path: ".tasks/STATUS.md",
      content: "| slug | status |\n",
      message: "tasks",
    });
    expect(await forge.getRawFile("u", "clone", ".tasks/STATUS.md")).toBe("| slug | status |\n");
    expect(await git(clone, ["log", "-1", "--format=%s %an"])).toBe("tasks Lore");
    // The owner's index and files hold the task: `git status` is clean, a later
    // `git commit -am` cannot revert it.
    expect(await readFile(join(clone, ".tasks/STATUS.md"), "utf8")).toBe("| slug | status |\n");
    expect(await git(clone, ["status", "--porcelain"])).toBe("");
    await forge.close();
  });

  it("a dirty clone's checked-out branch is refused with forge_worktree_dirty; nothing is committed", async () => {
    const root = await forgeRoot();
    const work = await makeRepo({ "a.md": "a" });
    cleanups.push(work.cleanup);
    const clone = join(root, "clone");
    await runGit({ cwd: root, args: ["clone", "-q"], paths: [work.dir, clone] });
    await writeFile(join(clone, "a.md"), "edited by the owner");
    const before = await git(clone, ["rev-parse"], ["HEAD"]);
    const forge = new LocalForge({ root });
    const write = () =>
      forge.commitFile({ owner: "u", repo: "clone", path: "t.md", content: "t", message: "t" });
    await expect(write()).rejects.toMatchObject({ code: "forge_worktree_dirty" });
    expect(await git(clone, ["rev-parse"], ["HEAD"])).toBe(before);
    expect(await readFile(join(clone, "a.md"), "utf8")).toBe("edited by the owner");
    // An untracked file where the commit would put one is never overwritten either.
    await git(clone, ["checkout", "-q", "--", "a.md"]);
    await writeFile(join(clone, "t.md"), "the owner's own file");
    await expect(write()).rejects.toMatchObject({ code: "forge_worktree_dirty" });
    expect(await readFile(join(clone, "t.md"), "utf8")).toBe("the owner's own file");
    expect(await git(clone, ["rev-parse"], ["HEAD"])).toBe(before);
    // Another branch of the clone is not checked out: written as in a bare repository.
    await forge.commitFile({
      owner: "u",
      repo: "clone",
      path: "t.md",
      content: "t",
      message: "t",
      branch: "side",
    });
    expect(await git(clone, ["rev-parse"], ["HEAD"])).toBe(before);
    await forge.close();
  });

  it("reads through one long-lived cat-file per repository and sees commits made by others", async () => {
    const root = await forgeRoot();
    const dir = await bareRepo(root, "r", { "a.md": "one" });
    const forge = new LocalForge({ root });
    expect(await forge.getRawFile("u", "r", "a.md")).toBe("one");
    // Another writer (plain git, another process) moves the branch.
    const work = await makeRepo({ "a.md": "two" });
    cleanups.push(work.cleanup);
    await runGit({ cwd: work.dir, args: ["push", "-q", "-f"], paths: [dir, "HEAD:main"] });
    expect(await forge.getRawFile("u", "r", "a.md")).toBe("two");
    expect(await forge.getRawFile("u", "r", "a.md", "main")).toBe("two");
    expect(await forge.getRawFile("u", "r", "missing ё.md")).toBeNull();
    expect(await forge.getRawFile("u", "r", "a.md", "no-such-branch")).toBeNull();
    await forge.close();
  });

  it("a file over a read limit is refused with remote_file_too_large, never held whole", async () => {
    const root = await forgeRoot();
    await bareRepo(root, "r", {
      ".wiki/index.md": "x".repeat(WIKI_LIMITS.wikiIndexBytes + 1),
      ".wiki/concepts/a.md": "small",
    });
    const forge = new LocalForge({ root });
    await expect(
      forge.getRawFile("u", "r", ".wiki/index.md", undefined, { limit: "wikiIndexBytes" }),
    ).rejects.toMatchObject({
      code: "remote_file_too_large",
      data: { limit: 2 * 1024 * 1024, size: 2 * 1024 * 1024 + 1 },
    });
    // The reader goes on after skipping the large body.
    expect(
      await forge.getRawFile("u", "r", ".wiki/concepts/a.md", undefined, {
        limit: "wikiPageBytes",
      }),
    ).toBe("small");
    await forge.close();
  });

  it("one unreadable repository does not fail the listing", async () => {
    const root = await forgeRoot();
    await bareRepo(root, "good", { "a.md": "a" });
    // A folder that only looks like a bare repository.
    const fake = join(root, "fake.git");
    await mkdir(join(fake, "objects"), { recursive: true });
    await mkdir(join(fake, "refs"), { recursive: true });
    await writeFile(join(fake, "HEAD"), "garbage\n");
    const forge = new LocalForge({ root });
    expect((await forge.listUserRepos()).map((r) => r.name)).toEqual(["fake", "good"]);
    await expect(forge.getRawFile("u", "fake", "a.md")).rejects.toMatchObject({
      code: "git_failed",
    });
    expect(await forge.getRawFile("u", "good", "a.md")).toBe("a");
    await forge.close();
  });
});
