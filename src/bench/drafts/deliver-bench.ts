/**
 * The delivery benchmark (seed 004, "Как знание выходит наружу"), run with
 * `npm run bench:drafts` (= `npm run build && node dist/bench/drafts/deliver-bench.js`, then
 * the POST-drafts bench `dist/bench/drafts/post-drafts-bench.js` when it is built):
 *
 * 1. the delivery of `DELIVER_BENCH_DRAFTS` (500) drafts of one branch in one commit into a
 *    bare repository (`deliverDrafts` over `bareDeliveryTarget`: fast-import + update-ref),
 *    `DELIVER_BENCH_RUNS` (5) runs, each into a fresh branch with fresh drafts: min, median,
 *    max;
 * 2. the same run's baseline: writing the same files into a work tree and `git add` +
 *    `git commit` them, timed the same way, and the ratio of the medians;
 * 3. the check that each delivered commit's tree equals the tree of that `git add` +
 *    `git commit` of the same files: prints equal / not equal and exits 1 when not equal.
 *
 * Prints a table and the JSON.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { v7 } from "uuid";
import { bareDeliveryTarget } from "../../adapters/git-cli/bare-delivery-target.js";
import { type DraftRecord, draftFilePath, draftSourceOf } from "../../core/drafts/draft.js";
import { formatEntry } from "../../core/entry/format-entry.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import { deliverDrafts } from "../../services/drafts/deliver-drafts.js";
import { gitBlobSha } from "../../services/indexing/index-folder.js";
import { benchGitEnv } from "../generate-entries.js";
import { formatMs, formatRatio, type ResultRow, renderTable } from "../results-table.js";

const REPO = "bench/app";

const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
};

function git(cwd: string, args: string[]): string {
  const r = spawnSync("git", args, {
    cwd,
    env: benchGitEnv(),
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** A draft's text: a real entry of about 1.5 KB. */
function draftText(id: string, n: number): string {
  const lines = Array.from(
    { length: 12 },
    (_, i) =>
      `Step ${i + 1} of lesson ${n}: check the worker's cache before the deploy and after it.`,
  );
  return formatEntry({
    id,
    origin: "agent",
    contract: [{ mechanism: "on_query", params: { words: [`deploy${n % 50}`, "cache"] } }],
    links: [],
    unknownKeys: {},
    body: `Lesson ${n}: restart the worker after a deploy.\n\n${lines.join("\n")}\n`,
  });
}

/** Stores `count` drafts of `branch` as the draft service does (entry + row). */
function storeDrafts(
  index: EntryIndex,
  branch: string,
  count: number,
  from: number,
): DraftRecord[] {
  const out: DraftRecord[] = [];
  for (let i = 0; i < count; i++) {
    const id = v7();
    const text = draftText(id, from + i);
    const parsed = parseEntry(text, { mode: "strict", path: draftFilePath(id) });
    if (parsed.value === undefined) throw new Error("a bench draft does not parse");
    const draft: DraftRecord = {
      id,
      repo: REPO,
      branch,
      author: "bench",
      createdAt: Date.now(),
      size: Buffer.byteLength(text, "utf8"),
      text,
    };
    index.drafts.insert(draft, {
      repo: draftSourceOf(REPO),
      path: draftFilePath(id),
      blobSha: gitBlobSha(Buffer.from(text, "utf8")),
      parsed: parsed.value,
      diagnostics: parsed.diagnostics,
    });
    out.push(draft);
  }
  return out;
}

interface Spread {
  min: number;
  median: number;
  max: number;
}

function spread(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as number;
  return { min: sorted[0] as number, median, max: sorted[sorted.length - 1] as number };
}

const showSpread = (s: Spread) => `${formatMs(s.min)} / ${formatMs(s.median)} / ${formatMs(s.max)}`;

async function main(): Promise<void> {
  const count = envInt("DELIVER_BENCH_DRAFTS", 500);
  const runs = envInt("DELIVER_BENCH_RUNS", 5);
  const root = mkdtempSync(join(tmpdir(), "lore-deliver-bench-"));
  try {
    const work = join(root, "work");
    mkdirSync(work);
    git(work, ["init", "-q", "-b", "main"]);
    git(work, ["config", "user.name", "Bench"]);
    git(work, ["config", "user.email", "bench@example.invalid"]);
    writeFileSync(join(work, "README.md"), "bench\n");
    git(work, ["add", "README.md"]);
    git(work, ["commit", "-q", "-m", "initial"]);
    const bare = join(root, "bare.git");
    git(root, ["clone", "-q", "--bare", work, bare]);
    const index = openIndex(join(root, "index.db"));
    const target = bareDeliveryTarget(bare);
    const deliverMs: number[] = [];
    const baselineMs: number[] = [];
    const equal: boolean[] = [];
    try {
      for (let run = 0; run < runs; run++) {
        const branch = `bench-${run}`;
        git(bare, ["branch", branch, "main"]);
        const drafts = storeDrafts(index, branch, count, run * count);
        const started = performance.now();
        const answer = await deliverDrafts(
          { index, target },
          {
            repo: REPO,
            input: { branch, mode: "same" },
            author: { name: "Bench", email: "bench@example.invalid", user: "bench" },
          },
        );
        deliverMs.push(performance.now() - started);
        if (answer.commits.length !== 1 || answer.delivered.length !== count) {
          throw new Error(
            `expected one commit of ${count} files, got ${JSON.stringify(answer.commits)}`,
          );
        }
        // Baseline: the same files written into a work tree, git add + git commit.
        git(work, ["checkout", "-q", "-B", branch, "main"]);
        const base = performance.now();
        for (const draft of drafts) {
          const file = join(work, draftFilePath(draft.id));
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, draft.text);
        }
        git(work, ["add", "--", ".gitriver/knowledge"]);
        git(work, ["commit", "-q", "--no-verify", "-m", "bench"]);
        baselineMs.push(performance.now() - base);
        const delivered = git(bare, ["rev-parse", `${answer.commits[0]}^{tree}`]).trim();
        const committed = git(work, ["rev-parse", "HEAD^{tree}"]).trim();
        equal.push(delivered === committed);
      }
    } finally {
      index.close();
    }
    const deliver = spread(deliverMs);
    const baseline = spread(baselineMs);
    const allEqual = equal.every(Boolean);
    const rows: ResultRow[] = [
      {
        metric: `deliver ${count} drafts, one commit (min / median / max of ${runs})`,
        value: showSpread(deliver),
        baseline: showSpread(baseline),
        ratio: formatRatio(deliver.median / baseline.median),
        target: "—",
        met: "—",
      },
      {
        metric: "delivered tree = git add + git commit tree",
        value: allEqual ? "equal" : "not equal",
        baseline: "—",
        ratio: "—",
        target: "equal",
        met: allEqual ? "yes" : "no",
      },
    ];
    const results = {
      drafts: count,
      runs,
      deliverMs: {
        min: Math.round(deliver.min),
        median: Math.round(deliver.median),
        max: Math.round(deliver.max),
      },
      gitAddCommitMs: {
        min: Math.round(baseline.min),
        median: Math.round(baseline.median),
        max: Math.round(baseline.max),
      },
      ratio: Number((deliver.median / baseline.median).toFixed(2)),
      treesEqual: allEqual,
    };
    process.stdout.write(`${renderTable(rows)}\n\n${JSON.stringify(results, null, 2)}\n`);
    if (!allEqual) process.exitCode = 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
