/**
 * `lore mcp` cold start alone, at several sizes, against the bare SDK server in the same
 * run (`node dist/bench/run-cold-start.js`): env `BENCH_SIZES` (default `10000,100000`),
 * `BENCH_RUNS` (default 5), `BENCH_LORE_ROOT` (a package root holding another build's
 * `dist/`, to measure a before/after pair). Prints one JSON line per size.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBenchRepo } from "./generate-entries.js";
import { measureMcpColdStarts } from "./mcp-bench.js";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const loreRoot = process.env.BENCH_LORE_ROOT ?? here;
const sizes = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map(Number);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const work = mkdtempSync(join(tmpdir(), "lore-cold-"));
try {
  for (const n of sizes) {
    const repo = await ensureBenchRepo(n, 1);
    // The minimal server's script comes from this build; `lore mcp` from `loreRoot`.
    const result = await measureMcpColdStarts(
      repo,
      loreRoot,
      join(work, `mcp-${n}.db`),
      runs,
      undefined,
      here,
    );
    console.log(
      JSON.stringify({
        n,
        loreRoot,
        loreMedianMs: Math.round(result.loreMedianMs),
        baselineMedianMs: Math.round(result.baselineMedianMs),
        ratio: Number((result.loreMedianMs / result.baselineMedianMs).toFixed(2)),
        loreSamplesMs: result.lore.map((s) => Math.round(s.firstAnswerMs)),
      }),
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
