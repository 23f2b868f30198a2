import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LORE_BIN } from "./run-lore.js";

/** A running `lore serve` child. */
export interface ServedLore {
  child: ChildProcess;
  /** The MCP endpoint it printed. */
  url: URL;
  /** The owner's token from `<data>/owner-token` (written on the first start). */
  token: string;
  /** `Authorization: Bearer <token>`. */
  headers: { authorization: string };
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM and wait; resolves the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Spawns `node dist/cli/main.js serve <args>` and waits for its address line; reads the
 * owner token the first start wrote to `<data>/owner-token`.
 *
 * @param args - arguments after `serve`.
 * @param options - working folder and environment (an `isolatedEnv`); `data`: the server's
 *   data folder when the configuration names one (default `$XDG_DATA_HOME/lore/server`).
 */
export async function startServe(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; data?: string },
): Promise<ServedLore> {
  // SSH off unless asked for: parallel servers must not race for its fixed default port.
  const ssh = args.includes("--ssh-port") ? [] : ["--ssh-port", "0"];
  const child = spawn(process.execPath, [LORE_BIN, "serve", ...ssh, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match = /serving MCP over HTTP at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match?.[1]) resolve(new URL(match[1]));
    });
    child.on("close", (code) => reject(new Error(`lore serve exited ${code}: ${stderr}`)));
  });
  const dataHome = options.env.XDG_DATA_HOME ?? join(options.env.HOME ?? "", ".local", "share");
  const data = options.data ?? join(dataHome, "lore", "server");
  const token = readFileSync(join(data, "owner-token"), "utf8").trim();
  return {
    child,
    url,
    token,
    headers: { authorization: `Bearer ${token}` },
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
      child.kill("SIGTERM");
      return exited;
    },
  };
}
