import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { openServerStore } from "../../src/main/open-server.js";
import { bareRepoPath, createRepo } from "../../src/services/access/hosted-repos.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { type CurlAnswer, readmeCurlLines, runReadmeCurl } from "./readme-curl-lines.js";
import { isolatedEnv } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// The README's curl examples of "Shown and read counters, stats", run in order with real curl
// against a real `lore serve` with no licence (Community) holding the README's example
// entries (examples/knowledge/, as "Quick team set-up" pushes them).

const EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "examples", "knowledge");
const ROLLBACK = "01921938-b600-7344-b7bb-b0d96211fc5a";
const SQLX = "01923d45-3a00-735d-a4bb-91fd2f6241c1";

let app: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let port = "";

beforeAll(async () => {
  sandbox = isolatedEnv();
  const data = join(sandbox.dir, "data", "lore", "server");
  const store = await openServerStore(data);
  await createRepo(
    { store, dataDir: data, initBare: initBareRepo },
    { fullName: "acme/app", now: Date.now() },
  );
  await store.close();
  const files: Record<string, string> = {};
  for (const name of readdirSync(EXAMPLES).filter((f) => f.endsWith(".md"))) {
    files[`.gitriver/knowledge/${name}`] = readFileSync(join(EXAMPLES, name), "utf8");
  }
  app = await makeRepo(files);
  await runGit({
    cwd: app.dir,
    args: ["push", "-q"],
    values: [bareRepoPath(data, "acme/app"), "HEAD:refs/heads/main"],
  });
  served = await startServe(["--port", "0"], { cwd: sandbox.dir, env: sandbox.env });
  port = served.url.port;
});

afterAll(async () => {
  await served?.stop();
  await app?.cleanup();
  sandbox?.cleanup();
});

/** Runs one README line against the test server. */
function curl(line: string): Promise<CurlAnswer> {
  return runReadmeCurl(line, port, { LORE_TOKEN: served.token });
}

describe("the README's stats curl examples against a real lore serve", () => {
  it("has one example per shown, read and stats endpoint, each with the token", () => {
    const lines = readmeCurlLines("curl-examples-stats");
    expect(lines).toHaveLength(5);
    expect(lines[0]).toContain("/knowledge/shown");
    expect(lines[1]).toContain(`/knowledge/entries/${ROLLBACK}/read`);
    expect(lines[2]).toContain("/knowledge/stats/me");
    expect(lines[3]).toContain("/knowledge/stats/team");
    expect(lines[4]).toContain("/knowledge/stats/dead?min_shown=1&min_age_days=0");
    for (const line of lines) expect(line).toContain("Authorization: Bearer $LORE_TOKEN");
  });

  it("run in order: two shown, one read, my counters exactly; team and dead 402 on Community", async () => {
    const [shown, read, me, team, dead] = readmeCurlLines("curl-examples-stats") as string[];
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
    for (const [line, feature] of [
      [team, "stats_team"],
      [dead, "stats_dead"],
    ] as const) {
      const answer = await curl(line as string);
      expect(answer).toMatchObject({
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
