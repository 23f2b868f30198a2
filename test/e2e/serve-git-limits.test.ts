import { writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../helpers/git-server.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

/**
 * `[server] git_max_processes`, `git_max_queue` and `git_timeout_ms` reach the git processes
 * of a real `lore serve` (seed 004 team server: "every git child process … a time limit";
 * the bound on processes): with one process and no queue, a second git request while one
 * runs is 503 `server_busy`; the running one is killed at the 1.5 s limit, its answer cut
 * (no last chunk), the kill logged, and the next request served.
 */
const home = isolatedEnv();
let served: ServedLore;
let env: Record<string, string>;

const INFO_REFS = "/acme/app.git/info/refs?service=git-upload-pack";

beforeAll(async () => {
  const config = join(home.dir, "limits.toml");
  writeFileSync(
    config,
    "[server]\ngit_max_processes = 1\ngit_max_queue = 0\ngit_timeout_ms = 1500\n",
  );
  env = { ...home.env, LORE_CONFIG: config };
  served = await startServe(["--port", "0"], { cwd: home.dir, env });
  const created = await runLore(["repo", "create", "acme/app"], { cwd: home.dir, env });
  expect(created.code, created.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await served?.stop();
  home.cleanup();
});

describe("lore serve's git limits from the config", () => {
  it("one process, no queue: the extra request is server_busy; the slow one is killed at the limit", async () => {
    const port = Number(served.url.port);
    const auth = { Authorization: `Bearer ${served.token}` };
    // A push whose body announces 100 bytes that never come: git waits for them.
    const held = connect(port, "127.0.0.1");
    held.on("error", () => {});
    const heldAnswer = new Promise<string>((resolve) => {
      let text = "";
      held.on("data", (chunk: Buffer) => {
        text += chunk.toString("latin1");
      });
      held.on("close", () => resolve(text));
    });
    held.write(
      "POST /acme/app.git/git-receive-pack HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
        `Authorization: Bearer ${served.token}\r\n` +
        "Content-Type: application/x-git-receive-pack-request\r\nContent-Length: 100\r\n\r\n",
    );
    // Until the held push has its git process, a fetch may still get the one slot.
    let busy = await rawRequest(port, "GET", INFO_REFS, { ...auth, "User-Agent": "git/2.39.5" });
    for (let tries = 0; busy.status === 200 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      busy = await rawRequest(port, "GET", INFO_REFS, { ...auth, "User-Agent": "git/2.39.5" });
    }
    expect(busy.status).toBe(503);
    expect(busy.headers["retry-after"]).toBe("5");
    expect(busy.body).toBe(
      "the server is busy: 1 git processes are running and 0 are waiting; try again shortly [server_busy]\n",
    );
    // The time limit ends the held push: its 200 went out, its transfer never ends.
    const text = await heldAnswer;
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).not.toMatch(/\r\n0\r\n\r\n$/);
    expect(served.stderr()).toContain(
      "git http-backend acme/app: git-receive-pack ran past the server's time limit and was stopped mid-answer; the connection was cut so the client fails",
    );
    // The slot is free again.
    let after = await rawRequest(port, "GET", INFO_REFS, auth);
    for (let tries = 0; after.status === 503 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await rawRequest(port, "GET", INFO_REFS, auth);
    }
    expect(after.status).toBe(200);
  }, 60_000);
});
