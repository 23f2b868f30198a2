/**
 * The web view's bench (issue "A web view of the team's knowledge": first load of the
 * dead-memory page on a repository of 10k entries, and the page's transfer size). In a temp
 * sandbox: a Pro test licence, a hosted repository of 10,000 entries pushed with real git,
 * a real `lore serve` (dist/cli/main.js) serving the built dist/web, a session cookie made
 * with the owner token; then Debian's Chromium (playwright-core, headless, a fresh profile —
 * so a cold cache — for every sample) loads:
 *
 * - **dead page**: `/#/repos/acme/bench/dead?min_shown=10&min_age_days=0` (every entry is
 *   new and never shown, so all are `never_shown` and the report is its 1,000-row cap) from
 *   navigation start until the table holds
 *   its rows *and* a click on a sort header was handled (the sorted table painted): time to
 *   interactive, ms, read as the page's own `performance.now()` (its origin is the
 *   navigation start);
 * - **baseline, static**: `/healthz` from the same server — navigation start to the load
 *   event (a server round trip and the browser's own cost, no app);
 * - **baseline, app shell**: `/` with no session — the same bundle up to the sign-in form
 *   rendered (the app's cost without data).
 *
 * The dead page's line also names how long its `GET …/stats/dead` took (request start to
 * response end), to tell the server's share from the page's.
 *
 * Transfer size: the navigation's plus every resource's `transferSize` (bytes on the wire,
 * headers included) from Resource Timing, split into the app's assets and the API's JSON.
 * Prints medians of `BENCH_SAMPLES` (default 5) cold loads and the ratios to the baselines.
 *
 * Usage: `npm run bench:web` (needs /usr/bin/chromium).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { initBareRepo } from "../../adapters/git-cli/init-bare.js";
import { runGit } from "../../adapters/git-cli/run-git.js";
import { licenceDay, makeLicenceKeyPair, signLicence } from "../../core/editions/licence.js";
import { openServerStore } from "../../main/open-server.js";
import { bareRepoPath, createRepo } from "../../services/access/hosted-repos.js";

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 5);
const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-quic",
  "--disable-sync",
];
const LORE_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "cli", "main.js");

function entry(i: number): string {
  const id = `0193d000-0000-7000-8000-${i.toString(16).padStart(12, "0")}`;
  return `---
id: ${id}
origin: human
contract:
  - mechanism: on_query
    params:
      words: ["topic${i % 97}", "service${i}"]
---

Entry ${i}: how the team runs service ${i}.
`;
}

async function git(cwd: string, args: string[], values: string[] = []): Promise<void> {
  await runGit({
    cwd,
    args,
    values,
    env: { GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z" },
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/** Bytes of the navigation and resources, split into the app's and the API's. */
const TRANSFER = `(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  let app = nav ? nav.transferSize : 0, api = 0, count = 1, deadMs = 0;
  for (const r of performance.getEntriesByType("resource")) {
    count++;
    if (new URL(r.name).pathname.endsWith("/stats/dead")) deadMs = r.responseEnd - r.startTime;
    if (new URL(r.name).pathname.startsWith("/api/") || new URL(r.name).pathname.startsWith("/web/api/")) api += r.transferSize;
    else app += r.transferSize;
  }
  return { app, api, count, deadMs };
})()`;

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    process.stderr.write("bench:web needs /usr/bin/chromium (apt-get install -y chromium)\n");
    process.exitCode = 2;
    return;
  }
  const root = mkdtempSync(join(tmpdir(), "lore-web-bench-"));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_DATA_HOME: join(root, "data"),
    LORE_DB: join(root, "index.db"),
    LORE_USER: "bench",
    LORE_LANG: "en",
  };
  let serve: ReturnType<typeof spawn> | undefined;
  try {
    const keys = makeLicenceKeyPair();
    env.LORE_LICENSE_PUBLIC_KEY = keys.publicPem;
    const licence = signLicence(
      {
        lore_license: 1,
        edition: "pro",
        licensee: "Bench",
        issued: licenceDay(Date.now()),
        expires: null,
      },
      keys.privatePem,
    );
    const config = join(root, "config", "lore");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "licence.json"), JSON.stringify(licence));
    writeFileSync(join(config, "lore.toml"), '[server]\nlicense = "licence.json"\n');
    const data = join(root, "data", "lore", "server");
    const store = await openServerStore(data);
    await createRepo(
      { store, dataDir: data, initBare: initBareRepo },
      { fullName: "acme/bench", now: Date.now() },
    );
    await store.close();
    const work = join(root, "work");
    mkdirSync(join(work, ".gitriver", "knowledge"), { recursive: true });
    for (let i = 0; i < ENTRIES; i++) {
      writeFileSync(join(work, ".gitriver", "knowledge", `e${i}.md`), entry(i));
    }
    await git(work, ["init", "-q", "-b", "main"]);
    await git(work, ["-c", "user.name=bench", "-c", "user.email=bench@example.com", "add", "-A"]);
    await git(work, [
      "-c",
      "user.name=bench",
      "-c",
      "user.email=bench@example.com",
      "commit",
      "-qm",
      "entries",
    ]);
    await git(work, ["push", "-q"], [bareRepoPath(data, "acme/bench"), "HEAD:refs/heads/main"]);

    serve = spawn(process.execPath, [LORE_BIN, "serve", "--port", "0", "--ssh-port", "0"], {
      cwd: root,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const port = await new Promise<string>((resolve, reject) => {
      serve?.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        const match = /serving MCP over HTTP at http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
        if (match?.[1]) resolve(match[1]);
      });
      serve?.on("close", (code) => reject(new Error(`lore serve exited ${code}: ${stderr}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const token = readFileSync(join(data, "owner-token"), "utf8").trim();
    const auth = { authorization: `Bearer ${token}` };
    // Warm the server: the index is brought up to the default branch on the first read.
    const t0 = performance.now();
    const listing = (await (
      await fetch(`${base}/api/v1/repos/acme/bench/knowledge`, { headers: auth })
    ).json()) as {
      items: unknown[];
    };
    const dead = (await (
      await fetch(`${base}/api/v1/repos/acme/bench/knowledge/stats/dead?min_age_days=0`, {
        headers: auth,
      })
    ).json()) as { items: unknown[]; partial?: string };
    const warm = performance.now() - t0;
    const session = await fetch(`${base}/web/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token }),
    });
    if (!session.ok)
      throw new Error(`POST /web/api/session: ${session.status} ${await session.text()}`);
    const cookie = /lore_session=([^;]+)/.exec(session.headers.get("set-cookie") ?? "")?.[1];
    if (!cookie) throw new Error("no lore_session cookie");

    const run = async (kind: "dead" | "healthz" | "shell") => {
      const profile = mkdtempSync(join(tmpdir(), "lore-web-bench-chromium-"));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: FLAGS,
        viewport: { width: 1280, height: 900 },
      });
      try {
        if (kind === "dead") {
          await context.addCookies([
            {
              name: "lore_session",
              value: cookie,
              domain: "127.0.0.1",
              path: "/",
              httpOnly: true,
              sameSite: "Strict",
            },
          ]);
        }
        const page = context.pages()[0] ?? (await context.newPage());
        let ms: number;
        if (kind === "healthz") {
          await page.goto(`${base}/healthz`, { waitUntil: "load" });
          ms = (await page.evaluate(
            `performance.getEntriesByType("navigation")[0].loadEventEnd`,
          )) as number;
        } else if (kind === "shell") {
          await page.goto(`${base}/`);
          await page.locator("#token").waitFor({ timeout: 60_000 });
          ms = (await page.evaluate("performance.now()")) as number;
        } else {
          await page.goto(`${base}/#/repos/acme/bench/dead?min_shown=10&min_age_days=0`);
          await page.locator("table.dead tbody tr").first().waitFor({ timeout: 120_000 });
          // The click is handled when the sorted table is painted (two frames later).
          ms = (await page.evaluate(`new Promise((resolve) => {
            const button = document.querySelector('button[data-sort="shown"]');
            button.click();
            const th = button.closest("th");
            const check = () => th.getAttribute("aria-sort") === "ascending"
              ? requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())))
              : requestAnimationFrame(check);
            check();
          })`)) as number;
        }
        const bytes = (await page.evaluate(TRANSFER)) as {
          app: number;
          api: number;
          count: number;
          deadMs: number;
        };
        const rows = kind === "dead" ? await page.locator("table.dead tbody tr").count() : 0;
        return { ms, bytes, rows };
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    };
    const results: Record<string, Awaited<ReturnType<typeof run>>[]> = {
      healthz: [],
      shell: [],
      dead: [],
    };
    await run("dead"); // one throw-away load: the server's first answers of this shape
    for (let i = 0; i < SAMPLES; i++) {
      for (const kind of ["healthz", "shell", "dead"] as const)
        results[kind]?.push(await run(kind));
    }
    const summary = (kind: string) => {
      const list = results[kind] ?? [];
      return {
        ms: median(list.map((r) => r.ms)),
        app: median(list.map((r) => r.bytes.app)),
        api: median(list.map((r) => r.bytes.api)),
        requests: median(list.map((r) => r.bytes.count)),
        rows: median(list.map((r) => r.rows)),
        deadMs: median(list.map((r) => r.bytes.deadMs)),
      };
    };
    const h = summary("healthz");
    const s = summary("shell");
    const d = summary("dead");
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    const out = [
      `web bench: ${ENTRIES} entries in acme/bench (index listing ${listing.items.length} records, dead report ${dead.items.length} rows${dead.partial ? `, partial: ${dead.partial}` : ""}); first reads warmed in ${warm.toFixed(0)} ms; medians of ${SAMPLES} cold loads (fresh Chromium profile each)`,
      `baseline /healthz:        load ${h.ms.toFixed(1)} ms, transfer ${kb(h.app)} (${h.requests} request(s))`,
      `baseline app shell (/):   sign-in form interactive ${s.ms.toFixed(1)} ms, transfer ${kb(s.app)} assets + ${kb(s.api)} API (${s.requests} requests)`,
      `dead-memory page:         table of ${d.rows} rows rendered and a sort click handled ${d.ms.toFixed(1)} ms (of which GET stats/dead ${d.deadMs.toFixed(1)} ms), transfer ${kb(d.app)} assets + ${kb(d.api)} API (${d.requests} requests)`,
      `ratios: dead page / healthz ${(d.ms / h.ms).toFixed(1)}×, dead page / app shell ${(d.ms / s.ms).toFixed(1)}× (time); bytes dead page / app shell ${((d.app + d.api) / (s.app + s.api)).toFixed(1)}×`,
    ];
    process.stdout.write(`${out.join("\n")}\n`);
  } finally {
    if (serve && serve.exitCode === null) {
      const exited = new Promise((resolve) => serve?.once("close", resolve));
      serve.kill("SIGTERM");
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
