import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ContractClause, ParsedEntry } from "../../core/entry/entry.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import { recall } from "../knowledge/recall.js";
import { recallWithin } from "../knowledge/recall-within.js";
import { listReceipts, pruneReceipts } from "./list-receipts.js";

const idOf = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const onQuery = (...words: string[]): ContractClause => ({
  mechanism: "on_query",
  params: { words },
});
const onTool = (name: string): ContractClause => ({ mechanism: "on_tool", params: { name } });

function parsed(id: string, body: string, contract: ContractClause[]): ParsedEntry {
  return {
    entry: { id, contract, origin: "human", links: [], unknownKeys: {}, body },
    summary: body,
    reachable: true,
    unmetMechanisms: [],
  };
}

let dir: string;
let file: string;
let index: EntryIndex;
function put(n: number, body: string, contract: ContractClause[] = [], repo = "acme/app"): string {
  const id = idOf(n);
  index.putFile({
    repo,
    path: `.gitriver/knowledge/${n}.md`,
    blobSha: String(n).repeat(40).slice(0, 40),
    parsed: parsed(id, body, contract),
    diagnostics: [],
  });
  return id;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-receipts-"));
  file = join(dir, "index.db");
  index = openIndex(file);
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const DAY = 24 * 60 * 60 * 1000;

describe("recordReceipt through recall", () => {
  it("three recalls leave three receipts with the on_query word, the on_tool name and the text rank", () => {
    const deploy = put(1, "Rollback a release with one command.", [onQuery("откат", "rollback")]);
    const migrate = put(2, "Migrations run inside a transaction.", [onTool("run_migration")]);
    const cache = put(3, "The cache warms up in about a minute after boot.");
    const t0 = Date.UTC(2026, 11, 1, 10);
    recall(index, { query: "how to rollback", user: "ann", now: t0, client: "cli" });
    recall(index, {
      tool: "run_migration",
      user: "ann",
      now: t0 + 1,
      client: "claude-code:PreToolUse",
      session: "s-1",
    });
    recall(index, { query: "cache warms", user: "ann", now: t0 + 2 });
    const page = listReceipts(index, { user: "ann" });
    expect(page.next_cursor).toBeNull();
    expect(page.items).toHaveLength(3);
    const [third, second, first] = page.items;
    expect(first).toMatchObject({
      user: "ann",
      client: "cli",
      session: null,
      query: "how to rollback",
      tool: null,
      at: new Date(t0).toISOString(),
      offset: 0,
      limit: 10,
      total: 1,
    });
    expect(first?.hits).toEqual([
      {
        rank: 1,
        repo: "acme/app",
        id: deploy,
        revision: "1".repeat(40),
        draft: false,
        score: expect.any(Number),
        why: [{ kind: "on_query", word: "rollback" }, { kind: "text" }],
      },
    ]);
    expect(second).toMatchObject({
      client: "claude-code:PreToolUse",
      session: "s-1",
      tool: "run_migration",
      query: null,
    });
    expect(second?.hits.map((h) => [h.id, h.why])).toEqual([
      [migrate, [{ kind: "on_tool", name: "run_migration" }]],
    ]);
    expect(third).toMatchObject({ client: "unknown", query: "cache warms" });
    expect(third?.hits.map((h) => [h.id, h.why])).toEqual([[cache, [{ kind: "text" }]]]);
    // Another user's list holds none of them.
    expect(listReceipts(index, { user: "bob" }).items).toEqual([]);
  });

  it("survives a reopen (written at close) and pages newest first with a cursor", () => {
    put(1, "Rollback runbook.", [onQuery("rollback")]);
    for (let i = 0; i < 5; i++) recall(index, { query: "rollback", user: "ann", now: 1_000 + i });
    index.close();
    index = openIndex(file);
    const first = listReceipts(index, { user: "ann" }, { limit: 2 });
    expect(first.items.map((r) => r.at)).toEqual([
      new Date(1_004).toISOString(),
      new Date(1_003).toISOString(),
    ]);
    const second = listReceipts(
      index,
      { user: "ann" },
      { limit: 2, cursor: first.next_cursor ?? "" },
    );
    expect(second.items.map((r) => r.at)).toEqual([
      new Date(1_002).toISOString(),
      new Date(1_001).toISOString(),
    ]);
    const since = listReceipts(index, { user: "ann" }, { since: new Date(1_003).toISOString() });
    expect(since.items).toHaveLength(2);
    expect(listReceipts(index, { user: "ann" }, { since: "1004" }).items).toHaveLength(1);
    expect(() => listReceipts(index, { user: "ann" }, { since: "yesterday" })).toThrow(/since/);
    expect(() => listReceipts(index, { user: "ann" }, { cursor: "zz" })).toThrow();
  });

  it("recallWithin records too, and a repository view keeps only that repository's hits", () => {
    const a = put(1, "Rollback in app.", [onQuery("rollback")], "acme/app");
    put(2, "Rollback in ops.", [onQuery("rollback")], "acme/ops");
    recallWithin(index, {
      query: "rollback",
      user: "ann",
      repos: ["acme/app", "acme/ops"],
      now: 5,
    });
    const all = listReceipts(index, { user: "ann" });
    expect(all.items[0]?.hits.map((h) => h.repo).sort()).toEqual(["acme/app", "acme/ops"]);
    expect(all.items[0]?.total).toBe(2);
    const app = listReceipts(index, { repos: { names: ["acme/app"], mode: "receipts" } });
    expect(app.items).toHaveLength(1);
    expect(app.items[0]?.hits.map((h) => [h.id, h.rank])).toEqual([[a, 1]]);
    // Nothing of the other repository's hits: no total, no offset, ranks renumbered.
    expect(app.items[0]?.total).toBeNull();
    expect(app.items[0]?.offset).toBeNull();
    expect(
      listReceipts(index, { repos: { names: ["acme/none"], mode: "receipts" } }).items,
    ).toEqual([]);
    const own = listReceipts(index, { user: "ann", repos: { names: [], mode: "hits" } });
    expect(own.items).toHaveLength(1);
    expect(own.items[0]?.hits).toEqual([]);
  });
});

describe("pruning by keep_days", () => {
  it("drops receipts older than keep_days by an injected clock, on write and on demand", () => {
    put(1, "Rollback runbook.", [onQuery("rollback")]);
    index.receipts.keepDays = 30;
    const t0 = Date.UTC(2026, 0, 1);
    recall(index, { query: "rollback", user: "ann", now: t0 });
    recall(index, { query: "rollback", user: "ann", now: t0 + 10 * DAY });
    expect(index.receipts.count()).toBe(2);
    // 35 days on: the first is 35 days old, the second 25.
    expect(pruneReceipts(index, t0 + 35 * DAY)).toBe(1);
    expect(listReceipts(index, { user: "ann" }).items.map((r) => r.at)).toEqual([
      new Date(t0 + 10 * DAY).toISOString(),
    ]);
    // A write 60 days on (more than an hour after the last prune) prunes by itself.
    recall(index, { query: "rollback", user: "ann", now: t0 + 60 * DAY });
    expect(listReceipts(index, { user: "ann" }).items.map((r) => r.at)).toEqual([
      new Date(t0 + 60 * DAY).toISOString(),
    ]);
    const hits = index.withDatabase(
      (db) => db.prepare("SELECT count(*) AS n FROM receipt_hits").get() as { n: number },
    );
    expect(hits.n).toBe(1);
  });
});

describe("an index that cannot take the receipt", () => {
  it("a read-only connection still answers the recall; the failure is reported, not thrown", () => {
    const id = put(1, "Rollback runbook.", [onQuery("rollback")]);
    index.receipts.durable = true;
    const errors: unknown[] = [];
    index.receipts.onError = (error) => errors.push(error);
    index.withDatabase((db) => db.pragma("query_only = ON"));
    try {
      const answer = recall(index, { query: "rollback", user: "ann", countShown: false });
      expect(answer.hits.map((h) => h.id)).toEqual([id]);
      expect(errors).toHaveLength(1);
      expect(String(errors[0])).toMatch(/readonly|read-only/i);
    } finally {
      index.withDatabase((db) => db.pragma("query_only = OFF"));
    }
    expect(index.receipts.count()).toBe(0);
  });

  it("a locked file keeps the server's receipt queued and writes it once the lock is gone", async () => {
    const id = put(1, "Rollback runbook.", [onQuery("rollback")]);
    index.receipts.durable = true;
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    try {
      const answer = recall(index, { query: "rollback", user: "ann", countShown: false });
      expect(answer.hits.map((h) => h.id)).toEqual([id]);
    } finally {
      other.exec("COMMIT");
      other.close();
    }
    expect(listReceipts(index, { user: "ann" }).items.map((r) => r.hits[0]?.id)).toEqual([id]);
  });
});

describe("forgetting", () => {
  it("a removed user's receipts go with their counters", () => {
    put(1, "Rollback runbook.", [onQuery("rollback")]);
    recall(index, { query: "rollback", user: "ann", now: 1 });
    recall(index, { query: "rollback", user: "bob", now: 2 });
    index.forgetUserCounters("ann");
    expect(listReceipts(index, { user: "ann" }).items).toEqual([]);
    expect(listReceipts(index, { user: "bob" }).items).toHaveLength(1);
  });
});
