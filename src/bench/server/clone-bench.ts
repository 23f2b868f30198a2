/**
 * Clone bench of the team server (seed 004, team server; git over HTTP): `git clone` of a
 * repository of 100,000 files over Lore's smart HTTP (the git routes on `@hono/node-server`,
 * `git http-backend` behind them, a token in `http.extraHeader`) against `git clone` of the
 * same bare repository over the local file protocol (`file://`, git's own pack protocol
 * without a network), same run, same machine. Reports the median of each and the ratio,
 * for a full clone (with checkout) and for `--no-checkout` (the transport alone).
 *
 * Run: `npm run build && node dist/bench/server/clone-bench.js`. Sizes: `CLONE_FILES`
 * (100000), `CLONE_RUNS` (3).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { initBareRepo } from "../../adapters/git-cli/init-bare.js";
import { createGitServices } from "../../adapters/git-cli/spawn-git-service.js";
import { gitHttpRoutes } from "../../http/git/git-http-routes.js";
import { openServerStore } from "../../main/open-server.js";
import { createRepo } from "../../services/access/hosted-repos.js";
import { createToken } from "../../services/access/tokens.js";
import { addUser } from "../../services/access/users.js";

const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
};

/** Runs git as a client (no shell, no user or system config), resolving with its exit code. */
function git(
  args: readonly string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { env, shell: false, stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => {
      stderr += text;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stderr }));
    child.stdin.end(input);
  });
}

/** A fast-import stream: one commit of `count` small files in folders of 1,000. */
function fastImportStream(count: number): string {
  const parts = ["commit refs/heads/main\n", "committer Bench <b@example.com> 1700000000 +0000\n"];
  const message = `${count}-file bench\n`;
  parts.push(`data ${Buffer.byteLength(message)}\n${message}`);
  for (let at = 0; at < count; at += 1) {
    const body = `file ${at}\n${"lorem ipsum ".repeat(1 + (at % 7))}\n`;
    const path = `d${Math.floor(at / 1000)}/f${at}.txt`;
    parts.push(`M 100644 inline ${path}\ndata ${Buffer.byteLength(body)}\n${body}\n`);
  }
  return parts.join("");
}

/** The median; of an even count, the mean of the two middle values. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function main(): Promise<void> {
  const files = envInt("CLONE_FILES", 100_000);
  const runs = envInt("CLONE_RUNS", 3);
  const root = mkdtempSync(join(tmpdir(), "lore-clone-bench-"));
  const dataDir = join(root, "data");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: root,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    LC_ALL: "C",
  };
  const store = await openServerStore(dataDir);
  const git0 = createGitServices();
  const http = serve({
    fetch: new Hono().route("/", gitHttpRoutes({ store, dataDir, git: git0 })).fetch,
    port: 0,
    hostname: "127.0.0.1",
  });
  try {
    await new Promise<void>((resolve) => {
      if (http.listening) resolve();
      else http.once("listening", () => resolve());
    });
    const port = (http.address() as AddressInfo).port;
    const now = Date.now();
    await addUser(store, { name: "bench", now });
    const { secret } = await createToken(store, { user: "bench", scopes: ["repo:read"], now });
    const { dir } = await createRepo(
      { store, dataDir, initBare: initBareRepo },
      { fullName: "acme/big", now },
    );
    await store.grant({
      repoId: (await store.getRepo("acme/big"))?.id ?? 0,
      subject: { kind: "user", id: (await store.getUser("bench"))?.id ?? 0 },
      level: "read",
    });
    const started = Date.now();
    const imported = await git(
      ["--git-dir", dir, "fast-import", "--quiet"],
      env,
      fastImportStream(files),
    );
    if (imported.code !== 0) throw new Error(`fast-import failed: ${imported.stderr}`);
    await git(["--git-dir", dir, "repack", "-a", "-d", "-q"], env);
    process.stdout.write(
      `repository of ${files} files made in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );

    const header = `http.extraHeader=Authorization: Bearer ${secret}`;
    const httpUrl = `http://127.0.0.1:${port}/acme/big.git`;
    const fileUrl = `file://${dir}`;
    const results: { mode: string; transport: string; ms: number[] }[] = [];
    for (const mode of ["full clone", "--no-checkout"]) {
      const extra = mode === "--no-checkout" ? ["--no-checkout"] : [];
      const timings: Record<string, number[]> = { http: [], file: [] };
      for (let run = 0; run < runs; run += 1) {
        // Alternate the order, so neither transport always gets the warm cache.
        const order = run % 2 === 0 ? ["http", "file"] : ["file", "http"];
        for (const transport of order) {
          const target = join(root, `clone-${transport}-${run}-${extra.length}`);
          const args =
            transport === "http"
              ? ["-c", header, "clone", "-q", ...extra, httpUrl, target]
              : ["clone", "-q", ...extra, fileUrl, target];
          const t0 = process.hrtime.bigint();
          const done = await git(args, env);
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          if (done.code !== 0) throw new Error(`${transport} clone failed: ${done.stderr}`);
          timings[transport]?.push(ms);
          process.stdout.write(
            `${mode}, run ${run + 1}, ${transport}: ${(ms / 1000).toFixed(2)} s\n`,
          );
          rmSync(target, { recursive: true, force: true });
        }
      }
      results.push({ mode, transport: "http", ms: timings.http ?? [] });
      results.push({ mode, transport: "file", ms: timings.file ?? [] });
    }
    const lines = [
      `git clone of ${files} files, ${runs} runs each, ${cpus().length} CPUs, git over Lore's smart HTTP vs file://`,
      "",
      "| clone | Lore HTTP, median | file://, median | ratio HTTP / file |",
      "| ----- | ----------------- | --------------- | ----------------- |",
    ];
    const summary: Record<string, { httpMs: number; fileMs: number; ratio: number }> = {};
    for (const mode of ["full clone", "--no-checkout"]) {
      const httpMs = median(
        results.find((r) => r.mode === mode && r.transport === "http")?.ms ?? [0],
      );
      const fileMs = median(
        results.find((r) => r.mode === mode && r.transport === "file")?.ms ?? [0],
      );
      const ratio = httpMs / fileMs;
      summary[mode] = {
        httpMs: Math.round(httpMs),
        fileMs: Math.round(fileMs),
        ratio: Number(ratio.toFixed(2)),
      };
      lines.push(
        `| ${mode} | ${(httpMs / 1000).toFixed(2)} s | ${(fileMs / 1000).toFixed(2)} s | ${ratio.toFixed(2)} |`,
      );
    }
    process.stdout.write(`${lines.join("\n")}\n\n${JSON.stringify({ files, runs, summary })}\n`);
  } finally {
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await store.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`clone bench failed: ${String(error)}\n`);
  process.exitCode = 1;
});
