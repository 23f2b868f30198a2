/**
 * One recall over all local knowledge: a Stripe entry in `.gitriver/knowledge/` and a page
 * "Stripe webhook retries" ingested into the project's `.wiki/` are both found by one
 * `lore recall stripe webhook` (the built CLI, a real git repository, a real SQLite file),
 * each hit naming its kind and source; and by the MCP recall tool of `lore mcp` over stdio.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";

const STRIPE_ID = "0190f5a4-3b2c-7d10-8a11-00000000a001";

const entry = (id: string, words: string[], text: string) =>
  `---\nid: ${id}\norigin: human\ncontract:\n  - mechanism: on_query\n    params:\n      words: [${words.join(", ")}]\n---\n\n${text}\n`;

interface Hit {
  id: string;
  kind: string;
  source: string;
  path: string;
  why: { kind: string }[];
}

describe("lore recall spans entries and the project's wiki pages", () => {
  let repo: TestRepo;
  let iso: ReturnType<typeof isolatedEnv>;

  beforeEach(async () => {
    iso = isolatedEnv();
    repo = await makeRepo({
      ".gitriver/knowledge/stripe.md": entry(
        STRIPE_ID,
        ["stripe"],
        "Stripe keys live in Vault; the test mode key starts with sk_test.",
      ),
      ".gitriver/knowledge/redis.md": entry(
        "0190f5a4-3b2c-7d10-8a11-00000000a002",
        ["redis"],
        "Redis evicts sessions when the cache is full.",
      ),
      ".gitriver/knowledge/vpn.md": entry(
        "0190f5a4-3b2c-7d10-8a11-00000000a003",
        ["vpn"],
        "Ask IT for a WireGuard profile.",
      ),
    });
  });

  afterEach(async () => {
    await repo.cleanup();
    iso.cleanup();
  });

  const ingest = async () => {
    const run = await runLore(
      [
        "wiki",
        "ingest",
        "--title",
        "Stripe webhook retries",
        "--type",
        "concepts",
        "--body",
        "Stripe retries an unanswered webhook for three days; make handlers idempotent.",
      ],
      { cwd: repo.dir, env: iso.env },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  };

  it("finds the entry and the wiki page with one CLI recall, each with its kind and source", async () => {
    expect((await runLore(["index"], { cwd: repo.dir, env: iso.env })).code).toBe(0);
    await ingest();
    const run = await runLore(["recall", "stripe", "webhook", "--json"], {
      cwd: repo.dir,
      env: iso.env,
    });
    expect(run.code).toBe(0);
    const hits = (JSON.parse(run.stdout) as { hits: Hit[] }).hits;
    expect(hits.map((hit) => hit.kind)).toEqual(["wiki", "entry"]);
    // The page holds both words: it ranks above the entry, which holds one (by contract).
    expect(hits[0]).toMatchObject({
      kind: "wiki",
      source: ".wiki/concepts/stripe-webhook-retries.md",
      why: [{ kind: "text" }],
    });
    expect(hits[1]).toMatchObject({ id: STRIPE_ID, kind: "entry" });
    expect(hits[1]?.why[0]).toEqual({ kind: "on_query", word: "stripe" });

    const text = await runLore(["recall", "stripe", "webhook"], { cwd: repo.dir, env: iso.env });
    expect(text.stdout).toContain("wiki .wiki/concepts/stripe-webhook-retries.md");
    expect(text.stdout).toContain("entry ");

    // A page removed from the wiki drops out of recall.
    await repo.git(["clean", "-fdxq", ".wiki"]);
    const after = await runLore(["recall", "stripe", "webhook", "--json"], {
      cwd: repo.dir,
      env: iso.env,
    });
    expect((JSON.parse(after.stdout) as { hits: Hit[] }).hits.map((hit) => hit.kind)).toEqual([
      "entry",
    ]);
  });

  it("finds both through the MCP recall tool, the page ingested while the server runs", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--repo", repo.dir],
      cwd: repo.dir,
      env: iso.env,
      stderr: "ignore",
    });
    const client = new Client({ name: "recall-wiki-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const ask = async () => {
        const result = await client.callTool({
          name: "knowledge_recall",
          arguments: { query: "stripe webhook" },
        });
        return (result.structuredContent as { hits: Hit[] }).hits;
      };
      expect((await ask()).map((hit) => hit.kind)).toEqual(["entry"]);
      await ingest();
      const hits = await ask();
      expect(hits.map((hit) => [hit.kind, hit.source])).toEqual([
        ["wiki", ".wiki/concepts/stripe-webhook-retries.md"],
        // An entry's source is its repository's identity: with no remote, the root commit.
        ["entry", expect.stringMatching(/^commit:[0-9a-f]{40}$/)],
      ]);
    } finally {
      await client.close();
    }
  });
});
