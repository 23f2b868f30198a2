/**
 * The parse-on-push benchmark (seed 004, "Разбор при отправке"), run with
 * `npm run build && node dist/bench/server/push-bench.js`:
 *
 * 1. a push of 1,000 changed knowledge files into a repository whose index already holds
 *    100k entries: the hooks' own time (`pre-receive` + `post-receive`, each a whole
 *    `node … hook` process, timed by a wrapper around Lore's installed script; target
 *    ≤ 1.5 s) and the push's wall time as a ratio to the same push into a copy with no
 *    hooks, same run;
 * 2. a push of 1 changed file (target ≤ 0.5 s hook time), the same two ways.
 *
 * Each hook's CPU time (its processes' user + system) is printed too, with the load
 * average after the push: on a shared machine it moves far less than the wall time.
 *
 * The repository is `generate-entries.ts`'s (cached under the temp folder); the changed
 * files are its first entries with one more line. Sizes: `PUSH_BENCH_ENTRIES` (100 000),
 * `PUSH_BENCH_CHANGED` (1 000). Prints a table and the JSON.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { hookScript, LORE_HOOKS } from "../../core/push/hook-script.js";
import { openIndex } from "../../index/entry-index.js";
import { hostedHealDeps } from "../../main/compose-hook.js";
import { updateRepoIndex } from "../../services/push/heal-index.js";
import { benchGitEnv, ensureBenchRepo, generateEntryFiles } from "../generate-entries.js";
import { formatMs, formatRatio, type ResultRow, renderTable, yesNo } from "../results-table.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const MAIN = join(HERE, "..", "..", "cli", "main.js");

const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
};

function git(cwd: string, args: string[], input?: string): string {
  const r = spawnSync("git", args, {
    cwd,
    env: benchGitEnv(),
    encoding: "utf8",
    maxBuffer: 1 << 30,
    ...(input === undefined ? {} : { input }),
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/**
 * Makes a commit on top of `parent` in `work` (a bare clone used as the pusher's
 * repository) replacing `files`, without a work tree: blobs by `hash-object -w`, a
 * temporary index from the parent's tree.
 */
function commitFiles(
  work: string,
  parent: string,
  files: { path: string; text: string }[],
): string {
  const temp = mkdtempSync(join(tmpdir(), "lore-push-bench-blobs-"));
  const paths = files.map((file, i) => {
    const path = join(temp, `${i}.md`);
    writeFileSync(path, file.text);
    return path;
  });
  const shas = git(work, ["hash-object", "-w", "--stdin-paths"], `${paths.join("\n")}\n`)
    .trim()
    .split("\n");
  rmSync(temp, { recursive: true, force: true });
  const indexFile = join(work, "bench-index");
  const env = { ...benchGitEnv(), GIT_INDEX_FILE: indexFile };
  const run = (args: string[], input?: string) => {
    const r = spawnSync("git", args, {
      cwd: work,
      env,
      encoding: "utf8",
      maxBuffer: 1 << 30,
      input,
    });
    if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
    return r.stdout.trim();
  };
  run(["read-tree", parent]);
  run(
    ["update-index", "--index-info"],
    `${files.map((file, i) => `100644 ${shas[i]}\t${file.path}`).join("\n")}\n`,
  );
  const tree = run(["write-tree"]);
  rmSync(indexFile, { force: true });
  return run([
    "-c",
    "user.name=bench",
    "-c",
    "user.email=bench@example.invalid",
    "commit-tree",
    tree,
    "-p",
    parent,
    "-m",
    "bench change",
  ]);
}

/**
 * `PUSH_BENCH_PROFILE_DIR=D`: the hooks' node runs with `--cpu-prof --cpu-prof-dir=D` (Node
 * 20 refuses it in `NODE_OPTIONS`, so through a small wrapper), one `.cpuprofile` per hook
 * process, for Chrome DevTools or a script that sums self time per function.
 */
function hookNode(root: string): string {
  const dir = process.env.PUSH_BENCH_PROFILE_DIR;
  if (dir === undefined || dir === "") return process.execPath;
  const wrapper = join(root, "node-cpu-prof");
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec '${process.execPath}' --cpu-prof --cpu-prof-dir='${dir}' "$@"\n`,
    { mode: 0o755 },
  );
  return wrapper;
}

/**
 * Installs Lore's hooks into `bare`, each wrapped to log its own wall time and CPU time to
 * `timing`: the CPU time is the wrapper shell's children's user + system time (`times`,
 * POSIX), i.e. the hook's `node` and the git processes it started — a figure a busy
 * machine inflates far less than the wall time.
 */
function installTimedHooks(bare: string, data: string, db: string, timing: string): void {
  const node = hookNode(dirname(timing));
  for (const hook of LORE_HOOKS) {
    const lore = join(bare, "hooks", `${hook}.lore`);
    writeFileSync(lore, hookScript(hook, { node, main: MAIN, database: db, data, config: null }), {
      mode: 0o755,
    });
    const text = [
      "#!/bin/sh",
      "s=$(date +%s%N)",
      `sh '${lore}'`,
      "code=$?",
      "e=$(date +%s%N)",
      // `times` in this shell (a pipe would run it in a subshell, which has no children).
      `times > '${timing}.times'`,
      `c=$(tail -n 1 '${timing}.times')`,
      `echo "${hook} $s $e $c" >> '${timing}'`,
      "exit $code",
      "",
    ].join("\n");
    writeFileSync(join(bare, "hooks", hook), text, { mode: 0o755 });
  }
}

/** `times`' `0m1.234000s` (or `1m2.5s`) as ms; NaN when it is not that shape. */
function timesMs(text: string | undefined): number {
  const m = /^(\d+)m([\d.]+)s$/.exec(text ?? "");
  return m === null ? Number.NaN : (Number(m[1]) * 60 + Number(m[2])) * 1000;
}

/** Reads and clears the timing log: wall ms and CPU ms (user + system) per hook. */
function hookTimes(timing: string): Record<string, { wall: number; cpu: number }> {
  const out: Record<string, { wall: number; cpu: number }> = {};
  for (const line of readFileSync(timing, "utf8").trim().split("\n")) {
    const [hook, s, e, user, system] = line.split(" ");
    if (hook === undefined) continue;
    out[hook] = { wall: (Number(e) - Number(s)) / 1e6, cpu: timesMs(user) + timesMs(system) };
  }
  writeFileSync(timing, "");
  return out;
}

function timedPush(work: string, remote: string, refspec: string): { ms: number; stderr: string } {
  const started = performance.now();
  const r = spawnSync("git", ["push", "-q", remote, refspec], {
    cwd: work,
    env: benchGitEnv(),
    encoding: "utf8",
  });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`push failed: ${r.stderr}`);
  return { ms, stderr: r.stderr };
}

async function main(): Promise<void> {
  const entries = envInt("PUSH_BENCH_ENTRIES", 100_000);
  const changed = envInt("PUSH_BENCH_CHANGED", 1_000);
  const repo = await ensureBenchRepo(entries);
  const root = mkdtempSync(join(tmpdir(), "lore-push-bench-"));
  try {
    const data = join(root, "data");
    const db = join(root, "index.db");
    const timing = join(root, "timing.log");
    writeFileSync(timing, "");
    const hooked = join(data, "repos", "bench", "app.git");
    const plain = join(root, "plain.git");
    const work = join(root, "work.git");
    mkdirSync(dirname(hooked), { recursive: true });
    for (const dir of [hooked, plain, work]) git(root, ["clone", "-q", "--bare", repo.dir, dir]);

    // The index already holds the repository's entries at its head.
    const indexStarted = performance.now();
    const index = openIndex(db);
    const first = await updateRepoIndex(hostedHealDeps(index), {
      fullName: "bench/app",
      dir: hooked,
      defaultBranch: "main",
    });
    const held = index.entryCount();
    index.close();
    const indexMs = performance.now() - indexStarted;
    installTimedHooks(hooked, data, db, timing);

    const originals: { path: string; text: string }[] = [];
    for (const file of generateEntryFiles({ count: changed })) originals.push(file);
    const bulk = originals.map((file) => ({
      path: file.path,
      text: `${file.text}\nChanged by the push bench.\n`,
    }));
    const c1 = commitFiles(work, repo.commit, bulk);
    const one = [{ path: bulk[0]?.path ?? "", text: `${bulk[0]?.text ?? ""}\nOnce more.\n` }];
    const c2 = commitFiles(work, c1, one);

    const rows: ResultRow[] = [];
    const results: Record<string, unknown> = {
      entries,
      indexed: held,
      initialIndexMs: Math.round(indexMs),
      initialIndex: first.how,
    };
    for (const [label, commit, files] of [
      ["bulk", c1, changed],
      ["one", c2, 1],
    ] as const) {
      const plainPush = timedPush(work, plain, `${commit}:refs/heads/main`);
      const hookedPush = timedPush(work, hooked, `${commit}:refs/heads/main`);
      const times = hookTimes(timing);
      const pre = times["pre-receive"] ?? { wall: 0, cpu: 0 };
      const post = times["post-receive"] ?? { wall: 0, cpu: 0 };
      const hookMs = pre.wall + post.wall;
      const check = openIndex(db);
      const recorded = check.repository("bench/app")?.commit;
      check.close();
      if (recorded !== commit) throw new Error(`the index did not follow the push (${label})`);
      results[label] = {
        files,
        preReceiveMs: Math.round(pre.wall),
        postReceiveMs: Math.round(post.wall),
        hookMs: Math.round(hookMs),
        preReceiveCpuMs: Math.round(pre.cpu),
        postReceiveCpuMs: Math.round(post.cpu),
        loadAverage: loadavg().map((n) => Number(n.toFixed(2))),
        pushMs: Math.round(hookedPush.ms),
        pushNoHooksMs: Math.round(plainPush.ms),
        ratio: Number((hookedPush.ms / plainPush.ms).toFixed(2)),
        remoteLines: hookedPush.stderr.split("\n").filter((l) => l.startsWith("remote: ")).length,
      };
      const target = files === 1 ? 500 : 1500;
      const plural = files === 1 ? "" : "s";
      rows.push(
        {
          metric: `hook time, push of ${files} changed file${plural} (pre + post)`,
          value: formatMs(hookMs),
          baseline: "—",
          ratio: "—",
          target: `≤ ${formatMs(target)}`,
          met: yesNo(hookMs <= target),
        },
        {
          metric: `hook CPU time, ${files} file${plural} (user + system, git included)`,
          value: formatMs(pre.cpu + post.cpu),
          baseline: "—",
          ratio: "—",
          target: "—",
          met: "—",
        },
        {
          metric: `push wall time, ${files} file${plural}: hooks on vs off`,
          value: formatMs(hookedPush.ms),
          baseline: formatMs(plainPush.ms),
          ratio: formatRatio(hookedPush.ms / plainPush.ms),
          target: "—",
          met: "—",
        },
      );
    }
    process.stdout.write(`${renderTable(rows)}\n\n${JSON.stringify(results, null, 2)}\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
