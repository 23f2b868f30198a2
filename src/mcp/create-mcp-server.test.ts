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
import { composeLore, type Lore } from "../main/compose.js";
import { createMcpServer, type McpServerOptions } from "./create-mcp-server.js";

let repo: TestRepo;
let tmp: string;
let lore: Lore;

beforeAll(async () => {
  repo = await makeRepo(knowledgeFiles());
  tmp = mkdtempSync(join(tmpdir(), "lore-mcp-"));
  lore = await composeLore({
    configPath: null,
    user: "tester",
    lang: "en",
    database: join(tmp, "index.db"),
    repos: [repo.dir],
    server: { host: "127.0.0.1", port: 0 },
  });
});

afterAll(async () => {
  await lore.close();
  await repo.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

/** A real SDK client linked in memory to a fresh server; start-up indexing as `lore mcp` does. */
async function connect(options: McpServerOptions = {}): Promise<Client> {
  const ready = lore.indexAll([repo.dir]);
  const server = createMcpServer(lore.port(ready), options);
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

describe("tool list", () => {
  it("exposes underscore names by default, each schema snapshotted", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "knowledge_recall",
      "knowledge_open",
      "knowledge_check",
      "knowledge_read_file",
      "knowledge_write_file",
      "knowledge_route_context",
      "knowledge_status",
    ]);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      // Every tool but write_file only reads (issue 3: write_file writes the primary root).
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== "knowledge_write_file");
      expect(tool.description).not.toMatch(/knowledge\.\w/);
      await expect(JSON.stringify(tool, null, 2)).toMatchFileSnapshot(
        `./__toolsnaps__/${tool.name}.snap`,
      );
    }
    await client.close();
  });

  it("exposes the seeds' dotted names with --tool-names=dotted, and descriptions use them", async () => {
    const client = await connect({ toolNames: "dotted" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "knowledge.recall",
      "knowledge.open",
      "knowledge.check",
      "knowledge.read_file",
      "knowledge.write_file",
      "knowledge.route_context",
      "knowledge.status",
    ]);
    const recall = tools.find((t) => t.name === "knowledge.recall");
    expect(recall?.description).toContain("knowledge.open");
    expect(recall?.description).not.toContain("knowledge_open");
    await client.close();
  });
});

describe("knowledge_recall", () => {
  it("answers an on_query question in Russian word forms, awaiting start-up indexing", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "knowledge_recall",
      arguments: { query: "как откатить релиз" },
    });
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as {
      hits: { id: string; why: { kind: string }[]; summary: string }[];
      total: number;
      next_cursor: string | null;
    };
    expect(answer.hits[0]?.id).toBe(ROLLBACK_ID);
    expect(answer.hits[0]?.why).toContainEqual({ kind: "on_query", word: "откат" });
    expect(answer.hits[0]?.summary).toBe(
      "Откат релиза — это helm rollback, а не повторный деплой старого тега.",
    );
    expect(JSON.parse(textOf(result))).toEqual(answer);
    await client.close();
  });

  it("finds entries by the tool an agent is about to call", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "knowledge_recall",
      arguments: { tool: "run_migration" },
    });
    const answer = result.structuredContent as { hits: { id: string; why: unknown[] }[] };
    expect(answer.hits.map((h) => h.id)).toEqual([MIGRATION_ID]);
    expect(answer.hits[0]?.why).toContainEqual({ kind: "on_tool", name: "run_migration" });
    await client.close();
  });

  it("never surfaces an unreachable entry through its contract", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "knowledge_recall", arguments: { tool: "x" } });
    const answer = result.structuredContent as { hits: { id: string }[] };
    expect(answer.hits.map((h) => h.id)).not.toContain(UNREACHABLE_ID);
    await client.close();
  });

  it("returns a tool error with the machine code and the next step for an empty query", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "knowledge_recall", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const error = JSON.parse(textOf(result)).error;
    expect(error.code).toBe("empty_query");
    expect(error.next).toContain("`query`");
    await client.close();
  });

  it("refuses a limit out of range through the schema, with the machine code", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "knowledge_recall",
      arguments: { query: "релиз", limit: 0 },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("[invalid_limit] `limit` must be a whole number from 1 to 50");
    const typed = await client.callTool({ name: "knowledge_open", arguments: { id: 5 } });
    expect(textOf(typed)).toContain("[invalid_input] `id` must be an entry id string");
    await client.close();
  });
});

describe("knowledge_open", () => {
  it("returns the whole entry with its body", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "knowledge_open",
      arguments: { id: ROLLBACK_ID },
    });
    expect(result.isError).toBeFalsy();
    const entry = result.structuredContent as { id: string; body: string; path: string };
    expect(entry.id).toBe(ROLLBACK_ID);
    expect(entry.path).toBe(".gitriver/knowledge/deploy-rollback.md");
    expect(entry.body).toContain("Повторный деплой прогоняет хуки заново");
    await client.close();
  });

  it("opens an unreachable entry too", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "knowledge_open",
      arguments: { id: UNREACHABLE_ID },
    });
    expect(result.isError).toBeFalsy();
    await client.close();
  });

  it("maps entry_not_found to a tool error that names the recall tool", async () => {
    const client = await connect({ toolNames: "dotted" });
    const result = await client.callTool({
      name: "knowledge.open",
      arguments: { id: "01a00000-0000-7000-8000-000000000001" },
    });
    expect(result.isError).toBe(true);
    const error = JSON.parse(textOf(result)).error;
    expect(error.code).toBe("entry_not_found");
    expect(error.message).toBe("no entry with id 01a00000-0000-7000-8000-000000000001");
    expect(error.next).toContain("knowledge.recall");
    await client.close();
  });
});

describe("knowledge_check", () => {
  it("accepts a valid entry and gives its summary", async () => {
    const client = await connect();
    const text = knowledgeFiles()[".gitriver/knowledge/migrations.md"];
    const result = await client.callTool({ name: "knowledge_check", arguments: { text } });
    const answer = result.structuredContent as {
      ok: boolean;
      entry: { id: string; summary: string; reachable: boolean };
    };
    expect(answer.ok).toBe(true);
    expect(answer.entry).toEqual({
      id: MIGRATION_ID,
      summary: "Run production migrations with a lock timeout.",
      reachable: true,
      unmet_mechanisms: [],
    });
    await client.close();
  });

  it("refuses unknown keys strictly, naming the nearest known key and the line", async () => {
    const client = await connect();
    const text = `---\nid: ${ROLLBACK_ID}\nsumary: x\nLinks: []\n---\n\nBody.\n`;
    const result = await client.callTool({
      name: "knowledge_check",
      arguments: { text, path: "draft.md" },
    });
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as {
      ok: boolean;
      diagnostics: { code: string; line?: number; message: string }[];
    };
    expect(answer.ok).toBe(false);
    const unknown = answer.diagnostics.filter((d) => d.code === "unknown_key");
    expect(unknown.map((d) => d.line)).toEqual([3, 4]);
    expect(unknown[0]?.message).toContain("“summary”");
    expect(unknown[1]?.message).toContain("“links”");
    await client.close();
  });
});
