import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// `lore serve` killed (SIGKILL, a crash, the OOM killer) while a push is in flight: the git
// processes it started lose their input. None may outlive it for long — git http-backend 2.39,
// told a CONTENT_LENGTH, spins forever at full CPU on an input that ends early.

/** Pids of the git processes whose environment names `root` (Linux /proc). */
function gitProcessesUnder(root: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
      if (!cmdline.includes("git")) continue;
      if (readFileSync(`/proc/${name}/environ`, "utf8").includes(root)) pids.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

/** Polls `probe` every 100 ms until it holds or `ms` have passed; the last value. */
async function waitFor<T>(probe: () => T, holds: (value: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  let value = probe();
  while (!holds(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = probe();
  }
  return value;
}

/** One pkt-line (git's length-prefixed framing). */
function pkt(text: string): string {
  return (text.length + 4).toString(16).padStart(4, "0") + text;
}

const home = isolatedEnv();
let served: ServedLore | undefined;

afterAll(() => {
  served?.child.kill("SIGKILL");
  // A failed run must not leave spinning processes behind.
  for (const pid of gitProcessesUnder(home.dir)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  home.cleanup();
});

describe.skipIf(process.platform !== "linux")("lore serve killed mid-push", () => {
  it("leaves no git process behind once its input is gone", async () => {
    served = await startServe(["--port", "0"], { cwd: home.dir, env: home.env });
    const created = await runLore(["repo", "create", "acme/app"], {
      cwd: home.dir,
      env: home.env,
    });
    expect(created.code, created.stderr).toBe(0);
    // A push whose body announces 100,000 bytes and sends only the ref update: git waits for
    // the pack.
    const socket = connect(Number(served.url.port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.on("error", () => {});
    const command = `${"0".repeat(40)} ${"1".repeat(40)} refs/heads/x\0report-status\n`;
    socket.write(
      "POST /acme/app.git/git-receive-pack HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
        `Authorization: Bearer ${served.token}\r\n` +
        "Content-Type: application/x-git-receive-pack-request\r\nContent-Length: 100000\r\n\r\n" +
        `${pkt(command)}0000`,
    );
    const running = await waitFor(
      () => gitProcessesUnder(home.dir),
      (pids) => pids.length > 0,
      20_000,
    );
    expect(running.length).toBeGreaterThan(0);
    served.child.kill("SIGKILL");
    const left = await waitFor(
      () => gitProcessesUnder(home.dir),
      (pids) => pids.length === 0,
      20_000,
    );
    socket.destroy();
    expect(left).toEqual([]);
  });
});
