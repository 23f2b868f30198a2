import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { openServerStore } from "../../src/main/open-server.js";
import { bareRepoPath, createRepo } from "../../src/services/access/hosted-repos.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { makeTestLicenceKey } from "../helpers/test-licence.js";
import { type CurlAnswer, readmeCurlLines, runReadmeCurl } from "./readme-curl-lines.js";
import { isolatedEnv } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// The README's curl examples of "Shown and read counters, stats", run in order with real curl
// against a real `lore serve` with a Pro test licence holding the README's example entries
// (examples/knowledge/, as "Quick team set-up" pushes them); the three paid lines also against
// one with no licence (Community): 402.

const EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "examples", "knowledge");
const ROLLBACK = "01921938-b600-7344-b7bb-b0d96211fc5a";
const SQLX = "01923d45-3a00-735d-a4bb-91fd2f6241c1";
/** pre-receive-hook.md: its contract needs `on_path`, which this version lacks. */
const HOOK = "0192cd77-4a00-71d5-9780-14004617e529";

let app: TestRepo;
const sandboxes: ReturnType<typeof isolatedEnv>[] = [];
let pro: ServedLore;
let community: ServedLore;

/** A `lore serve` of its own sandbox holding acme/app with the example entries; `licence` = a `[server] license` file. */
async function serve(licence?: { path: string; env: Record<string, string> }): Promise<ServedLore> {
  const sandbox = isolatedEnv(licence?.env ?? {});
  sandboxes.push(sandbox);
  if (licence !== undefined) {
    const config = join(sandbox.dir, "config", "lore");
    mkdirSync(config, { recursive: true });
    writeFileSync(
      join(config, "lore.toml"),
      `[server]\nlicense = ${JSON.stringify(licence.path)}\n`,
    );
  }
  const data = join(sandbox.dir, "data", "lore", "server");
  const store = await openServerStore(data);
  await createRepo(
    { store, dataDir: data, initBare: initBareRepo },
    { fullName: "acme/app", now: Date.now() },
  );
  await store.close();
  await runGit({
    cwd: app.dir,
    args: ["push", "-q"],
    values: [bareRepoPath(data, "acme/app"), "HEAD:refs/heads/main"],
  });
  return startServe(["--port", "0"], { cwd: sandbox.dir, env: sandbox.env });
}

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (const name of readdirSync(EXAMPLES).filter((f) => f.endsWith(".md"))) {
    files[`.gitriver/knowledge/${name}`] = readFileSync(join(EXAMPLES, name), "utf8");
  }
  app = await makeRepo(files);
  const key = makeTestLicenceKey();
  pro = await serve({ path: key.write({ edition: "pro" }), env: key.env });
  community = await serve();
});

afterAll(async () => {
  await pro?.stop();
  await community?.stop();
  await app?.cleanup();
  for (const sandbox of sandboxes) sandbox.cleanup();
});

/** Runs one README line against a test server (default: the Pro one). */
function curl(line: string, served: ServedLore = pro): Promise<CurlAnswer> {
  return runReadmeCurl(line, served.url.port, { LORE_TOKEN: served.token });
}

describe("the README's stats curl examples against a real lore serve", () => {
  it("has one example per shown, read and stats endpoint, each with the token", () => {
    const lines = readmeCurlLines("curl-examples-stats");
    expect(lines).toHaveLength(6);
    expect(lines[0]).toContain("/knowledge/shown");
    expect(lines[1]).toContain(`/knowledge/entries/${ROLLBACK}/read`);
    expect(lines[2]).toContain("/knowledge/stats/me");
    expect(lines[3]).toContain("/knowledge/stats/team");
    expect(lines[4]).toContain("/knowledge/stats/dead?min_shown=1&min_age_days=0");
    expect(lines[5]).toContain("/knowledge/stats/daily?days=7");
    for (const line of lines) expect(line).toContain("Authorization: Bearer $LORE_TOKEN");
  });

  it("run in order on Pro: two shown, one read, my counters and the team's exactly, the dead-memory report", async () => {
    const [shown, read, me, team, dead, daily] = readmeCurlLines("curl-examples-stats") as string[];
    expect(await curl(shown as string)).toMatchObject({
      status: 200,
      body: { counted: 2, unknown: [] },
    });
    expect(await curl(read as string)).toMatchObject({
      status: 200,
      body: { id: ROLLBACK, read: 1 },
    });
    const mine = await curl(me as string);
    expect(mine.status).toBe(200);
    const items = (mine.body as { items: Record<string, unknown>[] }).items;
    expect(mine.body).not.toHaveProperty("partial");
    expect(items.map((row) => [row.id, row.shown, row.read])).toEqual([
      [ROLLBACK, 1, 1],
      [SQLX, 1, 0],
    ]);
    expect(items[0]).toMatchObject({
      path: ".gitriver/knowledge/deploy-rollback.md",
      last_shown_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      last_read_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect(items[1]).toMatchObject({ last_read_at: null });
    const teams = await curl(team as string);
    expect(teams.status).toBe(200);
    const rows = (teams.body as { items: { id: string; shown: number; read: number }[] }).items;
    const count = readdirSync(EXAMPLES).filter((f) => f.endsWith(".md")).length;
    expect(rows).toHaveLength(count);
    expect(rows.filter((row) => row.shown === 0 && row.read === 0)).toHaveLength(count - 2);
    const report = await curl(dead as string);
    expect(report.status).toBe(200);
    const body = report.body as {
      items: { id: string; ailment: string }[];
      min_shown: number;
      min_age_days: number;
    };
    expect(body).toMatchObject({ min_shown: 1, min_age_days: 0 });
    expect(body.items.find((row) => row.id === SQLX)?.ailment).toBe("shown_not_read");
    expect(body.items.find((row) => row.id === ROLLBACK)).toBeUndefined();
    // Every ailment: the example that needs `on_path` (unknown to this version), the one shown
    // and never read (min_shown 1), the others never shown (min_age_days 0); the read one is well.
    const ailments = new Map(body.items.map((row) => [row.id, row.ailment]));
    expect(ailments.get(HOOK)).toBe("unreachable");
    expect(body.items.find((row) => row.id === HOOK)).toMatchObject({
      unmet_mechanisms: ["on_path"],
    });
    expect(ailments.get(SQLX)).toBe("shown_not_read");
    expect(ailments.has(ROLLBACK)).toBe(false);
    expect([...ailments.values()].filter((a) => a === "never_shown")).toHaveLength(count - 3);
    expect(ailments.size).toBe(count - 1);
    // The day's figures: two shown and one read today, zeros the six days before.
    const days = await curl(daily as string);
    expect(days.status).toBe(200);
    const rows7 = (days.body as { days: { day: string; shown: number; read: number }[] }).days;
    expect(rows7).toHaveLength(7);
    expect(rows7[6]).toEqual({ day: new Date().toISOString().slice(0, 10), shown: 2, read: 1 });
    expect(rows7.slice(0, 6).every((row) => row.shown === 0 && row.read === 0)).toBe(true);
  });

  it("the team and dead-memory lines answer 402 license_required on a Community server", async () => {
    const [, , , team, dead, daily] = readmeCurlLines("curl-examples-stats") as string[];
    for (const [line, feature] of [
      [team, "stats_team"],
      [dead, "stats_dead"],
      [daily, "stats_daily"],
    ] as const) {
      expect(await curl(line as string, community)).toMatchObject({
        status: 402,
        body: {
          error: {
            code: "license_required",
            data: { feature, edition: "community", edition_needed: "pro" },
          },
        },
      });
    }
  });
});
