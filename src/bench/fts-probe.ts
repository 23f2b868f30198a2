/**
 * A throwaway probe of the index at scale (not part of the product; the bench proper is
 * `run-bench.ts`): generates N entries in memory with the bench generator, stores them with
 * `putFile` (timing parse, analysis and SQLite separately), then times recall and search
 * over the bench's query set, p50/p99 per category.
 *
 * Run: `npx tsc -p tsconfig.build.json --outDir /tmp/lore-probe && \
 *   node /tmp/lore-probe/bench/fts-probe.js [N=100000] [db=/tmp/lore-probe.db] [rounds=20]`
 * (an existing db is reused: delete it to rebuild). Latencies are CPU time of the process
 * (robust on a shared machine); `PROBE_WALL=1` reports wall time instead;
 * `PROBE_NO_OPTIMIZE=1` leaves the FTS segments unmerged after the build.
 */
import { existsSync } from "node:fs";
import { indexDocument } from "../core/entry/index-document.js";
import { parseEntry } from "../core/entry/parse-entry.js";
import { openIndex } from "../index/entry-index.js";
import { recall } from "../services/knowledge/recall.js";
import { search } from "../services/knowledge/search.js";
import { generateEntryFiles } from "./generate-entries.js";
import { buildQuerySet } from "./query-set.js";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

function build(file: string, n: number): void {
  const index = openIndex(file);
  let parseMs = 0;
  let analyzeMs = 0;
  let storeMs = 0;
  let bytes = 0;
  const started = performance.now();
  const files = generateEntryFiles({ count: n, seed: 1 });
  for (let done = 0; done < n; ) {
    const batch: { path: string; text: string }[] = [];
    for (let i = 0; i < 1000 && done < n; i++, done++) {
      const next = files.next();
      if (next.done) break;
      batch.push(next.value);
    }
    const t0 = performance.now();
    const parsed = batch.map((f) => {
      bytes += Buffer.byteLength(f.text);
      return { path: f.path, result: parseEntry(f.text, { mode: "lenient", path: f.path }) };
    });
    const t1 = performance.now();
    const docs = parsed.map((p) => (p.result.value ? indexDocument(p.result.value) : undefined));
    const t2 = performance.now();
    index.transaction(() => {
      parsed.forEach((p, i) => {
        const value = p.result.value;
        const document = docs[i];
        index.putFile({
          repo: "bench",
          path: p.path,
          blobSha: "0".repeat(40),
          diagnostics: p.result.diagnostics,
          ...(value === undefined ? {} : { parsed: value }),
          ...(document === undefined ? {} : { document }),
        });
      });
    });
    const t3 = performance.now();
    parseMs += t1 - t0;
    analyzeMs += t2 - t1;
    storeMs += t3 - t2;
  }
  const total = performance.now() - started;
  console.log(
    `built ${n} entries (${(bytes / 1e6).toFixed(0)} MB) in ${(total / 1000).toFixed(1)} s ` +
      `(generate ${((total - parseMs - analyzeMs - storeMs) / 1000).toFixed(1)} s, parse ${(parseMs / 1000).toFixed(1)} s, ` +
      `analyze ${(analyzeMs / 1000).toFixed(1)} s, SQLite ${(storeMs / 1000).toFixed(1)} s)`,
  );
  if (!process.env.PROBE_NO_OPTIMIZE) {
    const o0 = performance.now();
    index.optimize();
    console.log(`optimize ${((performance.now() - o0) / 1000).toFixed(1)} s`);
  }
  index.close();
}

function main(): void {
  const n = Number(process.argv[2] ?? 100_000);
  const file = process.argv[3] ?? "/tmp/lore-probe.db";
  const rounds = Number(process.argv[4] ?? 20);
  if (!existsSync(file)) build(file, n);
  const index = openIndex(file);
  console.log(`entries: ${index.entryCount()}`);
  for (const kind of ["recall", "search"] as const) {
    const queries = buildQuerySet({ tools: kind === "recall" });
    const byCategory = new Map<string, number[]>();
    const all: number[] = [];
    const totals = new Map<string, string>();
    for (let round = 0; round < rounds; round++) {
      for (const q of queries) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const answer =
          kind === "recall"
            ? recall(index, {
                ...(q.query === undefined ? {} : { query: q.query }),
                ...(q.tool === undefined ? {} : { tool: q.tool }),
                user: "probe",
              })
            : search(index, { query: q.query ?? "" });
        const wall = performance.now() - t0;
        const cpu = process.cpuUsage(c0);
        // On a shared machine wall time includes waiting for a CPU; CPU time does not.
        const ms = process.env.PROBE_WALL ? wall : (cpu.user + cpu.system) / 1000;
        if (round > 0) {
          all.push(ms);
          const list = byCategory.get(q.category) ?? [];
          list.push(ms);
          byCategory.set(q.category, list);
        }
        totals.set(
          `${q.category} ${q.query ?? q.tool}`,
          `${answer.total}${answer.total_exact ? "" : "+"}`,
        );
      }
    }
    for (const [category, list] of [...byCategory, ["ALL", all] as [string, number[]]]) {
      list.sort((a, b) => a - b);
      console.log(
        `${kind.padEnd(7)} ${category.padEnd(10)} p50 ${percentile(list, 0.5).toFixed(2)} ms  p99 ${percentile(list, 0.99).toFixed(2)} ms  max ${(list.at(-1) as number).toFixed(2)} ms`,
      );
    }
    if (process.env.PROBE_VERBOSE) for (const [q, t] of totals) console.log(`  ${q}: total ${t}`);
  }
  index.close();
}

main();
