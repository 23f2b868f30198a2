/**
 * Three `lore serve` behind nginx (scale-out, "Several servers"): three real servers from
 * the built bin started at once over ONE fresh data folder and one index file (the server
 * database — `server.db`, or PostgreSQL when `LORE_TEST_PG_URL` is set — and the bare
 * repositories shared), the Debian nginx in front of them (its own config and `-p` prefix
 * in a temp folder, keep-alive upstream connections), 300 connections mixing MCP recall,
 * `shown` and draft creation for `LORE_NGINX_SECONDS` (60) seconds, and one server killed
 * with SIGKILL halfway. Then: no status but success and the 502s of the killed server's
 * in-flight requests — nginx's access log (`$upstream_addr`) shows each failure went to the
 * killed server, was taken by nginx before the kill took effect and answered within the
 * kill window, and the client saw exactly those —, no socket error, every accepted draft
 * listed, the counters exact (each stored showing is an accepted call's, or a whole batch
 * of a call the kill cut off unanswered). It prints the figures (answers by route and
 * status, each failure's server and time from the kill, the slowest answers). Skips when
 * nginx is absent, unless under CI (`CI` set).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  draftIds,
  driveMixed,
  MIXED_USERS,
  type MixedRoute,
  maxLicence,
  SHOWN_IDS,
  setUpMixedTeam,
  shownOf,
} from "../../src/bench/server/mixed-load.js";
import { findNginx, type RunningNginx, startNginx } from "../../src/bench/server/nginx-front.js";
import { type ServedTeam, serveTeam, teamHome } from "../../src/bench/server/team-harness.js";
import { LORE_BIN } from "../e2e/run-lore.js";
import { createTestDatabase, TEST_PG_URL, type TestDatabase } from "../helpers/pg-test-database.js";

const SECONDS = Number(process.env.LORE_NGINX_SECONDS ?? 60);
const CONNECTIONS = 300;
/** A 502 answered this long after the kill still counts as the killed server's. */
const KILL_WINDOW_MS = 3000;
/**
 * A request nginx took this long after the kill was signalled may still have gone to the
 * killed server's kept-alive connection before nginx saw it close: in flight all the same.
 */
const IN_FLIGHT_SLACK_MS = 500;
const NGINX = findNginx();
const CI = process.env.CI !== undefined && process.env.CI !== "";

/**
 * The server database each run uses: the SQLite default, and PostgreSQL when set up; or
 * those named in `LORE_NGINX_ENGINES` (`sqlite`, `postgresql`, comma-separated: CI runs the
 * scale-out engine, PostgreSQL, only — see the README's "Several servers behind nginx").
 */
const ENGINES: ("sqlite" | "postgresql")[] = (() => {
  const all: ("sqlite" | "postgresql")[] = [
    "sqlite",
    ...(TEST_PG_URL ? ["postgresql" as const] : []),
  ];
  const asked = process.env.LORE_NGINX_ENGINES;
  if (asked === undefined || asked.trim() === "") return all;
  const names = asked.split(",").map((name) => name.trim());
  for (const name of names) {
    if (name !== "sqlite" && name !== "postgresql") {
      throw new Error(`LORE_NGINX_ENGINES: ${name} is neither sqlite nor postgresql`);
    }
    if (name === "postgresql" && !TEST_PG_URL) {
      throw new Error("LORE_NGINX_ENGINES names postgresql but LORE_TEST_PG_URL is not set");
    }
  }
  return all.filter((engine) => names.includes(engine));
})();

const dbs: TestDatabase[] = [];
afterAll(async () => {
  for (const db of dbs) await db.drop();
});

/** Checks the run over `engine`; see the module header. */
async function threeServers(engine: "sqlite" | "postgresql"): Promise<void> {
  const home = teamHome(LORE_BIN);
  const servers: ServedTeam[] = [];
  let nginx: RunningNginx | undefined;
  try {
    let database = "";
    if (engine === "postgresql") {
      const db = await createTestDatabase("nginx");
      dbs.push(db);
      database = `database = ${JSON.stringify((await db.schema()).url)}\n`;
    }
    await maxLicence(home, `shown_rate_limit = 0\n${database}`);
    // All three at once on a fresh data folder: the first start must happen once.
    servers.push(...(await Promise.all([0, 1, 2].map(() => serveTeam(home)))));
    const owners = new Set(servers.map((s) => s.ownerToken));
    expect(owners.size).toBe(1);
    expect(servers.filter((s) => s.stderr().includes("first start")).length).toBe(1);
    const ownerToken = servers[0]?.ownerToken ?? "";
    const prefix = join(home.dir, "nginx");
    mkdirSync(prefix, { recursive: true });
    nginx = await startNginx({ prefix, upstreams: servers.map((s) => s.port) });
    const team = await setUpMixedTeam(home, nginx.base, ownerToken, 64);

    const victim = servers[1] as ServedTeam;
    let killedAt = 0;
    let killed: Promise<void> | undefined;
    const run = await driveMixed(nginx.base, team, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      during: () => {
        setTimeout(
          () => {
            killedAt = Date.now();
            killed = victim.kill();
          },
          (SECONDS * 1000) / 2,
        );
      },
    });
    await killed;
    expect(killedAt).toBeGreaterThan(0);

    const byRoute = (route: MixedRoute, status: number) =>
      run.answers.filter((a) => a.route === route && a.status === status).length;
    const ok: Record<MixedRoute, number> = { recall: 200, shown: 200, draft: 201 };
    const statuses = new Map<string, number>();
    for (const a of run.answers) {
      const key = `${a.route} ${a.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    }
    const summary = [...statuses].map(([k, n]) => `${k}×${n}`).join(", ");

    // What nginx logged of the load (its POSTs from the load's start on, `$upstream_addr`
    // naming the server(s) each went to): the judge of which server a failure came from.
    const loadPaths = /^\/mcp$|\/knowledge\/(shown|drafts)$/;
    const logged = nginx
      .accessLog()
      .filter(
        (l) => l.method === "POST" && loadPaths.test(l.path) && l.at - l.ms >= run.startedAt - 1000,
      );
    const failed = logged.filter((l) => l.status >= 300);
    const rel = (t: number) => Math.round(t - killedAt);
    const figures = [
      `answers: ${summary}`,
      `failures (status, server, ms from the kill to nginx's receipt…answer): ${
        failed
          .map((l) => `${l.status} ${l.upstreams.join(">")} ${rel(l.at - l.ms)}…${rel(l.at)}`)
          .join(", ") || "none"
      }`,
      `socket errors (ms from the kill): ${run.socketErrors.map((e) => `${e.route} ${rel(e.at)} ${e.message}`).join(", ") || "none"}`,
      `slowest answer per route (ms): ${(["recall", "shown", "draft"] as const)
        .map(
          (r) =>
            `${r} ${Math.max(0, ...run.answers.filter((a) => a.route === r).map((a) => Math.round(a.ms)))}`,
        )
        .join(", ")}`,
      `5xx bodies: ${JSON.stringify(run.failureBodies.filter((f) => f.status !== 502).slice(0, 3))}`,
    ].join("\n");
    // Only the route's success, and 502 for a request the killed server had in flight.
    const unexpected = run.answers.filter((a) => a.status !== ok[a.route] && a.status !== 502);
    expect(unexpected.map((a) => `${a.route} ${a.status}`).slice(0, 5), figures).toEqual([]);
    expect(run.errors, figures).toBe(0);
    // Each failure nginx logged is a 502 of the killed server (the last it tried), of a
    // request nginx had taken before the kill took effect, answered within the kill window;
    // and the client saw exactly those.
    const victimPort = victim.port;
    const notVictims = failed.filter(
      (l) =>
        l.status !== 502 ||
        l.upstreams[l.upstreams.length - 1] !== victimPort ||
        l.at - l.ms > killedAt + IN_FLIGHT_SLACK_MS ||
        l.at < killedAt ||
        l.at > killedAt + KILL_WINDOW_MS,
    );
    expect(
      notVictims.length,
      `failures not of the killed server's in-flight requests\n${figures}\n${nginx.errorLog()}`,
    ).toBe(0);
    const answered502 = run.answers.filter((a) => a.status === 502).length;
    expect(failed.length, figures).toBe(answered502);
    expect(answered502).toBeLessThanOrEqual(CONNECTIONS);
    expect(run.recallErrors).toBe(0);
    expect(run.shownMiscounted).toBe(0);
    // Load was served by all three before the kill and by the other two after.
    expect(byRoute("shown", 200)).toBeGreaterThan(0);
    expect(run.drafts.length).toBeGreaterThan(0);
    expect(
      run.answers.filter((a) => a.status === ok[a.route] && a.sentAt > killedAt + KILL_WINDOW_MS)
        .length,
    ).toBeGreaterThan(0);

    // Every accepted draft is there; a draft beyond them is one a 502 cut off.
    const listed = await draftIds(nginx.base, ownerToken);
    const missing = run.drafts.filter((id) => !listed.has(id));
    expect(missing).toEqual([]);
    expect(listed.size - run.drafts.length).toBeGreaterThanOrEqual(0);
    expect(listed.size - run.drafts.length).toBeLessThanOrEqual(byRoute("draft", 502));

    // The counters: each stored showing is an accepted call's, or a whole batch (one
    // transaction) of a call answered 502.
    let stored = 0;
    for (const user of MIXED_USERS.shown) {
      stored += await shownOf(nginx.base, team.tokens.get(user) ?? "");
    }
    const accepted = byRoute("shown", 200) * SHOWN_IDS;
    expect(stored - accepted, `stored ${stored}, accepted ${accepted}`).toBeGreaterThanOrEqual(0);
    expect((stored - accepted) % SHOWN_IDS).toBe(0);
    expect((stored - accepted) / SHOWN_IDS).toBeLessThanOrEqual(byRoute("shown", 502));
    if (byRoute("shown", 502) === 0) expect(stored).toBe(accepted);
    const agent = await shownOf(nginx.base, team.tokens.get("agent") ?? "");
    expect(agent - run.recallHits).toBeGreaterThanOrEqual(0);
    // A recall counts at most its 10 hits.
    expect(agent - run.recallHits).toBeLessThanOrEqual(byRoute("recall", 502) * 10);
    console.log(
      `three servers behind nginx over ${engine}: ${run.answers.length} answers in ${SECONDS} s; drafts ${run.drafts.length} accepted, ${listed.size} listed; shown stored ${stored} = accepted ${accepted} + ${(stored - accepted) / SHOWN_IDS} cut-off batches\n${figures}`,
    );
  } finally {
    await nginx?.stop();
    for (const server of servers) await server.stop();
    home.cleanup();
  }
}

if (NGINX === undefined && !CI) {
  describe.skip("three servers behind nginx: nginx is not installed (apt-get install -y nginx)", () => {
    it("serves a mixed load through nginx with one server killed", () => undefined);
  });
} else {
  describe("three lore serve behind nginx, one killed mid-run", () => {
    for (const engine of ENGINES) {
      it(
        `over ${engine}: no 5xx beyond the killed server's in-flight requests, no accepted write lost, counters exact`,
        () => threeServers(engine),
        (SECONDS + 180) * 1000,
      );
    }
  });
}
