import { spawn } from "node:child_process";
import { createServer } from "node:net";
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
