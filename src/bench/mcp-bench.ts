/**
 * `lore mcp` cold start to first answer against a minimal SDK server:
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

/** Cold-start figures of `lore mcp`, the minimal server and (when it runs) a peer. */
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
  /** The peer's samples and median spawn → first answer, ms (absent when no peer ran). */
  peer?: { name: string; samples: ColdStartSample[]; medianMs: number };
}

/** A peer server measured beside Lore (e.g. `qmd mcp`). */
export interface ColdStartPeer {
  name: string;
  target: ColdStartTarget;
}

/**
 * Measures `runs` cold starts of each server, alternating them so machine noise hits all.
 * @param root - the package root (holds `dist/`).
 * @param dbFile - the SQLite file `lore mcp` uses (built by the first, untimed start).
 * @param peer - a peer server to measure the same way; a peer that fails is left out
 *   (its error in `peerError`), Lore's figures stay.
 * @param baselineRoot - the package root of the minimal server's script. Default: `root`.
 * @throws Error when a Lore or minimal server fails to start or its first answer is an
 *   error result.
 */
export async function measureMcpColdStarts(
  repo: BenchRepo,
  root: string,
  dbFile: string,
  runs: number,
  peer?: ColdStartPeer,
  baselineRoot: string = root,
): Promise<McpColdStartResult & { peerError?: string }> {
  return coldStarts(repo, loreMcpTarget(repo, root, dbFile), runs, peer, baselineRoot);
}

/**
 * `lore mcp --repo <dir>` on the benchmark's own database `dbFile` (env `LORE_DB`) with an
 * empty configuration: nothing of the user's is read.
 */
export function loreMcpTarget(repo: BenchRepo, root: string, dbFile: string): ColdStartTarget {
  const home = dirname(dbFile);
  return {
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
    toolArguments: { query: COLD_START_QUERY },
  };
}

/** The query of every cold start (a mid-frequency English word of the corpus). */
export const COLD_START_QUERY = buildVocabularies().en.words[150] ?? "deploy";

/**
 * Measures `runs` cold starts of each server, alternating them so machine noise hits all.
 * (See {@link measureMcpColdStarts}.)
 */
async function coldStarts(
  repo: BenchRepo,
  lore: ColdStartTarget,
  runs: number,
  peer: ColdStartPeer | undefined,
  baselineRoot: string,
): Promise<McpColdStartResult & { peerError?: string }> {
  const query = COLD_START_QUERY;
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
  let peerError: string | undefined;
  const peerSamples: ColdStartSample[] = [];
  const peerRun = async (): Promise<void> => {
    if (peer === undefined || peerError !== undefined) return;
    try {
      const sample = await measureColdStart(peer.target);
      if (sample.ok) peerSamples.push(sample);
      else peerError = `${peer.name} answered with an error: ${sample.excerpt}`;
    } catch (error) {
      peerError = String(error instanceof Error ? error.message : error);
    }
  };
  await peerRun(); // untimed warm-up
  peerSamples.length = 0;
  const loreSamples: ColdStartSample[] = [];
  const baseSamples: ColdStartSample[] = [];
  for (let i = 0; i < runs; i++) {
    loreSamples.push(await measureColdStart(lore));
    baseSamples.push(await measureColdStart(minimal));
    await peerRun();
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
    ...(peer === undefined || peerError !== undefined || peerSamples.length === 0
      ? {}
      : {
          peer: {
            name: peer.name,
            samples: peerSamples,
            medianMs: median(peerSamples.map((s) => s.firstAnswerMs)),
          },
        }),
    ...(peerError === undefined ? {} : { peerError }),
  };
}
