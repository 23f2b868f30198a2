/**
 * The parts of Lore the benchmark measures, called exactly as the product calls them:
 * `openIndex` (H2), `openGitRepo` + `indexRepository` (H3), `recall` and `search` (H2).
 * Nothing here re-implements them; it only times and counts.
 */
import { openGitRepo } from "../adapters/git-cli/git-cli-repo.js";
import { openIndex } from "../index/entry-index.js";
import { indexRepository } from "../services/indexing/index-repo.js";
import { recall } from "../services/knowledge/recall.js";
import { recallWithin } from "../services/knowledge/recall-within.js";
import { search } from "../services/knowledge/search.js";
import type { BenchQuery } from "./query-set.js";

/** The index repository name the bench builds its corpus under. */
export const BENCH_REPO_NAME = "bench";

/** What one Lore index build did. */
export interface LoreBuild {
  /** Files listed and stored (entries plus skipped files). */
  files: number;
  /** Bytes of the listed entry files (from `git ls-tree --long`). */
  bytes: number;
  /** Wall time from opening the database to closing it, ms. */
  ms: number;
  /** The indexing report's counters. */
  detail: Record<string, unknown>;
}

/**
 * Builds Lore's index of `repoDir` at `commit` into `dbFile` (a fresh file), as `lore index`
 * does: open the index, open the repository, `indexRepository`, close both.
 */
export async function indexRepoInto(
  repoDir: string,
  commit: string,
  dbFile: string,
): Promise<LoreBuild> {
  const started = performance.now();
  const index = openIndex(dbFile);
  const repo = await openGitRepo(repoDir, { timeoutMs: 600_000 });
  let bytes = 0;
  try {
    const report = await indexRepository({
      index,
      repo,
      repoName: BENCH_REPO_NAME,
      commit,
      // `BENCH_ANALYSIS=inline|worker` forces where files are analysed (default: as the
      // product does, `auto`).
      analysis:
        process.env.BENCH_ANALYSIS === "worker" || process.env.BENCH_ANALYSIS === "inline"
          ? process.env.BENCH_ANALYSIS
          : "auto",
      onProgress: (p) => {
        bytes = p.bytes;
      },
    });
    const { added, updated, removed, unchanged, skipped, deferred, read } = report;
    return {
      files: added + updated + unchanged,
      bytes,
      ms: performance.now() - started,
      detail: {
        added,
        updated,
        removed,
        unchanged,
        skipped,
        deferred,
        read,
        lines: report.lines.length,
      },
    };
  } finally {
    await repo.close();
    index.close();
  }
}

/** The index opened for latency runs. */
export interface BenchIndex {
  /** Recalls (query and/or tool, as the MCP tool does), counting shown; returns `total`. */
  recall(q: BenchQuery): number;
  /**
   * The same recall filtered to the bench repository (`recallWithin`, as the team server
   * filters every read by the caller's rights); returns `total`.
   */
  recallWithin(q: BenchQuery): number;
  /** Searches the query's text; returns `total`. */
  search(query: string): number;
  close(): void;
}

/** Opens the built index in `dbFile` for {@link BenchIndex} calls. */
export function openBenchIndex(dbFile: string): BenchIndex {
  const index = openIndex(dbFile);
  return {
    recall: (q) =>
      recall(index, {
        ...(q.query === undefined ? {} : { query: q.query }),
        ...(q.tool === undefined ? {} : { tool: q.tool }),
        user: "bench",
      }).total,
    recallWithin: (q) =>
      recallWithin(index, {
        ...(q.query === undefined ? {} : { query: q.query }),
        ...(q.tool === undefined ? {} : { tool: q.tool }),
        user: "bench",
        repos: [BENCH_REPO_NAME],
      }).total,
    search: (query) => search(index, { query }).total,
    close: () => index.close(),
  };
}
