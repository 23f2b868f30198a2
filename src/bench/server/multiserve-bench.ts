/**
 * Three servers behind nginx against one (scale-out, "Several servers", its bench): req/s
 * and p99 of the mixed load (MCP recall, `shown`, draft creation; `mixed-load.ts`) through
 * nginx in front of one `lore serve`, then through nginx in front of three over the same
 * data folder and index, in the same run. Run with `npm run bench:multiserve`.
 *
 * Spawns three real `lore serve` (`dist/cli/main.js`) on 127.0.0.1 at once on a fresh temp
 * data folder (a Max licence made with a test key, `shown_rate_limit = 0`), sets the team up
 * with the administration commands and the real git client, starts the Debian nginx twice
 * (`nginx-front.ts`: upstream of the first server alone, then of all three) and drives each
 * for `MULTISERVE_SECONDS` (30) with `MULTISERVE_CONNECTIONS` (300) connections. Prints a
 * table (`results-table.ts`): the three-server figure, the one-server baseline, their
 * ratio. Fails (exit 1) on a socket error or a status other than the route's success.
 * Writes nothing outside its temp folder.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarize } from "../latency-stats.js";
import { formatMs, formatRatio, renderTable, yesNo } from "../results-table.js";
import {
  driveMixed,
  type MixedRoute,
  type MixedRun,
  maxLicence,
  setUpMixedTeam,
} from "./mixed-load.js";
import { findNginx, startNginx } from "./nginx-front.js";
import { type ServedTeam, serveTeam, teamHome } from "./team-harness.js";

const MAIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "cli", "main.js");

const envInt = (name: string, fallback: number, min: number): number => {
  const raw = process.env[name];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min}`);
  return n;
};

const SECONDS = envInt("MULTISERVE_SECONDS", 30, 1);
const CONNECTIONS = envInt("MULTISERVE_CONNECTIONS", 300, 3);
const SUCCESS: Record<MixedRoute, number> = { recall: 200, shown: 200, draft: 201 };

/** Answers per second of the load proper (the drain's answers are not timed). */
function perSecond(run: MixedRun, route?: MixedRoute): number {
  return (
    run.answers.filter(
      (a) => a.answeredAt <= run.endedAt && (route === undefined || a.route === route),
    ).length / SECONDS
  );
}

function p99(run: MixedRun, route?: MixedRoute): number {
  return summarize(
    run.answers.filter((a) => route === undefined || a.route === route).map((a) => a.ms),
  ).p99;
}

/** The failures of a run: socket errors, statuses other than the route's success. */
function failuresOf(label: string, run: MixedRun): string[] {
  const failures: string[] = [];
  if (run.errors > 0) failures.push(`${label}: ${run.errors} socket errors or timeouts`);
  const wrong = run.answers.filter((a) => a.status !== SUCCESS[a.route]);
  if (wrong.length > 0) {
    const first = wrong.slice(0, 3).map((a) => `${a.route} ${a.status}`);
    failures.push(`${label}: ${wrong.length} unexpected statuses (${first.join(", ")})`);
  }
  if (run.recallErrors > 0) failures.push(`${label}: ${run.recallErrors} recall errors`);
  return failures;
}

async function main(): Promise<void> {
  if (findNginx() === undefined) {
    console.error("bench:multiserve needs nginx: apt-get install -y nginx");
    process.exitCode = 1;
    return;
  }
  const home = teamHome(MAIN);
  const servers: ServedTeam[] = [];
  const failures: string[] = [];
  try {
    await maxLicence(home, "shown_rate_limit = 0\n");
    servers.push(...(await Promise.all([0, 1, 2].map(() => serveTeam(home)))));
    const owner = servers[0] as ServedTeam;
    const team = await setUpMixedTeam(home, owner.base, owner.ownerToken, 320);
    const runs: MixedRun[] = [];
    for (const count of [1, 3]) {
      const nginx = await startNginx({
        prefix: join(home.dir, `nginx-${count}`),
        upstreams: servers.slice(0, count).map((s) => s.port),
      });
      try {
        const run = await driveMixed(nginx.base, team, {
          connections: CONNECTIONS,
          seconds: SECONDS,
        });
        runs.push(run);
        failures.push(...failuresOf(`${count} server(s)`, run));
      } finally {
        await nginx.stop();
      }
    }
    const [one, three] = runs as [MixedRun, MixedRun];
    console.log(
      `lore serve behind nginx: the mixed load (40% MCP recall, 30% shown of 16 ids, 30% drafts) with ${CONNECTIONS} connections for ${SECONDS} s each, one server then three over one data folder (${team.entries.length} entries; ${one.drafts.length + three.drafts.length} drafts written); ${process.platform} ${process.arch}, Node ${process.version}\n`,
    );
    const rows = [];
    for (const route of [undefined, "recall", "shown", "draft"] as const) {
      const name = route ?? "all";
      const a = perSecond(three, route);
      const b = perSecond(one, route);
      rows.push({
        metric: `req/s, ${name}`,
        value: a.toFixed(1),
        baseline: `${b.toFixed(1)} (1 server)`,
        ratio: formatRatio(a / b),
        target: route === undefined ? "> 1× (more servers, more requests)" : "—",
        met: route === undefined ? yesNo(a > b) : "—",
      });
      const pa = p99(three, route);
      const pb = p99(one, route);
      rows.push({
        metric: `p99, ${name}`,
        value: formatMs(pa),
        baseline: `${formatMs(pb)} (1 server)`,
        ratio: formatRatio(pa / pb),
        target: "—",
        met: "—",
      });
    }
    console.log(renderTable(rows));
  } finally {
    for (const server of servers) await server.stop();
    home.cleanup();
  }
  if (failures.length > 0) {
    console.error(`\nFAILED:\n${failures.map((f) => `- ${f}`).join("\n")}`);
    process.exitCode = 1;
  }
}

await main();
