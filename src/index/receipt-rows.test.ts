import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NewReceipt } from "../core/receipts/receipt.js";
import { listReceipts } from "../services/receipts/list-receipts.js";
import { type EntryIndex, openIndex } from "./entry-index.js";
import { applyMigrations, MIGRATIONS } from "./migrate.js";
import { openSqliteDatabase } from "./sqlite-database.js";

let dir: string;
let index: EntryIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-receipt-rows-"));
  index = openIndex(join(dir, "index.db"));
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const receipt = (user: string, at: number): NewReceipt => ({
  at,
  user,
  client: "cli",
  session: null,
  query: `query of ${user}`,
  tool: null,
  offset: 0,
  limit: 5,
  total: 0,
  hits: [],
});

describe("receipt ids", () => {
  it("tell one user nothing of how many recalls the others made", () => {
    const t0 = Date.UTC(2026, 11, 1, 10);
    index.receipts.add(receipt("anna", t0));
    for (let i = 1; i <= 5; i++) index.receipts.add(receipt("boris", t0 + i));
    index.receipts.add(receipt("anna", t0 + 10));
    index.receipts.add(receipt("anna", t0 + 11));
    const own = index.receipts.list({ user: "anna", limit: 10 });
    expect(own.map((r) => r.at)).toEqual([t0 + 11, t0 + 10, t0]);
    for (const r of own) expect(r.id).toMatch(/^[0-9a-f]{32}$/);
    // No two ids share a prefix a sequence would give, and no id is a number.
    expect(new Set(own.map((r) => r.id)).size).toBe(3);
    expect(own.every((r) => !/^\d+$/.test(r.id))).toBe(true);

    // The cursor pages through anna's receipts in order, and names no row number either.
    const first = listReceipts(index, { user: "anna" }, { limit: 1 });
    expect(first.items.map((r) => r.at)).toEqual([new Date(t0 + 11).toISOString()]);
    const cursor = first.next_cursor as string;
    expect(Buffer.from(cursor, "base64url").toString("utf8")).toBe(`r:${own[0]?.id}`);
    const second = listReceipts(index, { user: "anna" }, { limit: 1, cursor });
    expect(second.items.map((r) => r.id)).toEqual([own[1]?.id]);
    const third = listReceipts(
      index,
      { user: "anna" },
      { limit: 5, cursor: second.next_cursor as string },
    );
    expect(third.items.map((r) => r.id)).toEqual([own[2]?.id]);
    expect(third.next_cursor).toBeNull();
  });

  it("a cursor of the old numeric kind is refused as invalid_cursor", () => {
    const old = Buffer.from("r:42").toString("base64url");
    expect(() => listReceipts(index, { user: "anna" }, { cursor: old })).toThrow(
      expect.objectContaining({ code: "invalid_cursor" }),
    );
  });

  it("receipts kept from before the migration get random ids, in the old order", () => {
    const file = join(dir, "old.db");
    const db = openSqliteDatabase(file);
    const before = MIGRATIONS.findIndex((m) => typeof m === "string" && m.includes("public_id"));
    expect(before).toBeGreaterThan(0);
    applyMigrations(db, MIGRATIONS.slice(0, before), { what: "the index", newer: "rebuild" });
    const insert = db.prepare(
      `INSERT INTO receipts (at, user, client, session, query, tool, page_offset, page_limit, total)
       VALUES (?, 'anna', 'cli', NULL, 'q', NULL, 0, 5, 0)`,
    );
    for (const at of [1, 2, 3]) insert.run(at);
    db.close();
    const migrated = openIndex(file);
    try {
      const rows = migrated.receipts.list({ user: "anna", limit: 10 });
      expect(rows.map((r) => r.at)).toEqual([3, 2, 1]);
      for (const r of rows) expect(r.id).toMatch(/^[0-9a-f]{32}$/);
      expect(new Set(rows.map((r) => r.id)).size).toBe(3);
    } finally {
      migrated.close();
    }
  });
});

describe("receipts queued behind another writer", () => {
  it("are listed at once, under the ids they are stored by when the lock is free", () => {
    const t0 = Date.UTC(2026, 11, 1, 10);
    index.receipts.add(receipt("anna", t0));
    index.receipts.flush();
    // Another connection (a refresh) holds the write lock while anna recalls twice more.
    const other = openSqliteDatabase(join(dir, "index.db"));
    other.exec("BEGIN IMMEDIATE");
    try {
      index.receipts.add(receipt("anna", t0 + 1));
      index.receipts.add(receipt("boris", t0 + 2));
      index.receipts.add(receipt("anna", t0 + 3));
      const listed = index.receipts.list({ user: "anna", limit: 10 });
      expect(listed.map((r) => r.at)).toEqual([t0 + 3, t0 + 1, t0]);
      // Paging runs from the queued into the stored.
      const page = listReceipts(index, { user: "anna" }, { limit: 1 });
      const next = listReceipts(
        index,
        { user: "anna" },
        { limit: 5, cursor: page.next_cursor as string },
      );
      expect([...page.items, ...next.items].map((r) => r.id)).toEqual(listed.map((r) => r.id));
      other.exec("COMMIT");
      index.receipts.flush();
      expect(index.receipts.list({ user: "anna", limit: 10 }).map((r) => r.id)).toEqual(
        listed.map((r) => r.id),
      );
    } finally {
      if (other.inTransaction) other.exec("ROLLBACK");
      other.close();
    }
  });
});
