import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoreError } from "../../core/errors/lore-error.js";
import { assertGitValue, buildGitArgs, gitEnvironment, runGit } from "./run-git.js";

describe("runGit", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "lore-run-git-"));
    await runGit({ cwd: dir, args: ["init", "-q", "-b", "main"] });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("refuses a user value starting with -", async () => {
    await expect(
      runGit({ cwd: dir, args: ["rev-parse", "--verify"], values: ["--output=/tmp/x"] }),
    ).rejects.toMatchObject({ code: "invalid_input" });
    expect(() => assertGitValue("-x")).toThrow(LoreError);
    expect(() => assertGitValue("a\nb")).toThrow(LoreError);
    expect(() => assertGitValue("")).toThrow(LoreError);
    expect(assertGitValue("main")).toBe("main");
  });

  it("puts paths after --, so a path starting with - is a path", () => {
    expect(buildGitArgs({ args: ["ls-files"], paths: ["-rf"] }).slice(-2)).toEqual(["--", "-rf"]);
    expect(buildGitArgs({ args: ["ls-files"] })).not.toContain("--");
  });

  it("returns stdout as bytes", async () => {
    const out = await runGit({ cwd: dir, args: ["rev-parse", "--is-inside-work-tree"] });
    expect(Buffer.isBuffer(out.stdout)).toBe(true);
    expect(out.stdout.toString("utf8").trim()).toBe("true");
  });

  it("fails with git_failed keeping stderr", async () => {
    const error = await runGit({ cwd: dir, args: ["cat-file", "-p"], values: ["nosuch"] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LoreError);
    expect((error as LoreError).code).toBe("git_failed");
    expect(String((error as LoreError).data.stderr)).toMatch(/nosuch/);
  });

  it("accepts answers listed in okExitCodes", async () => {
    const out = await runGit({
      cwd: dir,
      args: ["rev-parse", "--verify", "--quiet"],
      values: ["nosuch"],
      okExitCodes: [1],
    });
    expect(out.exitCode).toBe(1);
  });

  it("kills a child past its timeout", async () => {
    const slow = await runGit({
      cwd: dir,
      args: ["-c", "alias.wait=!sleep 5", "wait"],
      timeoutMs: 200,
    }).catch((e: unknown) => e);
    expect(slow).toMatchObject({ code: "git_failed" });
    expect((slow as LoreError).message).toMatch(/timed out/);
  });

  it("isolates the environment from the parent", () => {
    process.env.GIT_DIR = "/nonexistent";
    try {
      const env = gitEnvironment("/tmp/home");
      expect(env.GIT_DIR).toBeUndefined();
      expect(env.HOME).toBe("/tmp/home");
      expect(env.GIT_CONFIG_NOSYSTEM).toBe("1");
      expect(env.GIT_TERMINAL_PROMPT).toBe("0");
      expect(env.LC_ALL).toBe("C");
    } finally {
      delete process.env.GIT_DIR;
    }
  });
});
