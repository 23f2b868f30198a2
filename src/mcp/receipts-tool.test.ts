import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeFiles, MIGRATION_ID, ROLLBACK_ID } from "../../test/e2e/fixture-entries.js";
import { makeRepo, type TestRepo } from "../../test/helpers/make-repo.js";
import { composeLore, type Lore } from "../main/compose.js";
import { createMcpServer, type McpServerOptions } from "./create-mcp-server.js";

// `knowledge_receipts` of `lore mcp` (README "Load receipts") over the real MCP SDK client,
// on a real git repository and a real index file: the client's `initialize` name lands on
// the receipt, the reasons are the hits' own, the arguments are strict.

let repo: TestRepo;
let tmp: string;
let lore: Lore;

beforeAll(async () => {
  repo = await makeRepo(knowledgeFiles());
  tmp = mkdtempSync(join(tmpdir(), "lore-receipts-tool-"));
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

async function connect(name: string, options: McpServerOptions = {}): Promise<Client> {
  const server = createMcpServer(lore.port(), options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

function errorOf(result: unknown): { code: string; message: string } {
  const content = (result as { content: { text: string }[] }).content;
  return JSON.parse(content.map((c) => c.text).join("")).error;
}

interface Page {
  items: {
    client: string;
    query: string | null;
    tool: string | null;
    hits: { id: string; why: unknown[] }[];
  }[];
  next_cursor: string | null;
}

describe("knowledge_receipts (local)", () => {
  it("lists the recalls of this connection with the client's initialize name and the reasons", async () => {
    const client = await connect("claude-desktop");
    try {
      await client.callTool({ name: "knowledge_recall", arguments: { query: "откат релиза" } });
      await client.callTool({ name: "knowledge_recall", arguments: { tool: "run_migration" } });
      const result = await client.callTool({ name: "knowledge_receipts", arguments: {} });
      expect(result.isError).toBeFalsy();
      const page = result.structuredContent as unknown as Page;
      expect(page.items.map((r) => [r.client, r.query, r.tool])).toEqual([
        ["claude-desktop", null, "run_migration"],
        ["claude-desktop", "откат релиза", null],
      ]);
      expect(page.items[0]?.hits.map((h) => [h.id, h.why])).toEqual([
        [MIGRATION_ID, [{ kind: "on_tool", name: "run_migration" }]],
      ]);
      expect(page.items[1]?.hits[0]?.id).toBe(ROLLBACK_ID);
      expect(page.items[1]?.hits[0]?.why).toContainEqual({ kind: "on_query", word: "откат" });
      const one = await client.callTool({ name: "knowledge_receipts", arguments: { limit: 1 } });
      const first = one.structuredContent as unknown as Page;
      expect(first.items).toHaveLength(1);
      const next = await client.callTool({
        name: "knowledge_receipts",
        arguments: { limit: 1, cursor: first.next_cursor },
      });
      expect((next.structuredContent as unknown as Page).items[0]?.query).toBe("откат релиза");
      const later = await client.callTool({
        name: "knowledge_receipts",
        arguments: { since: Date.now() + 60_000 },
      });
      expect((later.structuredContent as unknown as Page).items).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("refuses unknown arguments, a bad since, a bad limit and a bad cursor with their codes", async () => {
    const client = await connect("probe", { toolNames: "dotted" });
    try {
      const call = (args: Record<string, unknown>) =>
        client.callTool({ name: "knowledge.receipts", arguments: args });
      expect(errorOf(await call({ user: "olga" })).code).toBe("invalid_input");
      expect(errorOf(await call({ since: "soon" })).code).toBe("invalid_input");
      expect(errorOf(await call({ limit: 0 })).code).toBe("invalid_limit");
      expect(errorOf(await call({ cursor: "not-a-cursor" })).code).toBe("invalid_cursor");
    } finally {
      await client.close();
    }
  });
});
