import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBareRepo } from "./init-bare.js";
import { createGitServices } from "./spawn-git-service.js";

describe("createGitServices", () => {
  let root: string;
  let repoDir: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "lore-git-services-"));
    repoDir = join(root, "acme", "app.git");
    await initBareRepo(repoDir, "main");
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("bounds running processes, queues the next, refuses past the queue, lets a wait be cancelled", async () => {
    const services = createGitServices({ maxProcesses: 1, maxQueue: 1 });
    const spec = { kind: "git-upload-pack" as const, repoDir, pusher: "anna" };
    const first = await services.start(spec);
    const cancel = new AbortController();
    const second = services.start(spec, cancel.signal);
    expect(services.load()).toEqual({ running: 1, queued: 1 });
    await expect(services.start(spec)).rejects.toMatchObject({
      code: "server_busy",
      message:
        "the server is busy: 1 git processes are running and 1 are waiting; try again shortly",
    });
    cancel.abort();
    await expect(second).rejects.toMatchObject({ code: "cancelled" });
    expect(services.load()).toEqual({ running: 1, queued: 0 });
    const third = services.start(spec);
    // upload-pack ends by itself when its client closes its input.
    first.stdin.end();
    first.stdout.resume();
    first.stderr.resume();
    expect(await first.done).toMatchObject({ signal: null, timedOut: false });
    const next = await third;
    expect(services.load()).toEqual({ running: 1, queued: 0 });
    next.kill();
    expect((await next.done).signal).toBe("SIGKILL");
    expect(services.load()).toEqual({ running: 0, queued: 0 });
  });

  it("kills a process at the time limit and says so", async () => {
    const services = createGitServices({ timeoutMs: 300 });
    const git = await services.start({ kind: "git-receive-pack", repoDir, pusher: "anna" });
    git.stdout.resume();
    git.stderr.resume();
    expect(await git.done).toEqual({ code: null, signal: "SIGKILL", timedOut: true });
  });
});
