/**
 * `npm run bench`: for each N (default 10,000 and 100,000; override with `BENCH_SIZES=2000`
 * or `BENCH_SIZES=10000,50000`) generates (or reuses) a repository of N synthetic entries,
 * then measures in one run, each against a baseline measured in the same run: index build
 * from git vs the cat-file + raw FTS5 floor, the index's size vs the text, recall and search
 * latency p50/p99 over a mixed query set, ripgrep per query, peak RSS while indexing,
 * `lore mcp` cold start to first answer vs a minimal SDK server, recall latency over MCP and
 * the server's peak RSS — and the same figures of qmd, the closest peer (`peer-qmd.ts`;
 * `BENCH_PEERS=0` skips it). Writes `bench/results.json` and `bench/results.md` and prints
 * the table. `BENCH_SEED` changes the corpus (default 1). `BENCH_ONLY=size` only builds
 * (floor and Lore) and prints the index size and its parts (see `benchSizeOnly`);
 * `BENCH_ONLY=mcp` only measures recall over MCP, in rounds (see `benchMcpOnly`).
 */
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { type BenchRepo, ensureBenchRepo } from "./generate-entries.js";
import type { IndexWorkerResult } from "./index-worker.js";
import { type LatencyStats, summarize, timeQueries } from "./latency-stats.js";
import { openBenchIndex } from "./lore-under-test.js";
import {
  COLD_START_QUERY,
  loreMcpTarget,
  type McpColdStartResult,
  measureMcpColdStarts,
} from "./mcp-bench.js";
import { measureColdStart } from "./mcp-cold-start.js";
import { type McpCall, type McpLatencyResult, measureMcpLatency } from "./mcp-latency.js";
import {
  buildQmdIndex,
  ensureQmd,
  fileBytes,
  PEER_NODE_VERSION,
  type QmdBuild,
  type QmdInstall,
  qmdCall,
  qmdColdStartTarget,
  qmdServer,
  type Skipped,
} from "./peer-qmd.js";
import { type BenchQuery, buildQuerySet, ripgrepQueries } from "./query-set.js";
import { formatMs, formatRatio, type ResultRow, renderTable, yesNo } from "./results-table.js";
import { ripgrepVersion, timeRipgrep } from "./ripgrep-baseline.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const MB = 1024 * 1024;

/** The targets (stated for 100k entries). */
const TARGETS = {
  indexRatio: 1.5,
  recallP99Ms: 5,
  searchP99Ms: 20,
  ripgrepRatio: 100,
  peakRssBytes: 400 * MB,
  /** Index file size ÷ bytes of the entry files. */
  indexSizeRatio: 1.5,
  /** Peak RSS of `lore mcp` serving the recall query set. */
  mcpRssBytes: 150 * MB,
  /** Recall over MCP: p99 ÷ p50. */
  mcpTailRatio: 3,
  /** `lore mcp` cold start ÷ the minimal SDK server's. */
  coldStartRatio: 1.2,
} as const;

/** Timed calls over MCP at least (whole passes of the query set, after one untimed pass). */
const MCP_MIN_SAMPLES = 240;

/** Timed passes of `calls` that reach {@link MCP_MIN_SAMPLES}. */
const mcpPasses = (calls: readonly unknown[]): number =>
  Math.max(1, Math.ceil(MCP_MIN_SAMPLES / calls.length));

/** Cold starts of each server per N. */
const COLD_START_RUNS = 5;

interface LatencyReport {
  all: LatencyStats;
  byCategory: Record<string, LatencyStats & { meanTotal: number }>;
}

interface SizeReport {
  n: number;
  seed: number;
  repo: { dir: string; files: number; bytes: number; cached: boolean; generateMs: number };
  index: {
    lore: IndexWorkerResult & { entriesPerSec: number; mbPerSec: number };
    floor: IndexWorkerResult & { entriesPerSec: number; mbPerSec: number };
    ratio: number;
  };
  /** Bytes of Lore's index file after the build, and ÷ the entry files' bytes. */
  size: { loreBytes: number; ratio: number };
  recall: LatencyReport;
  /** The same recall filtered to the bench repository, as the team server filters by rights. */
  recallWithin: LatencyReport;
  search: LatencyReport;
  /** `lore mcp` on this corpus: cold starts (with the minimal server and qmd) and recall over MCP. */
  mcp:
    | { coldStart: McpColdStartResult & { peerError?: string }; recall: McpLatencyResult }
    | Skipped;
  /** qmd on this corpus. */
  qmd:
    | (Skipped & { stage?: string })
    | { version: string; build: QmdBuild; sizeRatio: number; mcp: McpLatencyResult | Skipped };
  ripgrep:
    | { skipped: string }
    | {
        samples: { query: string; ms: number; matches: number }[];
        p50: number;
        ratioToSearchP99: number;
      };
}

function parseSizes(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === "") return [10_000, 100_000];
  const sizes = raw
    .split(/[,\s]+/)
    .filter(Boolean)
    .map((s) => Number(s.replace(/_/g, "")));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`BENCH_SIZES must list positive whole numbers, got “${raw}”`);
  }
  return sizes;
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Reads the repository's pack files once so both index builds start with a warm page cache. */
function warmPackFiles(repoDir: string): void {
  const packDir = join(repoDir, ".git", "objects", "pack");
  const buffer = Buffer.allocUnsafe(8 * MB);
  for (const name of readdirSync(packDir)) {
    const fd = openSync(join(packDir, name), "r");
    while (readSync(fd, buffer, 0, buffer.length, null) > 0) {}
    closeSync(fd);
  }
}

function runIndexWorker(
  mode: "lore" | "floor",
  repo: BenchRepo,
  dbFile: string,
): Promise<IndexWorkerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(HERE, "index-worker.js"), mode, repo.dir, repo.commit, dbFile],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const last = out.trim().split("\n").pop() ?? "";
      if (code !== 0 || last === "")
        reject(new Error(`index worker (${mode}) exited with ${code}`));
      else resolve(JSON.parse(last) as IndexWorkerResult);
    });
  });
}

function withRates(
  r: IndexWorkerResult,
): IndexWorkerResult & { entriesPerSec: number; mbPerSec: number } {
  return { ...r, entriesPerSec: r.files / (r.ms / 1000), mbPerSec: r.bytes / MB / (r.ms / 1000) };
}

async function measureLatency(
  queries: BenchQuery[],
  run: (q: BenchQuery) => number,
): Promise<LatencyReport> {
  const totals = new Map<BenchQuery, number>();
  const timings = await timeQueries(
    queries,
    (q) => {
      totals.set(q, run(q));
    },
    { warmupPasses: 1, minSamples: 240 },
  );
  const byCategory: LatencyReport["byCategory"] = {};
  for (const category of new Set(queries.map((q) => q.category))) {
    const inCategory = queries.filter((q) => q.category === category);
    const meanTotal = inCategory.reduce((s, q) => s + (totals.get(q) ?? 0), 0) / inCategory.length;
    byCategory[category] = {
      ...summarize(timings.filter((t) => t.query.category === category).map((t) => t.ms)),
      meanTotal,
    };
  }
  return { all: summarize(timings.map((t) => t.ms)), byCategory };
}

/** The recall query set as `knowledge_recall` calls. */
function loreCalls(queries: readonly BenchQuery[]): McpCall[] {
  return queries.map((q) => ({
    category: q.category,
    tool: "knowledge_recall",
    arguments: {
      ...(q.query === undefined ? {} : { query: q.query }),
      ...(q.tool === undefined ? {} : { tool: q.tool }),
    },
  }));
}

/**
 * Recall over MCP: one `lore mcp` on `dbFile` (already built) serves the recall query set,
 * one untimed pass then timed passes (at least {@link MCP_MIN_SAMPLES} calls).
 */
async function loreMcpRecall(repo: BenchRepo, dbFile: string): Promise<McpLatencyResult> {
  const { command, args, cwd, env } = loreMcpTarget(repo, ROOT, dbFile);
  const calls = loreCalls(buildQuerySet({ tools: true }));
  return measureMcpLatency(
    {
      command,
      args,
      ...(cwd === undefined ? {} : { cwd }),
      ...(env === undefined ? {} : { env }),
    },
    calls,
    { passes: mcpPasses(calls), apart: "tool" },
  );
}

/** `lore mcp` cold starts (beside the minimal server and qmd) and recall over MCP at this N. */
async function benchLoreMcp(
  repo: BenchRepo,
  work: string,
  qmd: { install: QmdInstall; home: string } | undefined,
): Promise<SizeReport["mcp"]> {
  const dbFile = join(work, `mcp-${repo.files}`, "index.db");
  mkdirSync(dirname(dbFile), { recursive: true });
  try {
    const coldStart = await measureMcpColdStarts(
      repo,
      ROOT,
      dbFile,
      COLD_START_RUNS,
      qmd === undefined
        ? undefined
        : {
            name: "qmd",
            target: qmdColdStartTarget(qmd.install, qmd.home, repo.dir, COLD_START_QUERY),
          },
    );
    log(`N=${repo.files}: recall over MCP (lore mcp)…`);
    const recall = await loreMcpRecall(repo, dbFile);
    return { coldStart, recall };
  } catch (error) {
    return { skipped: String(error instanceof Error ? error.message : error).split("\n")[0] ?? "" };
  } finally {
    rmSync(dirname(dbFile), { recursive: true, force: true });
  }
}

/** Builds qmd's index of the corpus (time, RSS, size) and times its BM25 over MCP. */
async function benchQmdBuild(
  install: QmdInstall | Skipped,
  repo: BenchRepo,
  home: string,
): Promise<SizeReport["qmd"]> {
  if ("skipped" in install) return install;
  try {
    log(`N=${repo.files}: qmd ${install.version} index build…`);
    const build = await buildQmdIndex(install, repo.dir, home);
    log(
      `N=${repo.files}: qmd build ${formatMs(build.ms)}, peak RSS ${(build.maxRssBytes / MB).toFixed(0)} MB`,
    );
    return {
      version: install.version,
      build,
      sizeRatio: build.indexBytes / repo.bytes,
      mcp: { skipped: "not run yet" },
    };
  } catch (error) {
    return {
      skipped: String(error instanceof Error ? error.message : error).slice(0, 300),
      stage: "build",
    };
  }
}

async function benchQmdMcp(
  install: QmdInstall,
  repo: BenchRepo,
  home: string,
): Promise<McpLatencyResult | Skipped> {
  try {
    log(`N=${repo.files}: qmd over MCP…`);
    const calls = buildQuerySet({ tools: false }).map(qmdCall);
    return await measureMcpLatency(qmdServer(install, home, repo.dir), calls, {
      passes: mcpPasses(calls),
    });
  } catch (error) {
    return { skipped: String(error instanceof Error ? error.message : error).slice(0, 300) };
  }
}

async function benchSize(
  n: number,
  seed: number,
  work: string,
  qmdInstall: QmdInstall | Skipped,
): Promise<SizeReport> {
  log(`N=${n}: generating or reusing the repository…`);
  const repo = await ensureBenchRepo(n, seed);
  log(
    `N=${n}: repository ${repo.dir} (${repo.files} files, ${(repo.bytes / MB).toFixed(1)} MB, ` +
      `${repo.cached ? "cached" : `generated in ${formatMs(repo.generateMs)}`})`,
  );
  warmPackFiles(repo.dir);
  log(`N=${n}: floor (cat-file + raw FTS5)…`);
  const floor = withRates(await runIndexWorker("floor", repo, join(work, `floor-${n}.db`)));
  rmSync(join(work, `floor-${n}.db`), { force: true });
  log(`N=${n}: floor ${formatMs(floor.ms)}; Lore indexRepository…`);
  const loreDb = join(work, `lore-${n}.db`);
  const lore = withRates(await runIndexWorker("lore", repo, loreDb));
  const loreBytes = fileBytes(loreDb);
  log(
    `N=${n}: Lore ${formatMs(lore.ms)}, peak RSS ${(lore.maxRssBytes / MB).toFixed(0)} MB, ` +
      `index ${(loreBytes / MB).toFixed(1)} MB (${(loreBytes / repo.bytes).toFixed(2)}× the text)`,
  );
  globalThis.gc?.();

  const index = openBenchIndex(loreDb);
  let recall: LatencyReport;
  let recallWithin: LatencyReport;
  let search: LatencyReport;
  try {
    log(`N=${n}: recall latency…`);
    recall = await measureLatency(buildQuerySet({ tools: true }), (q) => index.recall(q));
    log(`N=${n}: recall filtered to the repository…`);
    recallWithin = await measureLatency(buildQuerySet({ tools: true }), (q) =>
      index.recallWithin(q),
    );
    log(`N=${n}: search latency…`);
    search = await measureLatency(buildQuerySet({ tools: false }), (q) =>
      index.search(q.query ?? ""),
    );
  } finally {
    index.close();
  }

  let ripgrep: SizeReport["ripgrep"];
  if (ripgrepVersion() === null) {
    ripgrep = { skipped: "rg not on PATH (apt-get install -y ripgrep)" };
  } else {
    log(`N=${n}: ripgrep…`);
    const samples = timeRipgrep(repo.dir, ripgrepQueries());
    const p50 = summarize(samples.map((s) => s.ms)).p50;
    ripgrep = { samples, p50, ratioToSearchP99: p50 / search.all.p99 };
  }
  rmSync(loreDb, { force: true });

  const qmdHome = join(work, `qmd-${n}`);
  const qmd = await benchQmdBuild(qmdInstall, repo, qmdHome);
  const qmdReady =
    "skipped" in qmd || "skipped" in qmdInstall
      ? undefined
      : { install: qmdInstall, home: qmdHome };
  log(`N=${n}: lore mcp cold start${qmdReady ? " (beside qmd)" : ""}…`);
  const mcp = await benchLoreMcp(repo, work, qmdReady);
  if (qmdReady !== undefined && !("skipped" in qmd)) {
    qmd.mcp = await benchQmdMcp(qmdReady.install, repo, qmdHome);
  }
  rmSync(qmdHome, { recursive: true, force: true });
  const { dir, files, bytes, cached, generateMs } = repo;
  return {
    n,
    seed,
    repo: { dir, files, bytes, cached, generateMs },
    index: { lore, floor, ratio: lore.ms / floor.ms },
    size: { loreBytes, ratio: loreBytes / repo.bytes },
    recall,
    recallWithin,
    search,
    mcp,
    qmd,
    ripgrep,
  };
}

function machineInfo(): Record<string, unknown> {
  const db = new Database(":memory:");
  const sqlite = (db.prepare("select sqlite_version() as v").get() as { v: string }).v;
  db.close();
  const gitVersion = spawnSync("git", ["--version"], { encoding: "utf8" }).stdout.trim();
  return {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryMB: Math.round(totalmem() / MB),
    platform: `${process.platform} ${process.arch}`,
    node: process.version,
    sqlite,
    git: gitVersion,
    ripgrep: ripgrepVersion(),
    // A busy machine makes every figure noisy: the 1-minute load average at the start.
    loadAverageAtStart: loadavg()[0],
  };
}

function sizeRows(s: SizeReport): ResultRow[] {
  const at = ` (N=${s.n.toLocaleString("en-US")})`;
  const build = (r: SizeReport["index"]["lore"]): string =>
    `${formatMs(r.ms)} (CPU ${formatMs(r.cpuMs)}) · ${Math.round(r.entriesPerSec)} entries/s · ${r.mbPerSec.toFixed(1)} MB/s`;
  const rows: ResultRow[] = [
    {
      metric: `index build from git${at}`,
      value: build(s.index.lore),
      baseline: `floor ${build(s.index.floor)}`,
      ratio: formatRatio(s.index.ratio),
      target: `≤ ${TARGETS.indexRatio}× floor`,
      met: yesNo(s.index.ratio <= TARGETS.indexRatio),
    },
    {
      metric: `peak RSS while indexing${at}`,
      value: `${(s.index.lore.maxRssBytes / MB).toFixed(0)} MB`,
      baseline: `floor ${(s.index.floor.maxRssBytes / MB).toFixed(0)} MB`,
      ratio: formatRatio(s.index.lore.maxRssBytes / s.index.floor.maxRssBytes),
      target: "≤ 400 MB",
      met: yesNo(s.index.lore.maxRssBytes <= TARGETS.peakRssBytes),
    },
    {
      metric: `recall p50 / p99${at}, ${s.recall.all.count} queries`,
      value: `${formatMs(s.recall.all.p50)} / ${formatMs(s.recall.all.p99)}`,
      baseline: "—",
      ratio: "—",
      target: `p99 ≤ ${TARGETS.recallP99Ms} ms`,
      met: yesNo(s.recall.all.p99 <= TARGETS.recallP99Ms),
    },
    {
      metric: `recall filtered to the repository (the team server's rights) p50 / p99${at}`,
      value: `${formatMs(s.recallWithin.all.p50)} / ${formatMs(s.recallWithin.all.p99)}`,
      baseline: `unfiltered p99 ${formatMs(s.recall.all.p99)}`,
      ratio: formatRatio(s.recallWithin.all.p99 / s.recall.all.p99),
      target: `p99 ≤ ${TARGETS.recallP99Ms} ms`,
      met: yesNo(s.recallWithin.all.p99 <= TARGETS.recallP99Ms),
    },
    {
      metric: `search p50 / p99${at}, ${s.search.all.count} queries`,
      value: `${formatMs(s.search.all.p50)} / ${formatMs(s.search.all.p99)}`,
      baseline: "—",
      ratio: "—",
      target: `p99 ≤ ${TARGETS.searchP99Ms} ms`,
      met: yesNo(s.search.all.p99 <= TARGETS.searchP99Ms),
    },
  ];
  if ("skipped" in s.ripgrep) {
    rows.push({
      metric: `ripgrep per query${at}`,
      value: `skipped: ${s.ripgrep.skipped}`,
      baseline: "—",
      ratio: "—",
      target: `≥ ${TARGETS.ripgrepRatio}× search`,
      met: "—",
    });
  } else {
    rows.push({
      metric: `search vs ripgrep${at} (rg p50 ÷ search p99)`,
      value: `search p99 ${formatMs(s.search.all.p99)}`,
      baseline: `rg -i -l -F p50 ${formatMs(s.ripgrep.p50)}`,
      ratio: formatRatio(s.ripgrep.ratioToSearchP99),
      target: `≥ ${TARGETS.ripgrepRatio}×`,
      met: yesNo(s.ripgrep.ratioToSearchP99 >= TARGETS.ripgrepRatio),
    });
  }
  return rows;
}

const mb = (bytes: number): string => `${(bytes / MB).toFixed(0)} MB`;

/** Rows of `lore mcp` and of qmd at one N. */
function mcpRows(s: SizeReport): ResultRow[] {
  const at = ` (N=${s.n.toLocaleString("en-US")})`;
  const rows: ResultRow[] = [];
  const qmd = "skipped" in s.qmd ? undefined : s.qmd;
  if (qmd !== undefined) {
    rows.push({
      metric: `index build, Lore vs qmd ${qmd.version}${at}`,
      value: `Lore ${formatMs(s.index.lore.ms)}`,
      baseline: `qmd ${formatMs(qmd.build.ms)}`,
      ratio: formatRatio(s.index.lore.ms / qmd.build.ms),
      target: "—",
      met: "—",
    });
    rows.push({
      metric: `peak RSS while indexing, Lore vs qmd${at}`,
      value: `Lore ${mb(s.index.lore.maxRssBytes)}`,
      baseline: `qmd ${mb(qmd.build.maxRssBytes)}`,
      ratio: formatRatio(s.index.lore.maxRssBytes / qmd.build.maxRssBytes),
      target: "—",
      met: "—",
    });
  }
  rows.push({
    metric: `index size ÷ entry files' bytes${at}`,
    value: `${(s.size.loreBytes / MB).toFixed(1)} MB (${s.size.ratio.toFixed(2)}×)`,
    baseline:
      qmd === undefined
        ? `text ${(s.repo.bytes / MB).toFixed(1)} MB`
        : `text ${(s.repo.bytes / MB).toFixed(1)} MB; qmd ${(qmd.build.indexBytes / MB).toFixed(1)} MB (${qmd.sizeRatio.toFixed(2)}×)`,
    ratio: formatRatio(s.size.ratio),
    target: `≤ ${TARGETS.indexSizeRatio}× text`,
    met: yesNo(s.size.ratio <= TARGETS.indexSizeRatio),
  });
  if ("skipped" in s.mcp) {
    rows.push({
      metric: `\`lore mcp\`${at}`,
      value: `failed: ${s.mcp.skipped}`,
      baseline: "—",
      ratio: "—",
      target: "—",
      met: "—",
    });
    return rows;
  }
  const { coldStart, recall } = s.mcp;
  const peer = coldStart.peer;
  const coldRatio = coldStart.loreMedianMs / coldStart.baselineMedianMs;
  rows.push({
    metric: `\`lore mcp\` cold start → first recall${at}, median of ${coldStart.lore.length}`,
    value: formatMs(coldStart.loreMedianMs),
    baseline:
      `minimal SDK server ${formatMs(coldStart.baselineMedianMs)}` +
      (peer === undefined
        ? ""
        : `; qmd ${formatMs(peer.medianMs)} (Lore/qmd ${formatRatio(coldStart.loreMedianMs / peer.medianMs)})`),
    ratio: formatRatio(coldRatio),
    target: `≤ ${TARGETS.coldStartRatio}× minimal`,
    met: yesNo(coldRatio <= TARGETS.coldStartRatio),
  });
  const tail = recall.all.p99 / recall.all.p50;
  const qmdMcp = qmd === undefined || "skipped" in qmd.mcp ? undefined : qmd.mcp;
  const text = recall.allButApart ?? recall.all;
  rows.push({
    metric: `recall over MCP p50 / p99${at}, ${recall.all.count} calls`,
    value: `${formatMs(recall.all.p50)} / ${formatMs(recall.all.p99)} (p99 = ${tail.toFixed(1)}× p50)`,
    baseline:
      qmdMcp === undefined
        ? "—"
        : `text queries: Lore ${formatMs(text.p50)} / ${formatMs(text.p99)}; qmd lex ${formatMs(qmdMcp.all.p50)} / ${formatMs(qmdMcp.all.p99)}`,
    ratio: qmdMcp === undefined ? "—" : `qmd/Lore p50 ${formatRatio(qmdMcp.all.p50 / text.p50)}`,
    target: `p99 ≤ ${TARGETS.mcpTailRatio}× p50`,
    met: yesNo(tail <= TARGETS.mcpTailRatio),
  });
  rows.push({
    metric: `\`lore mcp\` peak RSS${at}`,
    value: mb(recall.peakRssBytes),
    baseline: qmdMcp === undefined ? "—" : `qmd mcp ${mb(qmdMcp.peakRssBytes)}`,
    ratio: qmdMcp === undefined ? "—" : formatRatio(recall.peakRssBytes / qmdMcp.peakRssBytes),
    target: `≤ ${mb(TARGETS.mcpRssBytes)}`,
    met: yesNo(recall.peakRssBytes <= TARGETS.mcpRssBytes),
  });
  if (qmd === undefined) {
    rows.push({
      metric: `qmd${at}`,
      value: `skipped: ${(s.qmd as Skipped).skipped}`,
      baseline: "—",
      ratio: "—",
      target: "—",
      met: "—",
    });
  } else if ("skipped" in qmd.mcp) {
    rows.push({
      metric: `qmd mcp${at}`,
      value: `skipped: ${qmd.mcp.skipped}`,
      baseline: "—",
      ratio: "—",
      target: "—",
      met: "—",
    });
  }
  return rows;
}

function categoryTable(sizes: SizeReport[]): string {
  const lines = [
    "| N | service | category | p50 | p99 | mean hits total |",
    "|---|---|---|---|---|---|",
  ];
  for (const s of sizes) {
    for (const [service, report] of [
      ["recall", s.recall],
      ["search", s.search],
    ] as const) {
      for (const [category, st] of Object.entries(report.byCategory)) {
        lines.push(
          `| ${s.n} | ${service} | ${category} | ${formatMs(st.p50)} | ${formatMs(st.p99)} | ${st.meanTotal.toFixed(0)} |`,
        );
      }
    }
    const overMcp: [string, McpLatencyResult | Skipped][] = [
      ["recall over MCP", "skipped" in s.mcp ? s.mcp : s.mcp.recall],
      ["qmd lex over MCP", "skipped" in s.qmd ? s.qmd : s.qmd.mcp],
    ];
    for (const [service, report] of overMcp) {
      if ("skipped" in report) continue;
      for (const [category, st] of Object.entries(report.byCategory)) {
        lines.push(
          `| ${s.n} | ${service} | ${category} | ${formatMs(st.p50)} | ${formatMs(st.p99)} | — |`,
        );
      }
    }
  }
  return lines.join("\n");
}

/**
 * `BENCH_ONLY=size`: per N, only the floor and the Lore build side by side, the index size
 * ÷ the entry files' bytes and the index's parts (`dbstat`, MB = 10⁶ bytes), printed; no
 * latency, no peer, `bench/results.*` not written.
 */
async function benchSizeOnly(sizes: number[], seed: number, work: string): Promise<void> {
  for (const n of sizes) {
    const repo = await ensureBenchRepo(n, seed);
    warmPackFiles(repo.dir);
    const floor = withRates(await runIndexWorker("floor", repo, join(work, `floor-${n}.db`)));
    rmSync(join(work, `floor-${n}.db`), { force: true });
    const loreDb = join(work, `lore-${n}.db`);
    const lore = withRates(await runIndexWorker("lore", repo, loreDb));
    const loreBytes = fileBytes(loreDb);
    const db = new Database(loreDb, { readonly: true });
    const parts = db
      .prepare(
        "SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 12",
      )
      .all() as { name: string; bytes: number }[];
    db.close();
    rmSync(loreDb, { force: true });
    const line = (r: typeof lore) =>
      `${formatMs(r.ms)} (CPU ${formatMs(r.cpuMs)}${r.mainCpuMs === null || r.mainCpuMs >= r.cpuMs - 50 ? "" : `, main thread ${formatMs(r.mainCpuMs)}`})`;
    process.stdout.write(
      [
        `N=${n}: text ${(repo.bytes / 1e6).toFixed(1)} MB; index ${(loreBytes / 1e6).toFixed(1)} MB = ${(loreBytes / repo.bytes).toFixed(2)}× the text`,
        `  build: Lore ${line(lore)} · floor ${line(floor)} · ${formatRatio(lore.ms / floor.ms)} wall, ${formatRatio(lore.cpuMs / floor.cpuMs)} CPU; peak RSS ${(lore.maxRssBytes / MB).toFixed(0)} MB`,
        ...parts.map(
          (part) =>
            `  ${part.name.padEnd(28)} ${(part.bytes / 1e6).toFixed(1).padStart(8)} MB  ${(part.bytes / repo.bytes).toFixed(2)}×`,
        ),
        "",
      ].join("\n"),
    );
  }
}

/**
 * `BENCH_ONLY=mcp`: only recall over MCP, `BENCH_MCP_ROUNDS` times (default 3), each a fresh
 * `lore mcp` on the same database, exactly as the full run measures it; prints each round's
 * p50 / p99 / p99÷p50, max, the server's peak RSS and the load average; `bench/results.*`
 * not written. The database is built by an untimed first start, in the run's work folder,
 * or kept in `BENCH_MCP_DB` (a path; built there when absent, reused after) so that
 * repeated runs (before and after a change) serve the same index.
 */
async function benchMcpOnly(sizes: number[], seed: number, work: string): Promise<void> {
  const rounds = Number(process.env.BENCH_MCP_ROUNDS ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new Error(`BENCH_MCP_ROUNDS must be a positive whole number, got “${rounds}”`);
  }
  const kept = process.env.BENCH_MCP_DB;
  for (const n of sizes) {
    const repo = await ensureBenchRepo(n, seed);
    const dbFile =
      kept !== undefined && kept !== ""
        ? sizes.length === 1
          ? kept
          : `${kept}.${n}`
        : join(work, `mcp-${n}`, "index.db");
    mkdirSync(dirname(dbFile), { recursive: true });
    log(`N=${n}: lore mcp on ${dbFile} (an untimed first start builds it when absent)…`);
    const first = await measureColdStart({
      ...loreMcpTarget(repo, ROOT, dbFile),
      callTimeoutMs: 1_800_000,
    });
    if (!first.ok) throw new Error(`lore mcp answered with an error: ${first.excerpt}`);
    for (let round = 1; round <= rounds; round++) {
      const r = await loreMcpRecall(repo, dbFile);
      const { p50, p99, max, count } = r.all;
      process.stdout.write(
        `N=${n} round ${round}: recall over MCP p50 ${formatMs(p50)} · p99 ${formatMs(p99)} · ` +
          `p99/p50 ${(p99 / p50).toFixed(2)} · max ${formatMs(max)} · ${count} calls · ` +
          `${r.errors} errors · peak RSS ${(r.peakRssBytes / MB).toFixed(0)} MB · ` +
          `load ${loadavg()
            .map((l) => l.toFixed(2))
            .join(" ")}\n`,
      );
    }
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const sizes = parseSizes(process.env.BENCH_SIZES);
  const seed = Number(process.env.BENCH_SEED ?? 1);
  const work = mkdtempSync(join(tmpdir(), "lore-bench-run-"));
  if (process.env.BENCH_ONLY === "size") {
    try {
      await benchSizeOnly(sizes, seed, work);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    return;
  }
  if (process.env.BENCH_ONLY === "mcp") {
    try {
      await benchMcpOnly(sizes, seed, work);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    return;
  }
  const machine = machineInfo();
  log(`sizes ${sizes.join(", ")}, seed ${seed}, work dir ${work}`);
  const reports: SizeReport[] = [];
  log("qmd: installing or reusing the peer…");
  const qmdInstall = ensureQmd(join(tmpdir(), "lore-bench"));
  log(
    "skipped" in qmdInstall
      ? `qmd skipped: ${qmdInstall.skipped}`
      : `qmd ${qmdInstall.version} ${qmdInstall.installed ? `installed in ${formatMs(qmdInstall.installMs)}` : "cached"}`,
  );
  try {
    for (const n of sizes) reports.push(await benchSize(n, seed, work, qmdInstall));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const rows = reports.flatMap((r) => [...sizeRows(r), ...mcpRows(r)]);
  const durationMs = performance.now() - started;
  const table = renderTable(rows);
  const results = {
    generatedAt: new Date().toISOString(),
    durationMs,
    seed,
    machine,
    targets: { ...TARGETS, note: "targets are stated for N=100,000" },
    peers: {
      qmd:
        "skipped" in qmdInstall
          ? qmdInstall
          : {
              version: qmdInstall.version,
              node: PEER_NODE_VERSION,
              installed: qmdInstall.installed,
            },
    },
    sizes: reports,
  };
  const outDir = join(ROOT, "bench");
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  const md = [
    "# Lore benchmark",
    "",
    `${results.generatedAt} · ${machine.cpu} × ${machine.cores} · Node ${machine.node} · ` +
      `SQLite ${machine.sqlite} · ${machine.git} · ${machine.ripgrep ?? "ripgrep absent"} · ` +
      `load average at start ${Number(machine.loadAverageAtStart).toFixed(1)} · ` +
      `total ${formatMs(durationMs)}`,
    "",
    "Targets are stated for N = 100,000; smaller N are for orientation.",
    "Ratios are against baselines measured in the same run.",
    "",
    table,
    "",
    "## Latency by query category",
    "",
    categoryTable(reports),
    "",
  ].join("\n");
  writeFileSync(join(outDir, "results.md"), md);
  process.stdout.write(
    `${table}\n\nwritten: bench/results.json, bench/results.md (${formatMs(durationMs)})\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
