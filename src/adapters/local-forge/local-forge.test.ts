import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeRepo } from "../../../test/helpers/make-repo.js";
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

  it("commits into a working clone without touching its work tree files", async () => {
    const root = await forgeRoot();
    const work = await makeRepo({ "a.md": "a" });
    cleanups.push(work.cleanup);
    await runGit({ cwd: root, args: ["clone", "-q"], paths: [work.dir, join(root, "clone")] });
    const forge = new LocalForge({ root });
    await forge.commitFile({
      owner: "u",
      repo: "clone",
      path: ".tasks/STATUS.md",
      content: "| slug | status |\n",
      message: "tasks",
    });
    expect(await forge.getRawFile("u", "clone", ".tasks/STATUS.md")).toBe("| slug | status |\n");
    expect(await git(join(root, "clone"), ["log", "-1", "--format=%s %an"])).toBe("tasks Lore");
  });
});
