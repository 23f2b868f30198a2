/**
 * The no-index baseline: `rg -i -l -F <word>` over the checked-out
 * knowledge folder, one process per query, as an agent without Lore would search.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { KNOWLEDGE_PREFIX } from "../services/indexing/index-knowledge.js";

/** The ripgrep version line, or null when `rg` is not on PATH. */
export function ripgrepVersion(): string | null {
  const r = spawnSync("rg", ["--version"], { encoding: "utf8" });
  if (r.error !== undefined || r.status !== 0) return null;
  return r.stdout.split("\n")[0] ?? null;
}

/** One timed ripgrep query. */
export interface RipgrepSample {
  query: string;
  ms: number;
  /** Files listed. */
  matches: number;
}

/**
 * Runs each query once untimed (page cache warm-up) and then `runs` timed times.
 * @throws Error when rg fails (exit status other than 0 = found, 1 = none found).
 */
export function timeRipgrep(
  repoDir: string,
  queries: readonly string[],
  runs = 2,
): RipgrepSample[] {
  const folder = join(repoDir, KNOWLEDGE_PREFIX);
  const once = (query: string): RipgrepSample => {
    const t0 = performance.now();
    const r = spawnSync("rg", ["-i", "-l", "-F", "--", query, folder], {
      encoding: "utf8",
      maxBuffer: 1 << 30,
    });
    const ms = performance.now() - t0;
    if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed: ${r.stderr}`);
    const matches = r.stdout.length === 0 ? 0 : r.stdout.trimEnd().split("\n").length;
    return { query, ms, matches };
  };
  const out: RipgrepSample[] = [];
  for (const q of queries) once(q);
  for (let i = 0; i < runs; i++) for (const q of queries) out.push(once(q));
  return out;
}
