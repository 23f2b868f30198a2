/**
 * Latency statistics for the benchmark: nearest-rank percentiles over samples in ms.
 */

/** Summary of a list of durations, ms. */
export interface LatencyStats {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * The nearest-rank percentile `p` (0–100) of `sorted` (ascending, non-empty).
 */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/** Summarises durations (ms); an empty list gives all zeros. */
export function summarize(samples: readonly number[]): LatencyStats {
  if (samples.length === 0) return { count: 0, p50: 0, p90: 0, p99: 0, max: 0, mean: 0 };
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] as number,
    mean: sum / sorted.length,
  };
}

/**
 * Times `run` over every query: `warmupPasses` untimed passes over the whole list, then as
 * many timed passes as it takes to reach at least `minSamples` timings.
 *
 * @returns every timing (ms) with the query it belongs to, in run order.
 */
export async function timeQueries<Q>(
  queries: readonly Q[],
  run: (q: Q) => unknown,
  options: { warmupPasses?: number; minSamples?: number } = {},
): Promise<{ query: Q; ms: number }[]> {
  for (let pass = 0; pass < (options.warmupPasses ?? 1); pass++) {
    for (const q of queries) await run(q);
  }
  const passes = Math.max(1, Math.ceil((options.minSamples ?? 200) / queries.length));
  const out: { query: Q; ms: number }[] = [];
  for (let pass = 0; pass < passes; pass++) {
    for (const q of queries) {
      const t0 = performance.now();
      await run(q);
      out.push({ query: q, ms: performance.now() - t0 });
    }
  }
  return out;
}
