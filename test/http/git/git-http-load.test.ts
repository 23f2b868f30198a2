import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ClientRun,
  type GitTestServer,
  runProgram,
  startGitServer,
  type TestUser,
} from "../../helpers/git-server.js";

/**
 * Git over HTTP and SSH under load (seed 004, team server; bad input at the door): a 50 MB
 * pack both ways over both transports, a 100 MB push whose memory the server never holds
 * (its RSS growth is measured), and 200 concurrent fetches on 127.0.0.1 — each a success
 * or a clear 503, the server alive after.
 */
let server: GitTestServer;
let anna: TestUser;

const MB = 1024 * 1024;

/** Writes `count` files of `mb` MiB of random bytes (incompressible) into `dir`, by `head`. */
async function randomFiles(dir: string, count: number, mb: number, prefix: string): Promise<void> {
  const made = await runProgram(
    "sh",
    [
      "-c",
      `mkdir -p "$1" && i=0; while [ $i -lt $2 ]; do head -c ${Math.round(mb * MB)} /dev/urandom > "$1/$3$i.bin"; i=$((i+1)); done`,
      "sh",
      dir,
      String(count),
      prefix,
    ],
    { env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
  );
  expect(made.code, made.stderr).toBe(0);
}

async function commitAll(dir: string, message: string): Promise<void> {
  // Random bytes do not compress: level 0 spares the client (not the server) the zlib time.
  expect((await server.git(["-C", dir, "config", "core.compression", "0"], {})).code).toBe(0);
  expect((await server.git(["-C", dir, "add", "-A"], {})).code).toBe(0);
  const commit = await server.git(["-C", dir, "commit", "-q", "-m", message], {});
  expect(commit.code, commit.stderr).toBe(0);
}

beforeAll(async () => {
  server = await startGitServer();
  anna = await server.addUser("anna");
});
afterAll(() => server.close());

describe("big packs", () => {
  it("a 50 MB pack is pushed and cloned over HTTP and over SSH", { timeout: 300_000 }, async () => {
    for (const via of ["http", "ssh"] as const) {
      const repo = `acme/big-${via}`;
      await server.createRepo(repo);
      await server.grant("anna", repo, "write");
      const src = join(server.work, `big-${via}`);
      await server.git(["init", "-q", "-b", "main", src], {});
      await randomFiles(src, 2, 25, "blob");
      await commitAll(src, "50 MB of random blobs");
      const push = await server.git(["-C", src, "push", "-q", server.url(repo, via), "main"], {
        user: anna,
        via,
      });
      expect(push.code, push.stderr).toBe(0);
      const copy = join(server.work, `big-${via}-clone`);
      const clone = await server.git(["clone", "-q", server.url(repo, via), copy], {
        user: anna,
        via,
      });
      expect(clone.code, clone.stderr).toBe(0);
      const [a, b] = await Promise.all(
        [src, copy].map((dir) => server.git(["-C", dir, "rev-parse", "HEAD^{tree}"], {})),
      );
      expect(b?.stdout).toBe(a?.stdout);
      const size = await runProgram("du", ["-sk", join(server.dataDir, "repos", `${repo}.git`)], {
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      });
      expect(Number.parseInt(size.stdout, 10) * 1024).toBeGreaterThan(50 * MB);
    }
  });

  it("a 100 MB push streams: the server's RSS grows far less than the push", {
    timeout: 300_000,
  }, async () => {
    await server.createRepo("acme/huge");
    await server.grant("anna", "acme/huge", "write");
    const src = join(server.work, "huge");
    await server.git(["init", "-q", "-b", "main", src], {});
    await randomFiles(src, 4, 25, "blob");
    await commitAll(src, "100 MB of random blobs");
    globalThis.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    // Chunked transfer (git's post buffer is 1 MiB), so nothing tells the server the size.
    const push = await server.git(
      ["-C", src, "push", "-q", server.url("acme/huge", "http"), "main"],
      {
        user: anna,
      },
    );
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(push.code, push.stderr).toBe(0);
    const growth = peak - baseline;
    console.log(
      `100 MB push over HTTP: server RSS ${Math.round(baseline / MB)} MB before, peak growth ${(growth / MB).toFixed(1)} MB`,
    );
    expect(growth).toBeLessThan(30 * MB);
  });
});

describe("200 concurrent fetches", () => {
  const clean = (run: ClientRun) => run.code === 0;
  const busy = (run: ClientRun) => run.code !== 0 && /\b503\b|server_busy/.test(run.stderr);

  beforeAll(async () => {
    await server.createRepo("acme/app", { public: true });
    await server.grant("anna", "acme/app", "write");
    const src = join(server.work, "app");
    await server.git(["init", "-q", "-b", "main", src], {});
    await randomFiles(src, 2, 0.01, "small");
    await commitAll(src, "small");
    expect(
      (
        await server.git(["-C", src, "push", "-q", server.url("acme/app", "http"), "main"], {
          user: anna,
        })
      ).code,
    ).toBe(0);
  });

  it("with the default bound (32 git processes, 256 waiting) every one succeeds or gets a clear 503", {
    timeout: 300_000,
  }, async () => {
    const runs = await Promise.all(
      Array.from({ length: 200 }, (_, at) =>
        server.git(
          ["clone", "-q", server.url("acme/app", "http"), join(server.work, `c200-${at}`)],
          {
            user: anna,
          },
        ),
      ),
    );
    const odd = runs.filter((run) => !clean(run) && !busy(run));
    expect(odd.map((run) => run.stderr)).toEqual([]);
    console.log(
      `200 concurrent clones: ${runs.filter(clean).length} succeeded, ${runs.filter(busy).length} got 503`,
    );
    expect(runs.filter(clean).length).toBeGreaterThan(0);
    expect(server.services.load()).toEqual({ running: 0, queued: 0 });
  });

  it("with a tight bound the rest get 503 server_busy, and the server goes on", {
    timeout: 300_000,
  }, async () => {
    const tight = await startGitServer({ ssh: false, limits: { maxProcesses: 2, maxQueue: 4 } });
    try {
      const user = await tight.addUser("anna");
      await tight.createRepo("acme/app", { public: true });
      await tight.grant("anna", "acme/app", "write");
      const src = join(server.work, "app");
      expect(
        (
          await tight.git(["-C", src, "push", "-q", tight.url("acme/app", "http"), "main"], {
            user,
          })
        ).code,
      ).toBe(0);
      const runs = await Promise.all(
        Array.from({ length: 200 }, (_, at) =>
          tight.git(["fetch", "-q", tight.url("acme/app", "http"), "main"], {
            user,
            cwd: src,
            env: { GIT_DIR: join(src, ".git"), GIT_WORK_TREE: src, __AT: String(at) },
          }),
        ),
      );
      const odd = runs.filter((run) => !clean(run) && !busy(run));
      expect(odd.map((run) => run.stderr)).toEqual([]);
      console.log(
        `200 concurrent fetches, bound 2+4: ${runs.filter(clean).length} succeeded, ${runs.filter(busy).length} got 503`,
      );
      expect(runs.filter(busy).length).toBeGreaterThan(0);
      const after = await tight.git(["ls-remote", tight.url("acme/app", "http")], { user });
      expect(after.code, after.stderr).toBe(0);
    } finally {
      await tight.close();
    }
  });
});
