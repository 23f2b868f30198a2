import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../../test/helpers/make-repo.js";
import { composeLore, type Lore } from "../main/compose.js";
import { localDraftsPort } from "../main/compose-drafts.js";
import { createMcpServer, type McpServerOptions } from "./create-mcp-server.js";

// The draft tools (seed 004 "Как знание выходит наружу") over the real MCP SDK client, on a
// real git repository and a real index file: their schemas (snapshots), their names in the
// three styles, and a draft written, listed, delivered and removed through them.

let repo: TestRepo;
let tmp: string;
let lore: Lore;

beforeAll(async () => {
  repo = await makeRepo({ "README.md": "app\n" });
  await repo.git(["checkout", "-q", "-b", "feature/login"]);
  tmp = mkdtempSync(join(tmpdir(), "lore-draft-tools-"));
  lore = await composeLore({
    configPath: null,
    user: "tester",
    lang: "en",
    database: join(tmp, "index.db"),
    repos: [],
    server: { host: "127.0.0.1", port: 0, data: join(tmp, "server"), sshPort: 0 },
  });
});

afterAll(async () => {
  await lore.close();
  await repo.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

async function connect(options: McpServerOptions = {}): Promise<Client> {
  const port = Object.assign(lore.port(), { drafts: localDraftsPort(lore, repo.dir) });
  const server = createMcpServer(port, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

const DRAFT_TOOLS = [
  "knowledge_draft",
  "knowledge_drafts",
  "knowledge_discard",
  "knowledge_deliver",
];

describe("the draft tools", () => {
  it("are listed with a port that keeps drafts, each schema snapshotted; their descriptions say when to write and that review decides", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const drafts = tools.filter((t) => DRAFT_TOOLS.includes(t.name));
    expect(drafts.map((t) => t.name)).toEqual(DRAFT_TOOLS);
    for (const tool of drafts) {
      expect(tool.annotations?.readOnlyHint).toBe(tool.name === "knowledge_drafts");
      await expect(JSON.stringify(tool, null, 2)).toMatchFileSnapshot(
        `./__toolsnaps__/${tool.name}.snap`,
      );
    }
    const write = drafts[0]?.description ?? "";
    expect(write).toContain("a lesson learned");
    expect(write).toContain("a fix that took long");
    expect(write).toContain("only through review");
    await client.close();
  });

  it("are named in the dotted and seed styles too", async () => {
    for (const style of ["dotted", "seed"] as const) {
      const client = await connect({ toolNames: style });
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining([
          "knowledge.draft",
          "knowledge.drafts",
          "knowledge.discard",
          "knowledge.deliver",
        ]),
      );
      await client.close();
    }
  });

  it("are not listed when the port keeps no drafts", async () => {
    const server = createMcpServer(lore.port());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => DRAFT_TOOLS.includes(n))).toEqual([]);
    await client.close();
  });

  it("write a draft on the checked-out branch, list it, deliver it into the branch, remove it", async () => {
    const client = await connect();
    const written = await client.callTool({
      name: "knowledge_draft",
      arguments: {
        title: "Log in with the test account in staging",
        body: "The SSO mock refuses real accounts there.",
        words: ["staging", "login"],
      },
    });
    expect(written.isError).toBeFalsy();
    const draft = written.structuredContent as { id: string; branch: string; author: string };
    expect(draft).toMatchObject({ branch: "feature/login", author: "tester" });
    // Recall in local mode lists it at once, marked a draft of its branch.
    const recalled = await client.callTool({
      name: "knowledge_recall",
      arguments: { query: "staging login" },
    });
    const hits = (
      recalled.structuredContent as { hits: { id: string; draft?: boolean; branch?: string }[] }
    ).hits;
    expect(hits.find((h) => h.id === draft.id)).toMatchObject({
      draft: true,
      branch: "feature/login",
    });
    const listed = await client.callTool({ name: "knowledge_drafts", arguments: {} });
    expect(
      (listed.structuredContent as { items: { id: string }[] }).items.map((d) => d.id),
    ).toEqual([draft.id]);
    const delivered = await client.callTool({ name: "knowledge_deliver", arguments: {} });
    expect(delivered.isError).toBeFalsy();
    const answer = delivered.structuredContent as {
      commits: string[];
      branch: string;
      delivered: string[];
    };
    expect(answer).toMatchObject({ branch: "feature/login", delivered: [draft.id] });
    expect((await repo.git(["rev-parse", "HEAD"])).trim()).toBe(answer.commits[0]);
    const shown = await repo.git(["show", `HEAD:.gitriver/knowledge/${draft.id}.md`]);
    expect(shown).toContain("Log in with the test account in staging");
    const discarded = await client.callTool({
      name: "knowledge_discard",
      arguments: { id: draft.id },
    });
    expect(discarded.structuredContent).toEqual({ discarded: draft.id });
    const empty = await client.callTool({ name: "knowledge_drafts", arguments: {} });
    expect((empty.structuredContent as { items: unknown[] }).items).toEqual([]);
    await client.close();
  });

  it("refuse text and title together, and an unknown argument", async () => {
    const client = await connect();
    const both = await client.callTool({
      name: "knowledge_draft",
      arguments: { text: "---\nsummary: x\n---\n\nBody.\n", title: "t", body: "b" },
    });
    expect(both.isError).toBe(true);
    expect(JSON.stringify(both.content)).toContain("invalid_input");
    const unknown = await client.callTool({
      name: "knowledge_draft",
      arguments: { titel: "t", body: "b" },
    });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain("title");
    await client.close();
  });
});
