import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built bin, as users run it. */
export const LORE_BIN = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "dist",
  "cli",
  "main.js",
);

/** What a finished `lore` process gave back. */
export interface LoreRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * An isolated environment for a spawned `lore`: its own HOME, XDG folders and database in a
 * temp folder, English messages, a fixed user. Call `cleanup()` when done.
 */
export function isolatedEnv(extra: Record<string, string> = {}): {
  env: Record<string, string>;
  dir: string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), "lore-e2e-"));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    LORE_DB: join(dir, "index.db"),
    LORE_USER: "tester",
    LORE_LANG: "en",
    ...extra,
  };
  return { env, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs `node dist/cli/main.js <args>` to its end.
 *
 * @param args - the arguments.
 * @param options - working folder, environment, stdin text, and the user id to run as
 *   (its group id the same; needs root).
 */
export function runLore(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; input?: string; uid?: number },
): Promise<LoreRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LORE_BIN, ...args], {
      cwd: options.cwd,
      env: options.env,
      // Another user's process (tests run as root, whom no file permission stops).
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
    child.stdin.end(options.input ?? "");
  });
}
