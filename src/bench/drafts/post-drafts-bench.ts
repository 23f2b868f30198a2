/**
 * The draft-write bench (the bench: "`POST …/drafts` p50/p99 and drafts/s with 20
 * concurrent writers"). Spawns a real `lore serve` (`dist/cli/main.js`) on 127.0.0.1 in a
 * temp folder with a Max test licence, creates `acme/bench` and raises the owner's draft
 * limit (a Max address), then runs, with 20 concurrent keep-alive clients over real HTTP:
 *
 * - the baseline: `GET /healthz` (no index, no database) under the same load;
 * - `POST /api/v1/repos/acme/bench/knowledge/drafts` with a title, a body (~600 bytes) and
 *   two words — the strict parse, the limit check and the insert of draft and entry.
 *
 * Prints p50 / p99 (ms), requests per second, and the ratio to the baseline. Writes nothing
 * outside the temp folder.
 *
 * Usage: `npm run bench:drafts` (with the delivery bench), or `npm run build && node
 * dist/bench/drafts/post-drafts-bench.js`; `BENCH_DRAFTS=N` sets the drafts written (default
 * 4,000), `BENCH_WRITERS=N` the concurrent writers (default 20).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type LatencyStats, summarize } from "../latency-stats.js";

const MAIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "cli", "main.js");

interface Served {
  child: ChildProcess;
  port: number;
  token: string;
}

function envOf(dir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    LORE_DB: join(dir, "index.db"),
    LORE_USER: "bench",
    LORE_LANG: "en",
    // The Max test licence of maxLicence (raising a draft limit is the Max edition's).
    LORE_LICENSE_PUBLIC_KEY: join(dir, "keys", "public.pem"),
  };
}

/**
 * Gives the server a Max test licence the way the README says: `lore license keygen`, `lore
 * license make`, `[server] license` in the user's lore.toml.
 */
async function maxLicence(dir: string): Promise<void> {
  const config = join(dir, "config", "lore");
  mkdirSync(config, { recursive: true });
  await lore(dir, ["license", "keygen", "--out", join(dir, "keys")]);
  await lore(dir, [
    "license",
    "make",
    "--edition",
    "max",
    "--licensee",
    "bench",
    "--key",
    join(dir, "keys", "private.pem"),
    "--out",
    join(config, "licence.json"),
  ]);
  writeFileSync(join(config, "lore.toml"), '[server]\nlicense = "licence.json"\n');
}

async function serve(dir: string): Promise<Served> {
  const child = spawn(process.execPath, [MAIN, "serve", "--port", "0", "--ssh-port", "0"], {
    cwd: dir,
    env: envOf(dir),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match = /serving MCP over HTTP at http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (match?.[1]) resolve(Number(match[1]));
    });
    child.on("close", (code) => reject(new Error(`lore serve exited ${code}: ${stderr}`)));
  });
  const token = readFileSync(join(dir, "data", "lore", "server", "owner-token"), "utf8").trim();
  return { child, port, token };
}

function lore(dir: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: dir, env: envOf(dir) });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`lore ${args[0]} ${code}`)),
    );
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One request; resolves the status once the answer is read whole. */
function call(
  port: number,
  token: string,
  method: string,
  path: string,
  body?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** `total` requests by `writers` concurrent clients; every answer must have `status`. */
async function load(
  writers: number,
  total: number,
  status: number,
  run: (i: number) => Promise<number>,
): Promise<{ stats: LatencyStats; perSecond: number }> {
  let next = 0;
  const samples: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < total) {
        const i = next++;
        const start = performance.now();
        const got = await run(i);
        samples.push(performance.now() - start);
        if (got !== status) throw new Error(`request ${i} answered ${got}, not ${status}`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { stats: summarize(samples), perSecond: total / seconds };
}

function line(name: string, r: { stats: LatencyStats; perSecond: number }): string {
  return `${name}: p50 ${r.stats.p50.toFixed(2)} ms, p99 ${r.stats.p99.toFixed(2)} ms, ${r.perSecond.toFixed(0)}/s (${r.stats.count} requests)`;
}

async function main(): Promise<void> {
  const total = Number(process.env.BENCH_DRAFTS ?? 4_000);
  const writers = Number(process.env.BENCH_WRITERS ?? 20);
  const dir = mkdtempSync(join(tmpdir(), "lore-post-drafts-bench-"));
  let served: Served | undefined;
  try {
    await maxLicence(dir);
    served = await serve(dir);
    await lore(dir, ["repo", "create", "acme/bench"]);
    const { port, token } = served;
    const limit = JSON.stringify({ limit: total + 1_000 });
    if (
      (await call(port, token, "PUT", "/api/v1/admin/knowledge/limits/users/bench", limit)) !== 200
    ) {
      throw new Error("could not raise the draft limit");
    }
    const body =
      "A migration applied as a superuser creates objects the next one cannot alter. ".repeat(8);
    const draft = (i: number) =>
      JSON.stringify({
        branch: `feature/${i % 50}`,
        title: `Bench draft ${i}`,
        body,
        words: ["bench", `topic${i % 100}`],
      });
    // Warm-up (not counted): the code paths, the statements, the connections.
    await load(writers, 200, 200, () => call(port, token, "GET", "/healthz"));
    await load(writers, 200, 201, (i) =>
      call(port, token, "POST", "/api/v1/repos/acme/bench/knowledge/drafts", draft(total + i)),
    );
    const baseline = await load(writers, total, 200, () => call(port, token, "GET", "/healthz"));
    const posts = await load(writers, total, 201, (i) =>
      call(port, token, "POST", "/api/v1/repos/acme/bench/knowledge/drafts", draft(i)),
    );
    console.log(
      `POST …/knowledge/drafts, ${writers} concurrent writers, real lore serve on 127.0.0.1`,
    );
    console.log(line("baseline GET /healthz", baseline));
    console.log(line("POST …/knowledge/drafts", posts));
    console.log(
      `ratio to the baseline: p50 ×${(posts.stats.p50 / baseline.stats.p50).toFixed(1)}, p99 ×${(posts.stats.p99 / baseline.stats.p99).toFixed(1)}, throughput ×${(posts.perSecond / baseline.perSecond).toFixed(2)}`,
    );
  } finally {
    agent.destroy();
    served?.child.kill("SIGTERM");
    await new Promise((resolve) =>
      served ? served.child.once("close", resolve) : resolve(undefined),
    );
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
