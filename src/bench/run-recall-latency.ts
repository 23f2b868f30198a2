/**
 * `npm run bench:recall`: the quick mode of the benchmark — recall latency only, in process,
 * over an index that already exists (no corpus generation, no build, no floor, no qmd, no
 * MCP). For checking a change to the query code against the recall target (p99 ≤ 5 ms at
 * 100k) in seconds instead of the full run's quarter of an hour.
 *
 * Usage: `BENCH_INDEX=/path/to/index.db npm run bench:recall` (an index built by the full
 * bench's worker, `node dist/bench/index-worker.js lore <repo> <commit> <db>`, or by
 * `lore index`). `BENCH_PASSES=10` sets the timed passes over the query set (default 10).
 *
 * Prints, for the whole query set of the full bench (`buildQuerySet({ tools: true })`) and
 * per category: p50 / p99 of every timed call (wall, ms, as the full bench reports it), of
 * its CPU time (`process.cpuUsage`: user + system, steadier on a shared machine), and p99
 * over the queries of each query's median CPU; then the slowest queries by median CPU.
 * Writes nothing.
 */
import { existsSync } from "node:fs";
import { summarize } from "./latency-stats.js";
import { openBenchIndex } from "./lore-under-test.js";
import { type BenchQuery, buildQuerySet } from "./query-set.js";

interface Sample {
  query: BenchQuery;
  wallMs: number;
  cpuMs: number;
}

function fmt(ms: number): string {
  return `${ms.toFixed(2)} ms`;
}

function median(values: readonly number[]): number {
  return summarize(values).p50;
}

function main(): void {
  const file = process.env.BENCH_INDEX;
  if (file === undefined || !existsSync(file)) {
    throw new Error("BENCH_INDEX must name an existing index file (see the module header)");
  }
  const passes = Number(process.env.BENCH_PASSES ?? 10);
  if (!Number.isInteger(passes) || passes < 1) {
    throw new Error(`BENCH_PASSES must be a positive whole number, got “${passes}”`);
  }
  const queries = buildQuerySet({ tools: true });
  const index = openBenchIndex(file);
  const samples: Sample[] = [];
  try {
    for (const q of queries) index.recall(q); // warm-up pass, untimed
    for (let pass = 0; pass < passes; pass++) {
      for (const q of queries) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        index.recall(q);
        const wallMs = performance.now() - t0;
        const c = process.cpuUsage(c0);
        samples.push({ query: q, wallMs, cpuMs: (c.user + c.system) / 1000 });
      }
    }
  } finally {
    index.close();
  }
  const line = (label: string, of: readonly Sample[]): string => {
    const wall = summarize(of.map((s) => s.wallMs));
    const cpu = summarize(of.map((s) => s.cpuMs));
    const perQuery = new Map<BenchQuery, number[]>();
    for (const s of of) perQuery.set(s.query, [...(perQuery.get(s.query) ?? []), s.cpuMs]);
    const medians = summarize([...perQuery.values()].map(median));
    return (
      `${label.padEnd(10)} wall p50 ${fmt(wall.p50)} p99 ${fmt(wall.p99)} · ` +
      `CPU p50 ${fmt(cpu.p50)} p99 ${fmt(cpu.p99)} · per-query median CPU p99 ${fmt(medians.p99)}`
    );
  };
  const out = [`${file}: ${queries.length} queries × ${passes} passes`, line("all", samples)];
  for (const category of new Set(queries.map((q) => q.category))) {
    out.push(
      line(
        category,
        samples.filter((s) => s.query.category === category),
      ),
    );
  }
  const byQuery = new Map<BenchQuery, number[]>();
  for (const s of samples) byQuery.set(s.query, [...(byQuery.get(s.query) ?? []), s.cpuMs]);
  const slowest = [...byQuery.entries()]
    .map(([q, cpu]) => ({ q, cpu: median(cpu) }))
    .sort((a, b) => b.cpu - a.cpu)
    .slice(0, 10);
  out.push("slowest (median CPU):");
  for (const { q, cpu } of slowest) {
    out.push(`  ${fmt(cpu)}  ${q.category}  ${q.query ?? ""}${q.tool ? ` [tool ${q.tool}]` : ""}`);
  }
  process.stdout.write(`${out.join("\n")}\n`);
}

main();
