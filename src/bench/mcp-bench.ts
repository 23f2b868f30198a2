/**
 * `lore mcp` cold start to first answer against a minimal SDK server (issue 2, section 8):
 * the database is pre-built (one untimed start indexes the repository), then each timed start
 * spawns `node dist/cli/main.js mcp --repo <dir>`, initializes through the SDK `Client` and
 * waits for the first `knowledge_recall` result — an incremental start with nothing to re-index.
 * The database is a file of the benchmark's own (env `LORE_DB`), never the user's.
 */
import { dirname, join } from "node:path";
import type { BenchRepo } from "./generate-entries.js";
import {
  type ColdStartSample,
  type ColdStartTarget,
  measureColdStart,
  median,
} from "./mcp-cold-start.js";
import { buildVocabularies } from "./word-lists.js";

/** Cold-start figures of both servers. */
export interface McpColdStartResult {
  /** Entries in the repository `lore mcp` served. */
  n: number;
  lore: ColdStartSample[];
  baseline: ColdStartSample[];
  /** Median spawn → first recall result, ms. */
  loreMedianMs: number;
  /** Median spawn → first echo result of the minimal server, ms. */
  baselineMedianMs: number;
  /** Median spawn → initialize done, ms. */
  loreInitializeMedianMs: number;
  baselineInitializeMedianMs: number;
}

/**
 * Measures `runs` cold starts of each server, alternating them so machine noise hits both.
 * @param root - the package root (holds `dist/`).
 * @param dbFile - the SQLite file `lore mcp` uses (built by the first, untimed start).
 * @param baselineRoot - the package root of the minimal server's script. Default: `root`.
 * @throws Error when a server fails to start or its first answer is an error result.
 */
export async function measureMcpColdStarts(
  repo: BenchRepo,
  root: string,
  dbFile: string,
  runs: number,
  baselineRoot: string = root,
): Promise<McpColdStartResult> {
  const query = buildVocabularies().en.words[150] ?? "deploy";
  const home = dirname(dbFile);
  const lore: ColdStartTarget = {
    command: process.execPath,
    args: [join(root, "dist", "cli", "main.js"), "mcp", "--repo", repo.dir],
    cwd: repo.dir,
    // The benchmark's own database and an empty configuration: nothing of the user's is read.
    env: {
      LORE_DB: dbFile,
      LORE_USER: "bench",
      XDG_CONFIG_HOME: join(home, "xdg-config"),
      XDG_DATA_HOME: join(home, "xdg-data"),
    },
    tool: "knowledge_recall",
    toolArguments: { query },
  };
  const minimal: ColdStartTarget = {
    command: process.execPath,
    args: [join(baselineRoot, "dist", "bench", "minimal-mcp-server.js")],
    tool: "echo",
    toolArguments: { query },
  };
  // Untimed: builds Lore's database and warms the file cache for both servers.
  const first = await measureColdStart({ ...lore, callTimeoutMs: 1_800_000 });
  if (!first.ok) throw new Error(`lore mcp answered with an error: ${first.excerpt}`);
  await measureColdStart(minimal);
  const loreSamples: ColdStartSample[] = [];
  const baseSamples: ColdStartSample[] = [];
  for (let i = 0; i < runs; i++) {
    loreSamples.push(await measureColdStart(lore));
    baseSamples.push(await measureColdStart(minimal));
  }
  const failed = loreSamples.find((s) => !s.ok);
  if (failed !== undefined) throw new Error(`lore mcp answered with an error: ${failed.excerpt}`);
  return {
    n: repo.files,
    lore: loreSamples,
    baseline: baseSamples,
    loreMedianMs: median(loreSamples.map((s) => s.firstAnswerMs)),
    baselineMedianMs: median(baseSamples.map((s) => s.firstAnswerMs)),
    loreInitializeMedianMs: median(loreSamples.map((s) => s.initializeMs)),
    baselineInitializeMedianMs: median(baseSamples.map((s) => s.initializeMs)),
  };
}
