/**
 * The contract of the {@link IndexStore} port (scale-out: the index's records on two
 * engines): every case an implementation must pass, registered for one engine by
 * {@link describeIndexStoreContract}. SQLite's test (`sqlite-index-store.test.ts`) and
 * PostgreSQL's (`pg-index-store.test.ts`) both run it, so neither engine can drift (the load
 * receipts' cases are in `receipt-store-contract.ts`, registered here); what is
 * the engine's own (schemas, several servers' locks, connections) stays in those files.
 */
import { setImmediate as tick } from "node:timers/promises";
import { beforeEach, describe, expect, it } from "vitest";
import type { CounterRow } from "../../src/core/stats/usage-counts.js";
import type { IndexStore } from "../../src/ports/index-store.js";
import { deferred } from "./deferred.js";
import { describeReceiptStoreCases } from "./receipt-store-contract.js";
import { type StoreHarness, useCaseStores } from "./store-harness.js";

/** How the contract reaches one engine. */
export type IndexStoreHarness = StoreHarness<IndexStore>;

const ID1 = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const ID2 = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
const ID3 = "0190f5a4-3b2e-7f32-ac33-4d5e6f708192";
/** 2026-03-01T10:00:00Z and the next two UTC days. */
const DAY1 = Date.UTC(2026, 2, 1, 10);
const DAY2 = DAY1 + 86_400_000;
const DAY3 = DAY2 + 86_400_000;

/** A counter row with the fields a case does not name at their "never" values. */
function row(fields: Partial<CounterRow> & Pick<CounterRow, "user" | "entryId">): CounterRow {
  return {
    repo: "acme/app",
    shown: 0,
    read: 0,
    firstShownAt: null,
    lastShownAt: null,
    firstReadAt: null,
    lastReadAt: null,
    ...fields,
  };
}

/**
 * Registers the contract's cases for one engine.
 *
 * @param engine - the name in the suite's title (`SQLite`, `PostgreSQL`).
 * @param harness - see {@link IndexStoreHarness}.
 */
export function describeIndexStoreContract(engine: string, harness: IndexStoreHarness): void {
  describe(`index store contract: ${engine}`, () => {
    const stores = useCaseStores(harness);
    const another = () => stores.another();
    let store: IndexStore;
    beforeEach(() => {
      store = stores.store;
    });

    describeReceiptStoreCases(stores);

    it("stores a durable count before it resolves: another server reads it at once", async () => {
      await store.counters.recordShown(
        "ann",
        [
          { repo: "acme/app", id: ID1 },
          { repo: "acme/app", id: ID2 },
        ],
        DAY1,
      );
      await store.counters.recordRead("ann", { repo: "acme/app", id: ID1 }, DAY1 + 5);
      const other = await another();
      expect(await other.counters.get("ann", { repo: "acme/app", id: ID1 })).toEqual(
        row({
          user: "ann",
          entryId: ID1,
          shown: 1,
          read: 1,
          firstShownAt: DAY1,
          lastShownAt: DAY1,
          firstReadAt: DAY1 + 5,
          lastReadAt: DAY1 + 5,
        }),
      );
      expect(await other.counters.get("ann", { repo: "acme/app", id: ID3 })).toBeUndefined();
      expect(await other.counters.get("bob", { repo: "acme/app", id: ID1 })).toBeUndefined();
      // An empty batch counts nothing and does not fail.
      await store.counters.recordShown("ann", [], DAY1);
      expect((await other.counters.list()).length).toBe(2);
    });

    it("keeps the first time and the latest, whatever order the counts come in", async () => {
      const key = { repo: "acme/app", id: ID1 };
      await store.counters.recordShown("ann", [key], DAY2);
      await store.counters.recordShown("ann", [key], DAY1);
      await store.counters.recordShown("ann", [key], DAY3);
      // The same through the queue: one batch folds into one write.
      store.counters.countRead("ann", key, DAY3);
      store.counters.countRead("ann", key, DAY1);
      store.counters.countRead("ann", key, DAY2);
      await store.counters.flush();
      expect(await store.counters.get("ann", key)).toEqual(
        row({
          user: "ann",
          entryId: ID1,
          shown: 3,
          read: 3,
          firstShownAt: DAY2,
          lastShownAt: DAY3,
          firstReadAt: DAY3,
          lastReadAt: DAY3,
        }),
      );
    });

    it("queues counts: this server lists them at once, another after the flush", async () => {
      store.counters.countShown(
        "ann",
        [
          { repo: "acme/app", id: ID1 },
          { repo: "acme/app", id: ID1 },
        ],
        DAY1,
      );
      store.counters.countRead("ann", { repo: "acme/app", id: ID1 }, DAY1 + 1);
      expect(await store.counters.list("ann")).toEqual([
        row({
          user: "ann",
          entryId: ID1,
          shown: 2,
          read: 1,
          firstShownAt: DAY1,
          lastShownAt: DAY1,
          firstReadAt: DAY1 + 1,
          lastReadAt: DAY1 + 1,
        }),
      ]);
      store.counters.countShown("bob", [{ repo: "acme/app", id: ID2 }], DAY2);
      await store.counters.flush();
      const other = await another();
      expect(await other.counters.get("bob", { repo: "acme/app", id: ID2 })).toEqual(
        row({ user: "bob", entryId: ID2, shown: 1, firstShownAt: DAY2, lastShownAt: DAY2 }),
      );
      // A durable count writes the queued ones with it.
      store.counters.countShown("bob", [{ repo: "acme/app", id: ID3 }], DAY2);
      await store.counters.recordRead("bob", { repo: "acme/app", id: ID2 }, DAY3);
      expect((await other.counters.get("bob", { repo: "acme/app", id: ID3 }))?.shown).toBe(1);
    });

    it("keeps a draft's counts under its repository, and two repositories' same id apart", async () => {
      await store.counters.recordShown(
        "ann",
        [
          { repo: "draft:acme/app", id: ID1 },
          { repo: "acme/app", id: ID1 },
          { repo: "acme/lib", id: ID1 },
        ],
        DAY1,
      );
      store.counters.countRead("ann", { repo: "draft:acme/app", id: ID1 }, DAY2);
      const rows = await store.counters.list();
      expect(rows.map((r) => [r.repo, r.entryId, r.shown, r.read])).toEqual([
        ["acme/app", ID1, 2, 1],
        ["acme/lib", ID1, 1, 0],
      ]);
      expect((await store.counters.get("ann", { repo: "draft:acme/app", id: ID1 }))?.shown).toBe(2);
    });

    it("lists counters by user, repository and id in byte order, one user's or everyone's", async () => {
      for (const user of ["ann", "Zed", "émile", "bob"]) {
        await store.counters.recordShown(
          user,
          [
            { repo: "acme/b", id: ID2 },
            { repo: "acme/a", id: ID2 },
            { repo: "acme/a", id: ID1 },
          ],
          DAY1,
        );
      }
      const all = await store.counters.list();
      expect(all.map((r) => `${r.user} ${r.repo} ${r.entryId.slice(-2)}`)).toEqual(
        ["Zed", "ann", "bob", "émile"].flatMap((user) => [
          `${user} acme/a 70`,
          `${user} acme/a 81`,
          `${user} acme/b 81`,
        ]),
      );
      expect((await store.counters.list("bob")).map((r) => r.user)).toEqual(["bob", "bob", "bob"]);
      expect(await store.counters.list("nobody")).toEqual([]);
    });

    it("sums the days of a repository or of one entry over users, only days with counts", async () => {
      const app1 = { repo: "acme/app", id: ID1 };
      const app2 = { repo: "acme/app", id: ID2 };
      await store.counters.recordShown("ann", [app1, app2], DAY1);
      await store.counters.recordShown("bob", [app1], DAY1 + 3_600_000);
      await store.counters.recordRead("bob", { repo: "draft:acme/app", id: ID2 }, DAY1);
      await store.counters.recordShown("ann", [{ repo: "acme/lib", id: ID1 }], DAY2);
      store.counters.countRead("ann", app1, DAY3);
      const days = await store.counters.days("acme/app", "2026-03-01", "2026-03-31");
      expect(days).toEqual([
        { day: "2026-03-01", shown: 3, read: 1 },
        { day: "2026-03-03", shown: 0, read: 1 },
      ]);
      expect(await store.counters.days("acme/app", "2026-03-01", "2026-03-31", ID2)).toEqual([
        { day: "2026-03-01", shown: 1, read: 1 },
      ]);
      expect(await store.counters.days("acme/app", "2026-03-02", "2026-03-02")).toEqual([]);
      expect(await store.counters.days("draft:acme/app", "2026-03-03", "2026-03-03")).toEqual([
        { day: "2026-03-03", shown: 0, read: 1 },
      ]);
    });

    it("sums an entry's counts over users or one user's, per id in byte order, the latest times kept", async () => {
      await store.counters.recordShown(
        "ann",
        [
          { repo: "acme/app", id: ID2 },
          { repo: "acme/app", id: ID1 },
          { repo: "acme/lib", id: ID1 },
        ],
        DAY1,
      );
      await store.counters.recordShown("bob", [{ repo: "draft:acme/app", id: ID1 }], DAY2);
      await store.counters.recordRead("bob", { repo: "acme/app", id: ID1 }, DAY3);
      // A queued count is summed too: this server writes it first.
      store.counters.countShown("ann", [{ repo: "acme/app", id: ID3 }], DAY1 + 1);
      const sum = (
        entryId: string,
        shown: number,
        read: number,
        last: [number | null, number | null],
      ) => ({
        entryId,
        shown,
        read,
        lastShownAt: last[0],
        lastReadAt: last[1],
      });
      const all = [
        sum(ID1, 2, 1, [DAY2, DAY3]),
        sum(ID2, 1, 0, [DAY1, null]),
        sum(ID3, 1, 0, [DAY1 + 1, null]),
      ];
      expect(await store.counters.sums("acme/app")).toEqual(all);
      expect(await (await another()).counters.sums("acme/app")).toEqual(all);
      expect(await store.counters.sums("draft:acme/app", { user: "bob" })).toEqual([
        sum(ID1, 1, 1, [DAY2, DAY3]),
      ]);
      expect(await store.counters.sums("acme/app", { ids: [ID2, ID1, "nope"] })).toEqual([
        sum(ID1, 2, 1, [DAY2, DAY3]),
        sum(ID2, 1, 0, [DAY1, null]),
      ]);
      expect(await store.counters.sums("acme/app", { user: "ann", ids: [ID1] })).toEqual([
        sum(ID1, 1, 0, [DAY1, null]),
      ]);
      expect(await store.counters.sums("acme/app", { ids: [] })).toEqual([]);
      expect(await store.counters.sums("acme/lib", { user: "bob" })).toEqual([]);
      expect(await store.counters.sums("acme/none")).toEqual([]);
    });

    it("forgets a user's or a repository's counters and days, and nobody else's", async () => {
      await store.counters.recordShown(
        "ann",
        [
          { repo: "acme/app", id: ID1 },
          { repo: "acme/lib", id: ID1 },
        ],
        DAY1,
      );
      await store.counters.recordShown("bob", [{ repo: "acme/app", id: ID2 }], DAY1);
      expect(await store.counters.forgetUser("ann")).toBe(2);
      expect((await store.counters.list()).map((r) => r.user)).toEqual(["bob"]);
      expect(await store.counters.days("acme/lib", "2026-03-01", "2026-03-01")).toEqual([]);
      expect(await store.counters.forgetUser("ann")).toBe(0);
      await store.counters.recordShown("ann", [{ repo: "acme/lib", id: ID1 }], DAY2);
      expect(await store.counters.forgetRepo("acme/app")).toBe(1);
      expect((await store.counters.list()).map((r) => `${r.user} ${r.repo}`)).toEqual([
        "ann acme/lib",
      ]);
      expect(await store.counters.days("acme/app", "2026-03-01", "2026-03-31")).toEqual([]);
      expect(await store.counters.days("acme/lib", "2026-03-01", "2026-03-31")).toEqual([
        { day: "2026-03-02", shown: 1, read: 0 },
      ]);
    });

    it("counts exactly when two servers count the same entries at once", async () => {
      const other = await another();
      const keys = [ID1, ID2, ID3].map((id) => ({ repo: "acme/app", id }));
      const rounds = 40;
      const work: Promise<void>[] = [];
      for (let i = 0; i < rounds; i++) {
        for (const [s, user] of [
          [store, "ann"],
          [other, "ann"],
          [other, "bob"],
        ] as const) {
          work.push(s.counters.recordShown(user, keys, DAY1 + i));
          s.counters.countShown(user, keys.slice(0, 1), DAY2 + i);
          s.counters.countRead(user, keys[1] as (typeof keys)[number], DAY2 + i);
        }
      }
      await Promise.all(work);
      await Promise.all([store.counters.flush(), other.counters.flush()]);
      const rows = await store.counters.list();
      expect(rows.map((r) => `${r.user} ${r.entryId.slice(-2)} ${r.shown} ${r.read}`)).toEqual([
        `ann 70 ${4 * rounds} 0`,
        `ann 81 ${2 * rounds} ${2 * rounds}`,
        `ann 92 ${2 * rounds} 0`,
        `bob 70 ${2 * rounds} 0`,
        `bob 81 ${rounds} ${rounds}`,
        `bob 92 ${rounds} 0`,
      ]);
      const ann = rows[0] as CounterRow;
      expect([ann.firstShownAt === DAY1 || ann.firstShownAt === DAY2, ann.lastShownAt]).toEqual([
        true,
        DAY2 + rounds - 1,
      ]);
      expect(await other.counters.days("acme/app", "2026-03-01", "2026-03-02")).toEqual([
        { day: "2026-03-01", shown: 9 * rounds, read: 0 },
        { day: "2026-03-02", shown: 3 * rounds, read: 3 * rounds },
      ]);
    });

    it("runs the holders of one branch's delivery lock one at a time, in the order they asked", async () => {
      let active = 0;
      let most = 0;
      const order: number[] = [];
      const holders = Array.from({ length: 5 }, (_, i) =>
        store.locks.withDeliveryLock("acme/app", "main", async () => {
          active += 1;
          most = Math.max(most, active);
          for (let t = 0; t < 5; t++) await tick();
          order.push(i);
          active -= 1;
          return i * 10;
        }),
      );
      expect(await Promise.all(holders)).toEqual([0, 10, 20, 30, 40]);
      expect(most).toBe(1);
      expect(order).toEqual([0, 1, 2, 3, 4]);
    });

    it("lets another branch or repository deliver while one branch's lock is held", async () => {
      const held = deferred();
      let entered = false;
      const first = store.locks.withDeliveryLock("acme/app", "main", async () => {
        entered = true;
        await held.promise;
      });
      while (!entered) await tick();
      // Would never settle if these waited for the held lock.
      expect(await store.locks.withDeliveryLock("acme/app", "dev", async () => "dev")).toBe("dev");
      expect(await store.locks.withDeliveryLock("acme/lib", "main", async () => "lib")).toBe("lib");
      held.resolve();
      await first;
    });

    it("lets go of the lock when the work fails, and rejects with the work's error", async () => {
      const failing = store.locks.withDeliveryLock("acme/app", "main", async () => {
        throw new Error("delivery broke");
      });
      const next = store.locks.withDeliveryLock("acme/app", "main", async () => "next");
      await expect(failing).rejects.toThrow("delivery broke");
      expect(await next).toBe("next");
    });
  });
}
