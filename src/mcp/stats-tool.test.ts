import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  knowledgeFiles,
  MIGRATION_ID,
  ROLLBACK_ID,
  UNREACHABLE_ID,
} from "../../test/e2e/fixture-entries.js";
import { makeRepo, type TestRepo } from "../../test/helpers/make-repo.js";
import { makeTestLicenceKey } from "../../test/helpers/test-licence.js";
import { composeLore, type Lore } from "../main/compose.js";
import { localStats } from "../main/local-stats.js";
import { createMcpServer, type McpServerOptions } from "./create-mcp-server.js";

// `knowledge_stats` of `lore mcp` (seed 004 "Интерфейс": stats/me|team|dead) over the real
// MCP SDK client, on a real git repository and a real index file: the schema, the names,
// the counters of recall and open (and `count_shown: false`), and the Community refusal of
// the paid kinds.

let repo: TestRepo;
let tmp: string;
let lore: Lore;

beforeAll(async () => {
  repo = await makeRepo(knowledgeFiles());
  tmp = mkdtempSync(join(tmpdir(), "lore-stats-tool-"));
  lore = await composeLore({
    configPath: null,
    user: "tester",
    lang: "en",
    database: join(tmp, "index.db"),
    repos: [repo.dir],
    server: { host: "127.0.0.1", port: 0, data: join(tmp, "server"), sshPort: 0 },
  });
  await lore.indexAll([repo.dir]);
});

afterAll(async () => {
  await lore.close();
  await repo.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

async function connect(options: McpServerOptions = {}, on: Lore = lore): Promise<Client> {
  const port = Object.assign(on.port(), {
    stats: localStats(on, { cwd: repo.dir, env: {} }),
  });
  const server = createMcpServer(port, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return content.map((c) => c.text).join("");
}

interface Row {
  id: string;
  path: string;
  summary: string;
  shown: number;
  read: number;
  last_shown_at: string | null;
  last_read_at: string | null;
}

async function stats(
  client: Client,
  args: Record<string, unknown>,
): Promise<{ items: Row[]; partial?: string }> {
  const result = await client.callTool({ name: "knowledge_stats", arguments: args });
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  return result.structuredContent as { items: Row[] };
}

async function refusal(client: Client, args: Record<string, unknown>) {
  const result = await client.callTool({ name: "knowledge_stats", arguments: args });
  expect(result.isError).toBe(true);
  return JSON.parse(textOf(result)).error as { code: string; message: string; next?: string };
}

describe("knowledge_stats (local)", () => {
  it("is listed with a stats port, read-only, with an output schema (snapshot)", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "knowledge_stats");
    expect(tool).toBeDefined();
    expect(tool?.annotations?.readOnlyHint).toBe(true);
    expect(tool?.outputSchema?.type).toBe("object");
    expect(tool?.inputSchema.additionalProperties).toBe(false);
    await expect(JSON.stringify(tool, null, 2)).toMatchFileSnapshot(
      "./__toolsnaps__/knowledge_stats.snap",
    );
    await client.close();
  });

  it("is named knowledge.stats in the dotted and seed styles, and not listed without a port", async () => {
    for (const style of ["dotted", "seed"] as const) {
      const client = await connect({ toolNames: style });
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("knowledge.stats");
      expect(names).not.toContain("knowledge_stats");
      await client.close();
    }
    const server = createMcpServer(lore.port());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("knowledge_stats");
    await client.close();
  });

  it("me: the counts of recall and open, exactly; count_shown false counts nothing", async () => {
    const client = await connect();
    expect((await stats(client, { kind: "me" })).items).toEqual([]);
    // Twice shown by recall, once read by open.
    for (let i = 0; i < 2; i++) {
      const hits = await client.callTool({
        name: "knowledge_recall",
        arguments: { tool: "run_migration" },
      });
      expect(hits.isError).toBeFalsy();
    }
    const opened = await client.callTool({
      name: "knowledge_open",
      arguments: { id: MIGRATION_ID },
    });
    expect(opened.isError).toBeFalsy();
    // A client that marks shown itself: this recall counts nothing.
    const quiet = await client.callTool({
      name: "knowledge_recall",
      arguments: { tool: "run_migration", count_shown: false },
    });
    expect((quiet.structuredContent as { hits: { id: string }[] }).hits[0]?.id).toBe(MIGRATION_ID);
    const me = await stats(client, { kind: "me" });
    expect(me.partial).toBeUndefined();
    expect(me.items).toHaveLength(1);
    const row = me.items[0] as Row;
    expect(row).toMatchObject({
      id: MIGRATION_ID,
      path: ".gitriver/knowledge/migrations.md",
      summary: "Run production migrations with a lock timeout.",
      shown: 2,
      read: 1,
    });
    expect(row.last_shown_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(row.last_read_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The repository by folder gives the same answer; an unknown one is repo_not_indexed.
    expect(await stats(client, { kind: "me", repo: repo.dir })).toEqual(me);
    expect((await refusal(client, { kind: "me", repo: join(tmp, "nowhere") })).code).toBe(
      "repo_not_indexed",
    );
    await client.close();
  });

  it("team and dead without a licence: license_required (Community), before the repository is looked up", async () => {
    const client = await connect();
    for (const kind of ["team", "dead"]) {
      const error = await refusal(client, { kind });
      expect(error.code).toBe("license_required");
      expect(error.message).toContain(
        kind === "team" ? "the team's stats need the pro edition" : "report needs the pro edition",
      );
      // Even for a repository that is not indexed: the refusal says nothing of it.
      expect((await refusal(client, { kind, repo: join(tmp, "nowhere") })).code).toBe(
        "license_required",
      );
    }
    await client.close();
  });

  it("refuses bad arguments with invalid_input: a threshold out of range, one with me, an unknown kind", async () => {
    const client = await connect();
    for (const args of [
      { kind: "dead", min_shown: 0 },
      { kind: "dead", min_shown: 1.5 },
      { kind: "dead", min_age_days: -1 },
      { kind: "dead", min_age_days: 36_501 },
      { kind: "me", min_shown: 3 },
      { kind: "team", min_age_days: 3 },
      { kind: "everyone" },
      {},
    ]) {
      const error = await refusal(client, args);
      expect(error.code, JSON.stringify(args)).toBe("invalid_input");
    }
    expect((await refusal(client, { kind: "dead", min_shown: 0 })).message).toContain(
      "`min_shown` must be a whole number from 1 to 1000000",
    );
    await client.close();
  });
});

describe("knowledge_stats (local) with a Pro licence", () => {
  let pro: Lore;
  let proTmp: string;
  let env: Record<string, string>;
  let keyDir = "";

  beforeAll(async () => {
    proTmp = mkdtempSync(join(tmpdir(), "lore-stats-pro-"));
    const key = makeTestLicenceKey();
    keyDir = key.dir;
    const file = key.write({ edition: "pro" });
    env = key.env;
    pro = await composeLore({
      configPath: null,
      user: "tester",
      lang: "en",
      database: join(proTmp, "index.db"),
      repos: [repo.dir],
      server: {
        host: "127.0.0.1",
        port: 0,
        data: join(proTmp, "server"),
        sshPort: 0,
        license: file,
      },
    });
    await pro.indexAll([repo.dir]);
  });

  afterAll(async () => {
    await pro.close();
    rmSync(proTmp, { recursive: true, force: true });
    rmSync(keyDir, { recursive: true, force: true });
  });

  async function proClient(): Promise<Client> {
    const port = Object.assign(pro.port(), { stats: localStats(pro, { cwd: repo.dir, env }) });
    const server = createMcpServer(port);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    return client;
  }

  it("team: one row per entry of the repository, everyone's counts, zeros for one never shown", async () => {
    const client = await proClient();
    await client.callTool({ name: "knowledge_recall", arguments: { query: "откат релиза" } });
    const team = await stats(client, { kind: "team" });
    expect(team.partial).toBeUndefined();
    expect(team.items.map((r) => [r.id, r.shown, r.read])).toEqual([
      [ROLLBACK_ID, 1, 0],
      [MIGRATION_ID, 0, 0],
      [UNREACHABLE_ID, 0, 0],
    ]);
    expect(team.items[1]).toMatchObject({ last_shown_at: null, last_read_at: null });
    await client.close();
  });

  it("dead: each ailment with the thresholds applied and echoed", async () => {
    const client = await proClient();
    const result = await client.callTool({
      name: "knowledge_stats",
      arguments: { kind: "dead", min_shown: 1, min_age_days: 0 },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const dead = result.structuredContent as {
      items: (Row & { ailment: string; unmet_mechanisms?: string[]; age_days: number })[];
      min_shown: number;
      min_age_days: number;
    };
    expect(dead.min_shown).toBe(1);
    expect(dead.min_age_days).toBe(0);
    const byId = new Map(dead.items.map((r) => [r.id, r]));
    expect(byId.get(UNREACHABLE_ID)).toMatchObject({
      ailment: "unreachable",
      unmet_mechanisms: ["on_path"],
    });
    expect(byId.get(ROLLBACK_ID)).toMatchObject({ ailment: "shown_not_read", shown: 1, read: 0 });
    expect(byId.get(MIGRATION_ID)).toMatchObject({ ailment: "never_shown", age_days: 0 });
    // The defaults: 10 showings, 30 days — nothing here is that old or that often shown.
    const defaults = await stats(client, { kind: "dead" });
    expect(defaults).toMatchObject({ min_shown: 10, min_age_days: 30 });
    expect(defaults.items.map((r) => r.id)).toEqual([UNREACHABLE_ID]);
    await client.close();
  });
});
