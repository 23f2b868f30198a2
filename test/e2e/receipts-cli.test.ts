import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { knowledgeFiles, MIGRATION_ID, ROLLBACK_ID, UNREACHABLE_ID } from "./fixture-entries.js";
import { isolatedEnv, LORE_BIN, type LoreRun, runLore } from "./run-lore.js";

// Load receipts from the built bin (README "Load receipts"): three `lore recall` runs leave
// three receipts with the right reasons, read back by `lore receipts` in later processes;
// `lore why` for a surfaced, an unreachable, a never-matched and an outranked entry. A real
// git repository and a real SQLite index in temp folders.

const KUBE_ID = "0190f5a4-3b2e-7f32-8c33-4d5e6f708192";
const KUBE = `---
id: ${KUBE_ID}
contract:
  - mechanism: on_query
    params:
      words: ["kubernetes"]
---

Cluster upgrades go one node pool at a time.
`;

const NOTE_ID = "0190f5a4-3b2e-7f32-8c33-4d5e6f7081a3";
const NOTE = `---
id: ${NOTE_ID}
---

Plain background with no trigger: it surfaces only through the text.
`;

let home: ReturnType<typeof isolatedEnv>;
let repo: TestRepo;

const lore = (args: readonly string[], env: Record<string, string> = {}): Promise<LoreRun> =>
  runLore(args, { cwd: repo.dir, env: { ...home.env, ...env } });

async function ok(args: readonly string[], env: Record<string, string> = {}): Promise<LoreRun> {
  const run = await lore(args, env);
  if (run.code !== 0) throw new Error(`lore ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return run;
}

interface Receipt {
  id: string;
  at: string;
  client: string;
  query: string | null;
  tool: string | null;
  total: number;
  hits: { id: string; revision: string; why: unknown[]; rank: number }[];
}

beforeAll(async () => {
  home = isolatedEnv();
  repo = await makeRepo(
    knowledgeFiles({
      ".gitriver/knowledge/kube.md": KUBE,
      ".gitriver/knowledge/note.md": NOTE,
    }),
  );
  await ok(["index", repo.dir]);
}, 60_000);

afterAll(async () => {
  await repo?.cleanup();
  home?.cleanup();
});

describe("lore receipts", () => {
  it("three recalls → three receipts: the on_query word, the on_tool name, the text rank", async () => {
    await ok(["recall", "как", "откатить", "релиз"]);
    await ok(["recall", "--tool", "run_migration"]);
    await ok(["recall", "production", "lock", "timeout"]);
    const page = JSON.parse((await ok(["receipts", "--json"])).stdout) as {
      items: Receipt[];
      next_cursor: string | null;
    };
    expect(page.next_cursor).toBeNull();
    expect(page.items.map((r) => [r.client, r.query, r.tool])).toEqual([
      ["cli", "production lock timeout", null],
      ["cli", null, "run_migration"],
      ["cli", "как откатить релиз", null],
    ]);
    const [text, tool, query] = page.items;
    expect(query?.hits.map((h) => [h.id, h.rank, h.why])).toEqual([
      [
        ROLLBACK_ID,
        1,
        [
          { kind: "on_query", word: "откат" },
          { kind: "on_query", word: "релиз" },
          { kind: "text" },
        ],
      ],
    ]);
    expect(query?.hits[0]?.revision).toMatch(/^[0-9a-f]{40}$/);
    expect(tool?.hits.map((h) => [h.id, h.why])).toEqual([
      [MIGRATION_ID, [{ kind: "on_tool", name: "run_migration" }]],
    ]);
    expect(text?.hits.map((h) => [h.id, h.why])).toEqual([[MIGRATION_ID, [{ kind: "text" }]]]);
    // Another user of the index has none; --limit pages; the table names the reasons.
    expect(
      JSON.parse((await ok(["receipts", "--json"], { LORE_USER: "olga" })).stdout).items,
    ).toEqual([]);
    const first = JSON.parse((await ok(["receipts", "--json", "--limit", "2"])).stdout);
    expect(first.items).toHaveLength(2);
    const rest = JSON.parse(
      (await ok(["receipts", "--json", "--limit", "2", "--cursor", first.next_cursor])).stdout,
    );
    expect(rest.items.map((r: Receipt) => r.query)).toEqual(["как откатить релиз"]);
    const table = (await ok(["receipts"])).stdout;
    expect(table).toContain("on_tool run_migration");
    expect(table).toContain("on_query “откат”");
    // --since in the future lists none; a bad one is exit 2.
    expect(
      JSON.parse((await ok(["receipts", "--json", "--since", "2999-01-01"])).stdout).items,
    ).toEqual([]);
    const bad = await lore(["receipts", "--since", "yesterday"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("since");
  }, 60_000);
});

describe("lore why", () => {
  it("a surfaced entry: when, through which client, for which query, and why", async () => {
    const why = JSON.parse((await ok(["why", ROLLBACK_ID, "--json"])).stdout);
    expect(why.verdict).toBe("surfaced");
    expect(why.reachable).toBe(true);
    expect(why.contract).toEqual({ words: ["откат", "релиз"], tools: [] });
    expect(why.surfaced).toHaveLength(1);
    expect(why.surfaced[0]).toMatchObject({ client: "cli", query: "как откатить релиз", rank: 1 });
    expect((await ok(["why", ROLLBACK_ID])).stdout).toContain("surfaced");
  }, 30_000);

  it("an unreachable entry: which mechanism it lacks", async () => {
    const why = JSON.parse((await ok(["why", UNREACHABLE_ID, "--json"])).stdout);
    expect(why).toMatchObject({ verdict: "unreachable", reachable: false, surfaced: [] });
    expect(why.unmet_mechanisms).toEqual(["on_path"]);
    const text = (await ok(["why", UNREACHABLE_ID])).stdout;
    expect(text).toContain("unreachable");
    expect(text).toContain("on_path");
  }, 30_000);

  it("an entry with no contract: no_contract, not unreachable", async () => {
    const why = JSON.parse((await ok(["why", NOTE_ID, "--json"])).stdout);
    expect(why).toMatchObject({ verdict: "no_contract", surfaced: [], unmet_mechanisms: [] });
  }, 30_000);

  it("a never-matched entry, then the same entry outranked below a page of one", async () => {
    const never = JSON.parse((await ok(["why", KUBE_ID, "--json"])).stdout);
    expect(never).toMatchObject({ verdict: "never_matched", surfaced: [], outranked: [] });
    expect(never.contract.words).toEqual(["kubernetes"]);
    expect(never.receipts_checked).toBe(3);
    // Both the rollback entry and this one match; a page of one lists only the first.
    await ok(["recall", "kubernetes", "релиз", "откат", "--limit", "1"]);
    const outranked = JSON.parse((await ok(["why", KUBE_ID, "--json"])).stdout);
    expect(outranked.verdict).toBe("outranked");
    expect(outranked.outranked[0]).toMatchObject({
      would_match: [{ kind: "on_query", word: "kubernetes" }],
      page_end: 1,
      total: 2,
    });
  }, 30_000);

  it("an unknown id is exit 3", async () => {
    const run = await lore(["why", "0190f5a4-3b2e-7f32-8c33-000000000000"]);
    expect(run.code).toBe(3);
  });
});

describe("lore mcp over stdio", () => {
  it("records its recalls under the client's initialize name, written by the time it exits", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--repo", repo.dir],
      env: { ...home.env, LORE_USER: "mira" },
      cwd: repo.dir,
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-agent", version: "1" });
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: "knowledge_recall",
        arguments: { tool: "run_migration" },
      });
      expect(result.isError).toBeFalsy();
      // The server's own read sees its queued receipt at once.
      const own = await client.callTool({ name: "knowledge_receipts", arguments: {} });
      const page = own.structuredContent as { items: Receipt[] };
      expect(page.items.map((r) => [r.client, r.tool])).toEqual([["stdio-agent", "run_migration"]]);
    } finally {
      await client.close();
    }
    const after = JSON.parse((await ok(["receipts", "--json"], { LORE_USER: "mira" })).stdout);
    expect(after.items.map((r: Receipt) => [r.client, r.hits[0]?.id])).toEqual([
      ["stdio-agent", MIGRATION_ID],
    ]);
  }, 60_000);
});
