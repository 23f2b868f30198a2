/**
 * The index store on SQLite: the engine-neutral contract (`test/helpers/index-store-contract.ts`)
 * over real index files, each "server" a connection (an `EntryIndex`) of its own on one file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeIndexStoreContract } from "../../../test/helpers/index-store-contract.js";
import { type EntryIndex, openIndex } from "../entry-index.js";
import { sqliteIndexStore } from "./sqlite-index-store.js";

let dir: string | undefined;
const indexes: EntryIndex[] = [];

describeIndexStoreContract("SQLite", {
  async fresh() {
    dir = mkdtempSync(join(tmpdir(), "lore-index-store-"));
  },
  async open() {
    const index = openIndex(join(dir as string, "index.db"));
    indexes.push(index);
    return sqliteIndexStore(index);
  },
  async dispose() {
    for (const index of indexes.splice(0)) index.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  },
});

describe("index store on SQLite: a view of the index", () => {
  it("shares the index's queue: counts of the index and of the store are one table", async () => {
    const folder = mkdtempSync(join(tmpdir(), "lore-index-store-"));
    const index = openIndex(join(folder, "index.db"));
    try {
      const store = sqliteIndexStore(index);
      index.countShown("ann", [{ repo: "acme/app", id: "x1" }], 1000);
      store.counters.countShown("ann", [{ repo: "acme/app", id: "x1" }], 2000);
      expect((await store.counters.list("ann")).map((r) => r.shown)).toEqual([2]);
      expect(index.stats("ann").map((r) => r.shown)).toEqual([2]);
      // Its close writes the queue and leaves the index open for its owner.
      store.counters.countRead("ann", { repo: "acme/app", id: "x1" }, 3000);
      await store.close();
      expect(index.counter("ann", "acme/app", "x1")?.read).toBe(1);
    } finally {
      index.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
