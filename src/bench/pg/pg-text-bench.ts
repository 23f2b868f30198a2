/**
 * Bench of the full text on PostgreSQL (scale-out: PostgreSQL): N generated entries
 * (`generate-entries.ts`, seed 1) into PostgreSQL's full-text store
 * (`index/pg-text/pg-text-store.ts`) and M of the same entries into SQLite's index
 * (`EntryIndex`, its `entry_text`) in the same run, then search (`page`, the search
 * service's budget and cap, 10 hits) over the bench query set (`query-set.ts`, no tools)
 * on both: build entries/s, search p50/p99 (wall ms per query, over `rounds` timed passes
 * after one untimed), database sizes. When N = M the pages of both engines are compared
 * too (how many agree hit for hit).
 *
 * Environment:
 * - `LORE_BENCH_PG_URL` (else `LORE_TEST_PG_URL`): a cluster where a database of its own
 *   (`lore_bench_text_<random>`) is created and dropped after; required.
 * - `LORE_BENCH_PG_ENTRIES` (default 1,000,000), `LORE_BENCH_SQLITE_ENTRIES` (default 100,000).
 * - `LORE_BENCH_ROUNDS` (default 3), `LORE_BENCH_OUT` (a file for the JSON results).
 *
 * Run: `npm run bench:pg` (builds first). On a shared machine wall times are noisy; the
 * process's CPU time of each build is reported beside (PostgreSQL's own CPU is not in it).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { ParsedEntry } from "../../core/entry/entry.js";
import { indexDocument } from "../../core/entry/index-document.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import { parseSearchQuery } from "../../core/recall/search-query.js";
import { openIndex } from "../../index/entry-index.js";
import { openPgTextStore, type PgTextDocument } from "../../index/pg-text/pg-text-store.js";
import { SEARCH_TEXT_BUDGET, SEARCH_TOTAL_CAP } from "../../services/knowledge/search.js";
import { generateEntryFiles } from "../generate-entries.js";
import { type LatencyStats, summarize } from "../latency-stats.js";
import { buildQuerySet } from "../query-set.js";

/** Entries per transaction of either build. */
const BATCH = 1000;

/** A number from the environment, or the default. */
function envNumber(name: string, fallback: number): number {
  const value = process.env[name];
  return value === undefined || value === "" ? fallback : Number(value);
}

/** The URL with another database (path), user, host and query kept. */
function withDatabase(url: string, database: string): string {
  const match = /^(postgres(?:ql)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/i.exec(url);
  if (match === null) throw new Error(`not a PostgreSQL URL: ${url}`);
  return `${match[1]}/${database}${match[2] ?? ""}`;
}

async function admin(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** One build's figures. */
interface Build {
  entries: number;
  wallMs: number;
  cpuMs: number;
  entriesPerSecond: number;
}

function finish(entries: number, wallMs: number, cpuMs: number): Build {
  return { entries, wallMs, cpuMs, entriesPerSecond: entries / (wallMs / 1000) };
}

async function main(): Promise<void> {
  const baseUrl = process.env.LORE_BENCH_PG_URL || process.env.LORE_TEST_PG_URL;
  if (!baseUrl) {
    console.error("bench:pg needs LORE_BENCH_PG_URL (or LORE_TEST_PG_URL): a PostgreSQL cluster");
    process.exit(2);
  }
  const nPg = envNumber("LORE_BENCH_PG_ENTRIES", 1_000_000);
  const nSqlite = envNumber("LORE_BENCH_SQLITE_ENTRIES", 100_000);
  const rounds = envNumber("LORE_BENCH_ROUNDS", 3);
  const dbName = `lore_bench_text_${randomBytes(4).toString("hex")}`;
  await admin(baseUrl, `CREATE DATABASE ${dbName}`);
  const url = withDatabase(baseUrl, dbName);
  const dir = mkdtempSync(join(tmpdir(), "lore-bench-pg-"));
  const store = await openPgTextStore(url);
  const index = openIndex(join(dir, "index.db"));
  try {
    let pgWall = 0;
    let pgCpu = 0;
    let sqliteWall = 0;
    let sqliteCpu = 0;
    const files = generateEntryFiles({ count: Math.max(nPg, nSqlite), seed: 1 });
    const started = performance.now();
    for (let done = 0; done < Math.max(nPg, nSqlite); ) {
      const batch: { path: string; parsed: ParsedEntry; docId: number }[] = [];
      for (let i = 0; i < BATCH && done < Math.max(nPg, nSqlite); i++, done++) {
        const next = files.next();
        if (next.done) break;
        const parsed = parseEntry(next.value.text, { mode: "lenient", path: next.value.path })
          .value as ParsedEntry;
        batch.push({ path: next.value.path, parsed, docId: done + 1 });
      }
      const forPg = batch.filter((e) => e.docId <= nPg);
      if (forPg.length > 0) {
        const docs: PgTextDocument[] = forPg.map((e) => ({
          docId: e.docId,
          entryId: e.parsed.entry.id,
          summary: e.parsed.summary,
          body: e.parsed.entry.body,
        }));
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await store.put(docs);
        pgWall += performance.now() - t0;
        const c = process.cpuUsage(c0);
        pgCpu += (c.user + c.system) / 1000;
      }
      const forSqlite = batch.filter((e) => e.docId <= nSqlite);
      if (forSqlite.length > 0) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        index.transaction(() => {
          for (const e of forSqlite) {
            index.putFile({
              repo: "bench",
              path: e.path,
              blobSha: "0".repeat(40),
              diagnostics: [],
              parsed: e.parsed,
              document: indexDocument(e.parsed),
            });
          }
        });
        sqliteWall += performance.now() - t0;
        const c = process.cpuUsage(c0);
        sqliteCpu += (c.user + c.system) / 1000;
      }
      if (done % 50_000 === 0) {
        console.error(
          `… ${done} entries generated (${((performance.now() - started) / 1000).toFixed(0)} s; PostgreSQL ${(pgWall / 1000).toFixed(0)} s, SQLite ${(sqliteWall / 1000).toFixed(0)} s)`,
        );
      }
    }
    const v0 = performance.now();
    await admin(url, "VACUUM ANALYZE");
    const vacuumMs = performance.now() - v0;
    const builds = {
      postgres: { ...finish(nPg, pgWall, pgCpu), vacuumAnalyzeMs: vacuumMs },
      sqlite: finish(nSqlite, sqliteWall, sqliteCpu),
    };

    const queries = buildQuerySet({ tools: false }).map((q) => q.query ?? "");
    const ask = { offset: 0, limit: 10, budget: SEARCH_TEXT_BUDGET, totalCap: SEARCH_TOTAL_CAP };
    const pgTimes: number[] = [];
    const sqliteTimes: number[] = [];
    let agree = 0;
    let compared = 0;
    for (let round = 0; round <= rounds; round++) {
      for (const query of queries) {
        const terms = parseSearchQuery(query).terms;
        let t0 = performance.now();
        const mine = await store.page(terms, { ...ask, check: [] });
        const pgMs = performance.now() - t0;
        t0 = performance.now();
        const theirs = index.text.page(terms, { ...ask, excludeFired: false, check: [] });
        const sqliteMs = performance.now() - t0;
        if (round === 0) {
          if (nPg === nSqlite) {
            compared += 1;
            if (JSON.stringify(mine) === JSON.stringify(theirs)) agree += 1;
            else console.error(`differs: ${query}`);
          }
          continue;
        }
        pgTimes.push(pgMs);
        sqliteTimes.push(sqliteMs);
      }
    }
    const sizes = await admin(
      url,
      `SELECT pg_database_size(current_database()) AS database,
              pg_total_relation_size('text_docs') AS docs,
              pg_total_relation_size('text_postings') AS postings,
              pg_total_relation_size('text_terms') AS terms`,
    );
    const sqliteFile = join(dir, "index.db");
    const walFile = `${sqliteFile}-wal`;
    let sqliteBytes = statSync(sqliteFile).size;
    try {
      sqliteBytes += statSync(walFile).size;
    } catch {
      // no WAL left
    }
    const search = (times: number[]): LatencyStats => summarize(times);
    const results = {
      sizes: { postgresEntries: nPg, sqliteEntries: nSqlite, queries: queries.length, rounds },
      build: builds,
      search: { postgres: search(pgTimes), sqlite: search(sqliteTimes) },
      parity: nPg === nSqlite ? { compared, agree } : "sizes differ: not compared",
      bytes: {
        postgres: Object.fromEntries(
          Object.entries(sizes.rows[0] as Record<string, string>).map(([k, v]) => [k, Number(v)]),
        ),
        sqlite: sqliteBytes,
      },
    };
    const text = JSON.stringify(results, null, 2);
    console.log(text);
    if (process.env.LORE_BENCH_OUT) writeFileSync(process.env.LORE_BENCH_OUT, `${text}\n`);
  } finally {
    await store.close();
    index.close();
    rmSync(dir, { recursive: true, force: true });
    await admin(baseUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

await main();
