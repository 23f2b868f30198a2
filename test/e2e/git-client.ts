import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import type { LoreRun } from "./run-lore.js";

/**
 * Runs the real git client to its end with exactly `env` (the tests pass a clean
 * environment: their own HOME, the credentials they mean).
 *
 * @returns the exit code and the whole output, UTF-8.
 */
export function runGitClient(
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<LoreRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A TCP port on 127.0.0.1 that was free a moment ago (nothing listens on it now). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * The clean environment of the real git client in an e2e test: the test's own HOME and
 * PATH, no system config, no prompts, Anna as author and committer, plus `extra` (e.g.
 * `GIT_SSH_COMMAND`).
 *
 * @param home - the test's isolated environment (`isolatedEnv()`): its `env` and `dir`.
 */
export function gitClientEnv(
  home: { env: Record<string, string | undefined>; dir: string },
  extra: Record<string, string> = {},
): Record<string, string> & { HOME: string } {
  return {
    PATH: home.env.PATH ?? "/usr/bin:/bin",
    HOME: home.env.HOME ?? home.dir,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "Anna",
    GIT_AUTHOR_EMAIL: "anna@example.com",
    GIT_COMMITTER_NAME: "Anna",
    GIT_COMMITTER_EMAIL: "anna@example.com",
    ...extra,
  };
}

/**
 * Commits `files` (path relative to the repository → text) as the first commit of `main`
 * in a new work folder `<home.dir>/work` and pushes it with the real git client over smart
 * HTTP to `remote`, the token as HTTP Basic password (as the README's set-up does).
 *
 * @param home - the test's isolated environment (`isolatedEnv()`): the git client's HOME.
 * @param remote - the repository's URL, e.g. `http://127.0.0.1:PORT/acme/app.git`.
 * @param token - a Lore token with `repo:write` and write access to the repository.
 * @returns the work folder.
 * @throws Error naming the git command and its stderr when one fails.
 */
export async function pushFilesOverHttp(
  home: { env: Record<string, string | undefined>; dir: string },
  files: Record<string, string>,
  remote: string,
  token: string,
): Promise<string> {
  const work = join(home.dir, "work");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), text);
  }
  const gitEnv = gitClientEnv(home);
  mkdirSync(gitEnv.HOME, { recursive: true });
  const basic = `http.extraHeader=Authorization: Basic ${Buffer.from(`x:${token}`).toString("base64")}`;
  for (const args of [
    ["init", "-q", "-b", "main"],
    ["add", "-A"],
    ["commit", "-q", "-m", "entries"],
    ["remote", "add", "origin", remote],
    ["-c", basic, "push", "-q", "origin", "main"],
  ]) {
    const run = await runGitClient(args, work, gitEnv);
    if (run.code !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  }
  return work;
}
