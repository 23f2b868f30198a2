/**
 * Drafts shared by two `lore serve` over one PostgreSQL (scale-out: "N `lore serve` share
 * one PostgreSQL…: draft limits exact; delivery of one branch serialised across servers"):
 * the built bin twice, real processes on 127.0.0.1, one `[server] database` and one data
 * folder of bare repositories, each server with its OWN SQLite index (`LORE_DB`). A draft
 * written through one is listed, recalled and opened through the other at once; discarded
 * through the other it is gone in the first; a draft limit with posts split over both
 * servers at once accepts exactly the limit; a delivery through one into the default
 * branch takes the drafts out of the other's listing, and two deliveries of one branch at
 * once through both deliver each draft once. Needs `LORE_TEST_PG_URL` (a throw-away
 * cluster; `.ci/run` starts one); skips without it.
 */
import { writeFileSync } from "node:fs";
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
import { useTestLicence } from "../helpers/test-licence.js";
import { knowledgeFiles } from "./fixture-entries.js";
import { pushFilesOverHttp } from "./git-client.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

if (TEST_PG_URL === undefined) {
  describe.skip(PG_SKIP_REASON, () => {
    it("shares drafts between two lore serve over one PostgreSQL", () => undefined);
  });
} else {
  const SCOPES = "knowledge:read,knowledge:write,repo:read,repo:write";
  const DRAFTS = "/api/v1/repos/acme/app/knowledge/drafts";
  let db: TestDatabase;
  let schema: { name: string; url: string };
  let sandbox: ReturnType<typeof isolatedEnv>;
  let config: string;
  const servers: ServedLore[] = [];
  const tokens: Record<string, string> = {};

  type Answer = { status: number; body: Record<string, unknown> };
  type DraftView = { id: string; author: string; branch: string; delivered?: unknown };

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
  const call = async (
    server: ServedLore,
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Answer> => {
    const response = await fetch(`${base(server)}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === "" ? {} : JSON.parse(text) };
  };
  const as = (server: ServedLore, who: string, method: string, path: string, body?: unknown) =>
    call(server, tokens[who] as string, method, path, body);
  /** The drafts of acme/app listed through a server (one page: the cases hold fewer than 100). */
  const listed = async (server: ServedLore): Promise<DraftView[]> => {
    const page = await as(server, "anna", "GET", `${DRAFTS}?per_page=100`);
    expect(page.status).toBe(200);
    return page.body.items as DraftView[];
  };
  const write = (server: ServedLore, who: string, title: string, words: string[]) =>
    as(server, who, "POST", DRAFTS, { branch: "main", title, body: `${title}.`, words });
  /** Runs `work` with an MCP client of `who` on a server. */
  const overMcp = async <T>(
    server: ServedLore,
    who: string,
    work: (client: Client) => Promise<T>,
  ): Promise<T> => {
    const client = new Client({ name: "agent", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", base(server)), {
        requestInit: { headers: { authorization: `Bearer ${tokens[who]}` } },
      }),
    );
    try {
      return await work(client);
    } finally {
      await client.close();
    }
  };
  type Hit = { id: string; draft?: boolean };
  const recall = (server: ServedLore, query: string): Promise<Hit[]> =>
    overMcp(server, "boris", async (client) => {
      const result = await client.callTool({
        name: "knowledge_recall",
        arguments: { query, count_shown: false },
      });
      expect(result.isError).toBeFalsy();
      return (result.structuredContent as { hits: Hit[] }).hits;
    });

  beforeAll(async () => {
    db = await createTestDatabase("drafts2");
    schema = await db.schema();
    sandbox = isolatedEnv();
    // Setting a draft limit (PUT) is the Max edition's.
    const licence = useTestLicence(sandbox.env, "max").path;
    config = join(sandbox.dir, "lore.toml");
    writeFileSync(
      config,
      `[server]\ndatabase = ${JSON.stringify(schema.url)}\nlicense = ${JSON.stringify(licence)}\n`,
    );
    servers.push(await startServe(["--port", "0"], { cwd: sandbox.dir, env: serverEnv(1) }));
    servers.push(await startServe(["--port", "0"], { cwd: sandbox.dir, env: serverEnv(2) }));
    await lore("repo", "create", "acme/app");
    for (const user of ["anna", "boris"]) {
      await lore("user", "add", user);
      tokens[user] = (await lore("token", "create", user, "--scopes", SCOPES)).stdout.trim();
      await lore("access", "grant", user, "acme/app", "write");
    }
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

  describe("drafts of two lore serve over one PostgreSQL, each with its own index", () => {
    it("a draft written through one is listed, recalled and opened through the other at once; discarded there, it is gone in the first", async () => {
      const [one, two] = servers as [ServedLore, ServedLore];
      const written = await write(one, "anna", "Shared probe of the zebrafish cache", [
        "zebrafish",
      ]);
      expect(written.status).toBe(201);
      const id = written.body.id as string;
      expect((await listed(two)).map((d) => d.id)).toEqual([id]);
      expect((await recall(two, "zebrafish")).find((h) => h.id === id)).toMatchObject({
        draft: true,
      });
      const opened = await overMcp(two, "boris", (client) =>
        client.callTool({ name: "knowledge_open", arguments: { id } }),
      );
      expect(opened.isError).toBeFalsy();
      expect(JSON.stringify(opened.structuredContent)).toContain("zebrafish cache");
      // The second server's own index holds the draft's entry (its mirror).
      const mirror = new Database(join(sandbox.dir, "index-2.db"), { readonly: true });
      try {
        expect(mirror.prepare("SELECT id FROM drafts").all()).toEqual([{ id }]);
      } finally {
        mirror.close();
      }

      const discarded = await as(two, "anna", "DELETE", `${DRAFTS}/${id}`);
      expect(discarded.status).toBe(204);
      expect(await listed(one)).toEqual([]);
      expect((await recall(one, "zebrafish")).map((h) => h.id)).not.toContain(id);
      const gone = await overMcp(one, "boris", (client) =>
        client.callTool({ name: "knowledge_open", arguments: { id } }),
      );
      expect(gone.isError).toBe(true);
    });

    it("a draft limit of L with posts split over both servers at once accepts exactly L", async () => {
      const [one, two] = servers as [ServedLore, ServedLore];
      const L = 6;
      const owner = (one as ServedLore).token;
      const set = await call(one, owner, "PUT", "/api/v1/admin/knowledge/limits/users/boris", {
        limit: L,
      });
      expect(set.status).toBe(200);
      const posts = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          write(i % 2 === 0 ? one : two, "boris", `Limit probe ${i}`, [`limitprobe${i}`]),
        ),
      );
      const statuses = posts.map((p) => p.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(L);
      expect(statuses.filter((s) => s !== 201)).toEqual(Array(24 - L).fill(409));
      for (const p of posts.filter((p) => p.status === 409)) {
        expect((p.body.error as { code: string }).code).toBe("draft_limit_reached");
      }
      for (const server of servers) {
        expect((await listed(server)).filter((d) => d.author === "boris")).toHaveLength(L);
      }
      const stored = await db.sql(
        `SELECT count(*)::int AS n FROM ${schema.name}.drafts WHERE author = 'boris'`,
      );
      expect(stored.rows).toEqual([{ n: L }]);
    });

    it("a delivery through one into the default branch takes the drafts out of the other's listing; racing deliveries through both deliver each once", async () => {
      const [one, two] = servers as [ServedLore, ServedLore];
      const before = new Set((await listed(two)).map((d) => d.id));
      const mine: string[] = [];
      for (const n of [1, 2]) {
        const written = await write(one, "anna", `Delivered probe ${n} of the heron path`, [
          `heronpath${n}`,
        ]);
        expect(written.status).toBe(201);
        mine.push(written.body.id as string);
      }
      expect((await listed(two)).map((d) => d.id)).toEqual(
        expect.arrayContaining([...before, ...mine]),
      );
      // Both servers deliver the branch at once: the lock serialises them, so every draft
      // is delivered by exactly one of the two.
      const deliveries = await Promise.all(
        [one, two].map((server) =>
          as(server, "anna", "POST", `${DRAFTS}/deliver`, { branch: "main", mode: "same" }),
        ),
      );
      for (const d of deliveries) expect(d.status).toBe(200);
      const delivered = deliveries.flatMap((d) => d.body.delivered as string[]);
      expect(delivered.sort()).toEqual([...before, ...mine].sort());
      const commits = deliveries.flatMap((d) => d.body.commits as string[]);
      expect(commits).toHaveLength(1);
      // Delivered into the default branch: drafts no more, on either server.
      for (const server of [two, one]) expect(await listed(server)).toEqual([]);
      const hits = await recall(two, "heronpath1");
      expect(hits.find((h) => h.id === mine[0])).toBeDefined();
      expect(hits.find((h) => h.id === mine[0])?.draft).toBeFalsy();
      const left = await db.sql(`SELECT count(*)::int AS n FROM ${schema.name}.drafts`);
      expect(left.rows).toEqual([{ n: 0 }]);
    });
  });
}
