/**
 * Two `lore serve` over one PostgreSQL (scale-out: «counters exact under concurrent
 * `shown`»): the built bin twice, real processes on 127.0.0.1, one `[server] database` and
 * one data folder of bare repositories, each server with its own SQLite index. Users and
 * tokens made by the administration CLI, the entries pushed with the real git client to one
 * server; then `POST …/knowledge/shown` and `…/read` from two users to both servers at
 * once, and the stats of either server (`stats/me`, `stats/team`, `stats/daily`) count every
 * one of them exactly — the counts are in PostgreSQL, none in either server's SQLite index;
 * and a recall over `/mcp` of one server leaves a load receipt the other lists at once.
 * Needs `LORE_TEST_PG_URL` (a throw-away cluster; `.ci/run` starts one); skips without it.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  PG_SKIP_REASON,
  TEST_PG_URL,
  type TestDatabase,
} from "../helpers/pg-test-database.js";
import { makeTestLicenceKey } from "../helpers/test-licence.js";
import { knowledgeFiles, MIGRATION_ID, ROLLBACK_ID } from "./fixture-entries.js";
import { pushFilesOverHttp } from "./git-client.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

if (TEST_PG_URL === undefined) {
  describe.skip(PG_SKIP_REASON, () => {
    it("counts exactly from two lore serve over one PostgreSQL", () => undefined);
  });
} else {
  const SCOPES = "knowledge:read,knowledge:write,repo:read,repo:write";
  const ROUNDS = 25;
  let db: TestDatabase;
  let schema: { name: string; url: string };
  let sandbox: ReturnType<typeof isolatedEnv>;
  let config: string;
  const servers: ServedLore[] = [];
  const tokens: Record<string, string> = {};

  const base = (server: ServedLore) => `${server.url.protocol}//${server.url.host}`;
  /** The environment of server `n`: the shared data folder and config, an index of its own. */
  const serverEnv = (n: number) => ({
    ...sandbox.env,
    LORE_CONFIG: config,
    LORE_DB: join(sandbox.dir, `index-${n}.db`),
  });
  const lore = async (...args: string[]) => {
    const run = await runLore(args, { cwd: sandbox.dir, env: serverEnv(0) });
    if (run.code !== 0) throw new Error(`lore ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
    return run;
  };
  /** A call of the REST API on a server as a user: GET, or POST with `body` (`null`: none). */
  const api = async (server: ServedLore, who: string, path: string, body?: unknown) => {
    const post = body !== undefined;
    const response = await fetch(`${base(server)}/api/v1/repos/acme/app/knowledge/${path}`, {
      method: post ? "POST" : "GET",
      headers: {
        authorization: `Bearer ${tokens[who]}`,
        ...(post && body !== null ? { "content-type": "application/json" } : {}),
      },
      ...(post && body !== null ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200) {
      throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    }
    return json;
  };

  beforeAll(async () => {
    db = await createTestDatabase("two");
    schema = await db.schema();
    const key = makeTestLicenceKey();
    sandbox = isolatedEnv(key.env);
    const licence = join(sandbox.dir, "licence.json");
    writeFileSync(licence, readFileSync(key.write({ edition: "pro" })));
    rmSync(key.dir, { recursive: true, force: true });
    config = join(sandbox.dir, "lore.toml");
    writeFileSync(
      config,
      `[server]\ndatabase = ${JSON.stringify(schema.url)}\nlicense = ${JSON.stringify(licence)}\n`,
    );
    // The first server makes the owner (and its token file in the shared data folder).
    servers.push(await startServe(["--port", "0"], { cwd: sandbox.dir, env: serverEnv(1) }));
    servers.push(await startServe(["--port", "0"], { cwd: sandbox.dir, env: serverEnv(2) }));
    await lore("repo", "create", "acme/app");
    for (const user of ["anna", "boris"]) {
      await lore("user", "add", user);
      tokens[user] = (await lore("token", "create", user, "--scopes", SCOPES)).stdout.trim();
      await lore("access", "grant", user, "acme/app", "write");
    }
    // The entries pushed to the first server only: the second reads them from the shared
    // bare repository into its own index before its first answer.
    await pushFilesOverHttp(
      sandbox,
      knowledgeFiles(),
      `${base(servers[0] as ServedLore)}/acme/app.git`,
      tokens.anna as string,
    );
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await db?.drop();
    sandbox?.cleanup();
  });

  describe("two lore serve over one PostgreSQL", () => {
    it("count every shown and read sent to either server at once, exactly, in each one's stats", async () => {
      const [one, two] = servers as [ServedLore, ServedLore];
      // Each call answers how many ids it counted: both servers know the entries (the
      // second healed its own index from the shared bare repository).
      const calls: Promise<[unknown, unknown]>[] = [];
      const call = (expected: unknown, answer: Promise<unknown>) =>
        calls.push(answer.then((got) => [got, expected]));
      for (let i = 0; i < ROUNDS; i++) {
        // anna: both entries on the first server, one on the second; boris: one on each.
        call(
          { counted: 2, unknown: [] },
          api(one, "anna", "shown", { ids: [ROLLBACK_ID, MIGRATION_ID] }),
        );
        call({ counted: 1, unknown: [] }, api(two, "anna", "shown", { ids: [ROLLBACK_ID] }));
        call(
          { counted: 1, unknown: ["not-an-entry"] },
          api(one, "boris", "shown", { ids: [MIGRATION_ID, "not-an-entry"] }),
        );
        call({ counted: 1, unknown: [] }, api(two, "boris", "shown", { ids: [MIGRATION_ID] }));
        if (i % 5 === 0) {
          const server = i % 2 === 0 ? two : one;
          call(
            { id: ROLLBACK_ID, read: expect.any(Number) },
            api(server, "anna", `entries/${ROLLBACK_ID}/read`, null),
          );
        }
      }
      for (const [got, expected] of await Promise.all(calls)) expect(got).toEqual(expected);

      type Row = { id: string; shown: number; read: number };
      const rows = (answer: Record<string, unknown>) =>
        Object.fromEntries((answer.items as Row[]).map((r) => [r.id, [r.shown, r.read]] as const));
      for (const server of servers) {
        expect(rows(await api(server, "anna", "stats/me"))).toEqual({
          [ROLLBACK_ID]: [2 * ROUNDS, ROUNDS / 5],
          [MIGRATION_ID]: [ROUNDS, 0],
        });
        expect(rows(await api(server, "boris", "stats/me"))).toEqual({
          [MIGRATION_ID]: [2 * ROUNDS, 0],
        });
        const team = rows(await api(server, "boris", "stats/team"));
        expect(team[ROLLBACK_ID]).toEqual([2 * ROUNDS, ROUNDS / 5]);
        expect(team[MIGRATION_ID]).toEqual([3 * ROUNDS, 0]);
        const daily = (await api(server, "anna", "stats/daily?days=1")).days as {
          shown: number;
          read: number;
        }[];
        expect(daily.map((d) => [d.shown, d.read])).toEqual([[5 * ROUNDS, ROUNDS / 5]]);
      }
      // The counts are PostgreSQL's: none in either server's SQLite index.
      const stored = await db.sql(
        `SELECT user_name, entry_id, shown::int, read::int FROM ${schema.name}.counters ORDER BY 1, 2`,
      );
      expect(stored.rows.map((r) => `${r.user_name} ${r.entry_id} ${r.shown} ${r.read}`)).toEqual(
        [
          `anna ${ROLLBACK_ID} ${2 * ROUNDS} ${ROUNDS / 5}`,
          `anna ${MIGRATION_ID} ${ROUNDS} 0`,
          `boris ${MIGRATION_ID} ${2 * ROUNDS} 0`,
        ].sort(),
      );
      for (const n of [1, 2]) {
        const index = new Database(join(sandbox.dir, `index-${n}.db`), { readonly: true });
        try {
          expect(index.prepare("SELECT count(*) AS n FROM counters").get()).toEqual({ n: 0 });
        } finally {
          index.close();
        }
      }
      // A removed user's counts go from PostgreSQL too (`lore user rm` beside the servers).
      await lore("user", "rm", "boris");
      const left = await db.sql(
        `SELECT DISTINCT user_name FROM ${schema.name}.counters UNION SELECT DISTINCT user_name FROM ${schema.name}.usage_days`,
      );
      expect(left.rows).toEqual([{ user_name: "anna" }]);
      const team = rows(await api(two, "anna", "stats/team"));
      expect(team[MIGRATION_ID]).toEqual([ROUNDS, 0]);
    });

    it("list on one server the load receipt of a recall made through the other", async () => {
      const [one, two] = servers as [ServedLore, ServedLore];
      const client = new Client({ name: "agent-on-one", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL("/mcp", base(one)), {
          requestInit: { headers: { authorization: `Bearer ${tokens.anna}` } },
        }),
      );
      try {
        const result = await client.callTool({
          name: "knowledge_recall",
          arguments: { query: "откат релиза", count_shown: false },
        });
        expect(result.isError).toBeFalsy();
      } finally {
        await client.close();
      }
      type Page = {
        items: {
          id: string;
          user: string;
          client: string;
          query: string;
          hits: { id: string }[];
        }[];
        next_cursor: string | null;
      };
      const get = async (server: ServedLore, path: string): Promise<Page> => {
        const response = await fetch(`${base(server)}${path}`, {
          headers: { authorization: `Bearer ${tokens.anna}` },
        });
        expect(response.status).toBe(200);
        return (await response.json()) as Page;
      };
      // Stored before the answer: the other server lists it at once, both routes.
      const own = await get(two, "/api/v1/receipts");
      expect(own.items).toHaveLength(1);
      expect(own.items[0]).toMatchObject({
        user: "anna",
        client: "agent-on-one",
        query: "откат релиза",
      });
      expect(own.items[0]?.hits.map((h) => h.id)).toEqual([ROLLBACK_ID]);
      const ofRepo = await get(two, "/api/v1/repos/acme/app/knowledge/receipts");
      expect(ofRepo.items.map((r) => r.id)).toEqual([own.items[0]?.id]);
      expect((await get(one, "/api/v1/receipts")).items.map((r) => r.id)).toEqual([
        own.items[0]?.id,
      ]);
      // The receipt is PostgreSQL's: none in either server's SQLite index.
      const stored = await db.sql(`SELECT public_id, user_name FROM ${schema.name}.receipts`);
      expect(stored.rows).toEqual([{ public_id: own.items[0]?.id, user_name: "anna" }]);
      for (const n of [1, 2]) {
        const index = new Database(join(sandbox.dir, `index-${n}.db`), { readonly: true });
        try {
          expect(index.prepare("SELECT count(*) AS n FROM receipts").get()).toEqual({ n: 0 });
        } finally {
          index.close();
        }
      }
      // A removed user's receipts go from PostgreSQL too (`lore user rm` beside the servers).
      await lore("user", "rm", "anna");
      const left = await db.sql(`SELECT count(*)::int AS n FROM ${schema.name}.receipts`);
      expect(left.rows).toEqual([{ n: 0 }]);
    });
  });
}
