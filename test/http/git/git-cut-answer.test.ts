import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitTestServer, startGitServer, type TestUser } from "../../helpers/git-server.js";
import { startThrottleProxy, type ThrottleProxy } from "../../helpers/throttle-proxy.js";

/**
 * A git process killed mid-answer (the time limit, seed 004 team server: "every git child
 * process … a time limit") must not look like a complete answer: over HTTP the status 200
 * has gone out already, so the connection is cut without the last chunk; over SSH the exit
 * status is non-zero. The real git client then fails loudly and leaves no repository —
 * never a clone that took a cut pack for the whole. The answer is slowed by a throttling TCP
 * proxy (a slow network), so git is still writing the pack when its 4 s limit comes.
 */
// 24 MiB at 1 MiB/s: the answer cannot end before the 4 s limit, even with every socket
// buffer between (a few MiB) full; the limit leaves a small clone time on a busy machine.
const PACK_BYTES = 24 * 1024 * 1024;
const RATE = 1024 * 1024;

let server: GitTestServer;
let anna: TestUser;
let proxy: ThrottleProxy;
let sshProxy: ThrottleProxy;
const logged: string[] = [];

beforeAll(async () => {
  server = await startGitServer({ limits: { timeoutMs: 4000 }, log: (line) => logged.push(line) });
  anna = await server.addUser("anna");
  const big = await server.createRepo("acme/big");
  const small = await server.createRepo("acme/small");
  await server.grant("anna", "acme/big", "read");
  await server.grant("anna", "acme/small", "read");
  // Incompressible content, put straight into the bare repositories (no server in between).
  const work = join(server.work, "big-src");
  await mkdir(work, { recursive: true });
  expect((await server.git(["init", "-q", "-b", "main", work], {})).code).toBe(0);
  for (let at = 0; at < 4; at++) {
    await writeFile(join(work, `blob-${at}.bin`), randomBytes(PACK_BYTES / 4));
  }
  expect((await server.git(["-C", work, "add", "."], {})).code).toBe(0);
  expect((await server.git(["-C", work, "commit", "-q", "-m", "big"], {})).code).toBe(0);
  const filled = await server.git(["--git-dir", big, "fetch", "-q", work, "main:main"], {});
  expect(filled.code, filled.stderr).toBe(0);
  const tiny = join(server.work, "small-src");
  expect((await server.git(["init", "-q", "-b", "main", tiny], {})).code).toBe(0);
  await writeFile(join(tiny, "a.txt"), "small\n");
  expect((await server.git(["-C", tiny, "add", "."], {})).code).toBe(0);
  expect((await server.git(["-C", tiny, "commit", "-q", "-m", "small"], {})).code).toBe(0);
  expect((await server.git(["--git-dir", small, "fetch", "-q", tiny, "main:main"], {})).code).toBe(
    0,
  );
  proxy = await startThrottleProxy(server.httpPort, RATE);
  sshProxy = await startThrottleProxy(server.sshPort, RATE);
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await sshProxy?.close();
  await server?.close();
});

const viaProxy = (name: string) => `http://127.0.0.1:${proxy.port}/${name}.git`;
const viaSshProxy = (name: string) => `ssh://git@127.0.0.1:${sshProxy.port}/${name}.git`;

describe("a git process killed mid-answer", () => {
  it("the slow path itself clones a small repository whole (over HTTP and SSH)", async () => {
    const http = await server.git(["clone", "-q", viaProxy("acme/small"), "small-http"], {
      user: anna,
    });
    expect(http.code, http.stderr).toBe(0);
    const ssh = await server.git(["clone", "-q", viaSshProxy("acme/small"), "small-ssh"], {
      user: anna,
      via: "ssh",
    });
    expect(ssh.code, ssh.stderr).toBe(0);
  });

  it("over HTTP: the connection is cut, git fails with a non-zero exit and leaves no clone", async () => {
    const target = join(server.work, "big-http");
    const clone = await server.git(["clone", viaProxy("acme/big"), target], { user: anna });
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toMatch(/early EOF|RPC failed|transfer closed|unexpected disconnect/);
    expect(existsSync(target)).toBe(false);
    // Less than the pack went through: the cut came mid-answer.
    expect(proxy.passed()).toBeLessThan(PACK_BYTES);
    expect(logged.join("\n")).toMatch(
      /git http-backend acme\/big: git-upload-pack ran past the server's time limit and was stopped mid-answer; the connection was cut/,
    );
    expect(server.services.load()).toEqual({ running: 0, queued: 0 });
  }, 120_000);

  it("over SSH: exit status 1 and the channel closed, git fails and leaves no clone", async () => {
    const target = join(server.work, "big-ssh");
    const clone = await server.git(["clone", viaSshProxy("acme/big"), target], {
      user: anna,
      via: "ssh",
    });
    expect(clone.code).not.toBe(0);
    // The reason goes on the channel's stderr too, but git, failing on the cut pack, may
    // exit before ssh prints it.
    expect(clone.stderr).toMatch(/early EOF|unexpected disconnect|time limit/);
    expect(existsSync(target)).toBe(false);
    expect(logged.join("\n")).toContain(
      "git over SSH acme/big: git-upload-pack ran past the server's time limit and was stopped; exit status 1",
    );
    expect(server.services.load()).toEqual({ running: 0, queued: 0 });
  }, 120_000);
});
