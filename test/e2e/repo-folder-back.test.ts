/**
 * A repository of `lore mcp --repo` whose folder goes away while the server runs drops out
 * of the answers, and is indexed again once the folder is back (moved back, cloned anew) —
 * before the next answer, with no commit needed. Real git repository, real `lore mcp`, the
 * MCP SDK's client over stdio.
 */
import { rename } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { isolatedEnv, LORE_BIN } from "./run-lore.js";

const ID = "0190f5a4-3b2c-7d10-8a11-00000000b0b0";
const ENTRY = `---\nid: ${ID}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [marmalade]\n---\n\nMarmalade jars go on the top shelf.\n`;

let sandbox: ReturnType<typeof isolatedEnv>;
let repo: TestRepo;

beforeAll(async () => {
  sandbox = isolatedEnv();
  repo = await makeRepo({ ".gitriver/knowledge/jar.md": ENTRY });
});
afterAll(async () => {
  await repo.cleanup();
  sandbox.cleanup();
});

describe("lore mcp and a repository folder that goes away and comes back", () => {
  it("recalls the entry again once the folder is back", async () => {
    const client = new Client({ name: "folder-back", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [LORE_BIN, "mcp", "--repo", repo.dir],
        cwd: sandbox.dir,
        env: sandbox.env,
        stderr: "ignore",
      }),
    );
    const ids = async () => {
      const result = await client.callTool({
        name: "knowledge_recall",
        arguments: { query: "marmalade" },
      });
      const hits = (result.structuredContent as { hits: { id: string }[] }).hits;
      return hits.map((hit) => hit.id);
    };
    try {
      expect(await ids()).toEqual([ID]);
      const away = `${repo.dir}-away`;
      await rename(repo.dir, away);
      expect(await ids()).toEqual([]);
      await rename(away, repo.dir);
      expect(await ids()).toEqual([ID]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
