/**
 * `npm run bench:federation`: on a local forge of real git
 * repositories made in a temp folder,
 * 1. `knowledge.ask_projects` over 20 projects × 500 index lines each, through the port
 *    `lore mcp` serves (cache.json read per question, pages read live, `limit` 5 per
 *    project): latency p50/p99 over a mixed query set, and p50 of the questions that fetch
 *    no page (the cost of the cache and the index filter);
 * 2. `lore sync` (runSync + the atomic cache write) of 200 repositories: repositories/s.
 * Writes `bench/federation-results.md` and prints the table and the JSON.
 * Sizes: `FED_PROJECTS` (20), `FED_LINES` (500), `FED_SYNC_REPOS` (200).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runGit } from "../adapters/git-cli/run-git.js";
import { LocalForge } from "../adapters/local-forge/local-forge.js";
import { freshIndexMd, WIKI_PAGE_TYPES } from "../core/wiki/wiki-index.js";
import { composeFederation } from "../main/compose-federation.js";
import { syncToCache } from "../services/federation/sync.js";
import { summarize, timeQueries } from "./latency-stats.js";
import { formatMs, type ResultRow, renderTable } from "./results-table.js";
import { createSeededRandom } from "./seeded-random.js";
import { buildVocabularies } from "./word-lists.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");

/** Real English words (the head of the bench vocabulary), for page names, titles and bodies. */
const VOCAB = buildVocabularies(0).en;
const WORDS = VOCAB.words.slice(0, VOCAB.realCount);

const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
};

/** Writes `files` into a new work tree, commits them, and clones it bare as `<root>/<name>.git`. */
async function makeBareRepo(
  root: string,
  scratch: string,
  name: string,
  files: Map<string, string>,
) {
  const work = join(scratch, name);
  for (const [path, text] of files) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), text);
  }
  const env = {
    GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
    GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
  };
  const git = (args: string[], paths: string[] = []) => runGit({ cwd: work, args, paths, env });
  await git(["init", "-q", "-b", "main"]);
  await git(["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "add", "-A"]);
  await git([
    "-c",
    "user.name=Bench",
    "-c",
    "user.email=bench@example.invalid",
    "commit",
    "-q",
    "--no-verify",
    "-m",
    "bench",
  ]);
  await runGit({
    cwd: root,
    args: ["clone", "-q", "--bare"],
    paths: [work, join(root, `${name}.git`)],
  });
  rmSync(work, { recursive: true, force: true });
}

/** A canonical index of `lines` pages spread over the five types, and the pages themselves. */
function wikiFiles(lines: number, seed: number): Map<string, string> {
  const random = createSeededRandom(seed);
  const pick = () => random.pick(WORDS);
  const byType = new Map<string, string[]>();
  const files = new Map<string, string>();
  for (let i = 0; i < lines; i++) {
    const type = WIKI_PAGE_TYPES[i % WIKI_PAGE_TYPES.length] as string;
    const name = `${pick()}-${pick()}-${i}`;
    const title = `${pick()} ${pick()} ${pick()}`;
    const list = byType.get(type) ?? [];
    list.push(`- [${name}](${type}/${name}.md) — ${title}`);
    byType.set(type, list);
    const body = Array.from({ length: 60 }, pick).join(" ");
    files.set(`.wiki/${type}/${name}.md`, `---\ntitle: ${title}\n---\n\n${body}\n`);
  }
  let index = freshIndexMd();
  for (const type of WIKI_PAGE_TYPES) {
    const heading = `## ${type[0]?.toUpperCase()}${type.slice(1)}`;
    index = index.replace(
      `${heading}\n\n<!-- (none yet) -->`,
      `${heading}\n\n${(byType.get(type) ?? []).sort().join("\n")}`,
    );
  }
  files.set(".wiki/index.md", index);
  return files;
}

async function main(): Promise<void> {
  const projects = envInt("FED_PROJECTS", 20);
  const lines = envInt("FED_LINES", 500);
  const syncRepos = envInt("FED_SYNC_REPOS", 200);
  const tmp = mkdtempSync(join(tmpdir(), "lore-fed-bench-"));
  try {
    // 1. ask_projects over `projects` × `lines`.
    const askRoot = join(tmp, "ask-forge");
    mkdirSync(askRoot);
    const t0 = performance.now();
    for (let p = 0; p < projects; p++)
      await makeBareRepo(askRoot, tmp, `project-${p}`, wikiFiles(lines, p + 1));
    const buildMs = performance.now() - t0;
    const forge = new LocalForge({ root: askRoot });
    const cacheFile = join(tmp, "ask-cache.json");
    await syncToCache({ forge, owner: "bench", syncedFrom: askRoot, machine: "bench", cacheFile });
    const names = Array.from({ length: projects }, (_, p) => `project-${p}`);
    const random = createSeededRandom(99);
    // A mix: empty (every page matches: limit-bound), word prefixes (some), a miss (none).
    const queries = Array.from({ length: 20 }, (_, i) =>
      i % 5 === 0 ? "" : i % 5 === 1 ? "zzzz-no-such-page" : random.pick(WORDS).slice(0, 4),
    );
    // The port `lore mcp` serves: reads cache.json at each question, as the tool does.
    const port = composeFederation({
      forge: { forge, owner: "bench", where: askRoot },
      cacheFile,
      sharedWiki: null,
      projectDir: tmp,
      machine: "bench",
      names: { getFrom: "knowledge.get_from", createTask: "tasks.create" },
    });
    let fetched = 0;
    const samples = await timeQueries(
      queries,
      async (query) => {
        const answer = await port.askProjects({ query, projects: names }, "bench");
        for (const r of answer.results) if ("matches" in r) fetched += r.matches.length;
      },
      { warmupPasses: 1, minSamples: 60 },
    );
    const ask = summarize(samples.map((s) => s.ms));
    // The miss queries fetch no page: the cost of reading the cache and filtering the indexes.
    const indexOnly = summarize(samples.filter((s) => s.query.startsWith("zzzz")).map((s) => s.ms));

    // 2. sync of `syncRepos` repositories.
    const syncRoot = join(tmp, "sync-forge");
    mkdirSync(syncRoot);
    const board =
      "# Tasks\n\n| slug | status | next |\n| --- | --- | --- |\n| a | todo | x |\n| b | done | y |\n";
    for (let r = 0; r < syncRepos; r++) {
      const files = new Map<string, string>([[".tasks/STATUS.md", board]]);
      if (r % 2 === 0)
        files.set(".wiki/index.md", "# Wiki Index\n\n## Concepts\n\n- [a](concepts/a.md) — A\n");
      await makeBareRepo(syncRoot, tmp, `repo-${r}`, files);
    }
    const syncForge = new LocalForge({ root: syncRoot });
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const s0 = performance.now();
      const done = await syncToCache({
        forge: syncForge,
        owner: "bench",
        syncedFrom: syncRoot,
        machine: "bench",
        cacheFile: join(tmp, "sync-cache.json"),
      });
      runs.push(performance.now() - s0);
      if (done.projects.length !== syncRepos)
        throw new Error(`sync saw ${done.projects.length} of ${syncRepos}`);
    }
    const syncMs = [...runs].sort((a, b) => a - b)[1] as number;
    const reposPerSec = syncRepos / (syncMs / 1000);

    const rows: ResultRow[] = [
      {
        metric: `ask_projects ${projects}×${lines} p50`,
        value: formatMs(ask.p50),
        baseline: "—",
        ratio: "—",
        target: "—",
        met: "—",
      },
      {
        metric: `ask_projects ${projects}×${lines} p99`,
        value: formatMs(ask.p99),
        baseline: "—",
        ratio: "—",
        target: "—",
        met: "—",
      },
      {
        metric: `ask_projects ${projects}×${lines} p50, no page fetched`,
        value: formatMs(indexOnly.p50),
        baseline: "—",
        ratio: "—",
        target: "—",
        met: "—",
      },
      {
        metric: `sync ${syncRepos} local repos`,
        value: `${reposPerSec.toFixed(1)} repos/s`,
        baseline: formatMs(syncMs),
        ratio: "—",
        target: "—",
        met: "—",
      },
    ];
    const table = renderTable(rows);
    const result = {
      machine: { cpus: cpus().length, node: process.version },
      ask: {
        projects,
        lines,
        samples: ask.count,
        p50: ask.p50,
        p99: ask.p99,
        mean: ask.mean,
        pagesFetched: fetched,
        buildMs,
        indexOnlyP50: indexOnly.p50,
        indexOnlyP99: indexOnly.p99,
      },
      sync: { repos: syncRepos, runsMs: runs, medianMs: syncMs, reposPerSec },
    };
    mkdirSync(join(ROOT, "bench"), { recursive: true });
    writeFileSync(
      join(ROOT, "bench", "federation-results.md"),
      `# Federation bench\n\n${table}\n\n\`\`\`json\n${JSON.stringify(result, null, 2)}\n\`\`\`\n`,
    );
    process.stdout.write(`${table}\n\n${JSON.stringify(result, null, 2)}\n`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:federation failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 1;
});
