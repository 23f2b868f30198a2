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
    server: { host: "127.0.0.1", port: 0, data: join(tmpdir(), "lore-server-unused"), sshPort: 0 },
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
      "knowledge_receipts",
      "knowledge_read_file",
      "knowledge_write_file",
      "knowledge_route_context",
      "knowledge_status",
    ]);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      // Every tool but write_file only reads (knowledge roots: write_file writes the primary root).
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
      "knowledge.receipts",
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
    // Every refusal has the documented shape, schema refusals too (not `MCP error -32602`).
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toContain("-32602");
    expect(JSON.parse(textOf(result))).toEqual({
      error: {
        code: "invalid_limit",
        message: "`limit` must be a whole number from 1 to 50; leave it out for 10",
        next: "Pass `limit` as a whole number in the range the message gives, or leave it out.",
        data: { argument: "limit" },
      },
    });
    const typed = await client.callTool({ name: "knowledge_open", arguments: { id: 5 } });
    const error = JSON.parse(textOf(typed)).error;
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe("invalid input: `id` must be an entry id string");
    expect(error.next).toBe("Fix the arguments as the message says and call again.");
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

describe("strict tool inputs (seed 001: ask_projects' schema has additionalProperties: false)", () => {
  it("lists every input schema with additionalProperties: false", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.inputSchema.additionalProperties).toBe(false);
    await client.close();
  });

  it("refuses `limt: 3` naming the argument and the nearest known one, instead of the default 5", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "knowledge_recall",
      arguments: { query: "релиз", limt: 3 },
    });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toEqual({
      error: {
        code: "invalid_input",
        message: "invalid input: unknown argument “limt”, the nearest known is “limit”",
        next: "Fix the arguments as the message says and call again.",
        data: { argument: "limt", nearest: "limit" },
      },
    });
    await client.close();
  });

  it("says in Russian with the seed's quotes: аргумент „limt“ не известен, ближайший известный — „limit“", async () => {
    const client = await connect({ lang: "ru" });
    const result = await client.callTool({
      name: "knowledge_recall",
      arguments: { query: "релиз", limt: 3 },
    });
    expect(JSON.parse(textOf(result)).error.message).toBe(
      "неверный ввод: аргумент „limt“ не известен, ближайший известный — „limit“",
    );
    const ranged = await client.callTool({
      name: "knowledge_recall",
      arguments: { query: "релиз", limit: 0 },
    });
    expect(JSON.parse(textOf(ranged)).error.message).toBe("„limit“ должен быть не меньше 1");
    await client.close();
  });

  it("refuses `arguments: null` (or an array, a string) as invalid_input, not an internal error", async () => {
    const client = await connect();
    for (const [given, what] of [
      [null, "null"],
      [["x"], "an array"],
      ["x", "string"],
    ] as const) {
      // The client's types allow only an object; the wire allows anything.
      const result = await client.callTool({
        name: "knowledge_recall",
        arguments: given as unknown as Record<string, unknown>,
      });
      expect(result.isError).toBe(true);
      const error = JSON.parse(textOf(result)).error;
      expect(error.code).toBe("invalid_input");
      expect(error.message).toBe(
        `invalid input: \`arguments\` must be an object of the tool's arguments (or left out), not ${what}`,
      );
    }
    await client.close();
  });

  it("refuses an argument a tool without arguments does not take", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "knowledge_status",
      arguments: { verbose: true },
    });
    const error = JSON.parse(textOf(result)).error;
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      "invalid input: unknown argument “verbose”, and no known one is near it (known: none)",
    );
    await client.close();
  });

  it("refuses an unknown tool in the same shape, naming the nearest tool", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "knowledge_recal", arguments: { query: "x" } });
    expect(result.isError).toBe(true);
    const error = JSON.parse(textOf(result)).error;
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      "invalid input: there is no tool “knowledge_recal”; the nearest is “knowledge_recall”",
    );
    await client.close();
  });
});

describe("the seed naming style", () => {
  it("exposes seed 003's read_knowledge_file and route_context, the rest dotted, hints naming them", async () => {
    const client = await connect({ toolNames: "seed" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "knowledge.recall",
      "knowledge.open",
      "knowledge.check",
      "knowledge.receipts",
      "read_knowledge_file",
      "knowledge.write_file",
      "route_context",
      "knowledge.status",
    ]);
    const route = tools.find((t) => t.name === "route_context");
    expect(route?.description).toContain("Then call read_knowledge_file with `knowledge_root_id`");
    const recall = tools.find((t) => t.name === "knowledge.recall");
    expect(recall?.description).toContain(
      "read those with read_knowledge_file(path, knowledge_root_id=root)",
    );
    expect(JSON.stringify(recall?.outputSchema)).toContain("read it with read_knowledge_file.");
    const missing = await client.callTool({
      name: "knowledge.open",
      arguments: { id: "01a00000-0000-7000-8000-000000000001" },
    });
    expect(JSON.parse(textOf(missing)).error.next).toBe(
      "The id is unknown (the entry may have been deleted); call knowledge.recall to find current ids.",
    );
    await client.close();
  });

  it("the unknown-key message of seed 004, to the letter: ключ „on_trigers“ не известен, ближайший известный — „contract“", async () => {
    const client = await connect({ lang: "ru" });
    const text = `---\nid: ${ROLLBACK_ID}\non_trigers: [x]\n---\n\nBody.\n`;
    const result = await client.callTool({ name: "knowledge_check", arguments: { text } });
    const answer = result.structuredContent as { diagnostics: { code: string; message: string }[] };
    expect(answer.diagnostics.find((d) => d.code === "unknown_key")?.message).toBe(
      "ключ „on_trigers“ не известен, ближайший известный — „contract“",
    );
    await client.close();
  });
});
