/**
 * The index store on PostgreSQL (`LORE_TEST_PG_URL`: a throw-away cluster, `.ci/run` starts
 * one; skipped with the reason without it): the engine-neutral contract, each case in a
 * fresh schema and each "server" a store (a pool) of its own; then what is PostgreSQL's own
 * — the schema and its migration by several servers at once, counts from several servers
 * over one database, and the delivery lock across servers.
 */
import { setImmediate as tick } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeIndexStoreContract } from "../../../test/helpers/index-store-contract.js";
import {
  createTestDatabase,
  PG_SKIP_REASON,
  TEST_PG_URL,
  type TestDatabase,
} from "../../../test/helpers/pg-test-database.js";
import { createPool } from "../server-store/pg-server-store.js";
import { PG_INDEX_MIGRATIONS, PG_INDEX_TABLES } from "./pg-index-migrations.js";
import { migratePgIndexSchema, openPgIndexStore } from "./pg-index-store.js";
import { PG_LOCK_CLASS, pgLockKey } from "./pg-store-locks.js";
import { deliveryLockName } from "./process-locks.js";

if (TEST_PG_URL === undefined) {
  describe.skip(PG_SKIP_REASON, () => {
    it("runs the index store contract on PostgreSQL", () => undefined);
  });
} else {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase("index");
  });
  afterAll(async () => {
    await db?.drop();
  });

  let current: { name: string; url: string } | undefined;
  describeIndexStoreContract("PostgreSQL", {
    async fresh() {
      current = await db.schema();
    },
    open: () => openPgIndexStore((current as { url: string }).url, { poolSize: 4 }),
    async dispose() {
      if (current !== undefined) await db.sql(`DROP SCHEMA ${current.name} CASCADE`);
      current = undefined;
    },
  });

  /** Advisory locks of Lore's class in the test database: held, and waited for. */
  async function deliveryLocks(schema: string): Promise<{ granted: number; waiting: number }> {
    void schema;
    const found = await db.sql(
      `SELECT granted, count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
       WHERE l.locktype = 'advisory' AND l.classid = $1::bigint::oid AND d.datname = current_database()
       GROUP BY granted`,
      [PG_LOCK_CLASS],
    );
    const of = (granted: boolean) =>
      (found.rows.find((r) => r.granted === granted)?.n as number | undefined) ?? 0;
    return { granted: of(true), waiting: of(false) };
  }

  describe("index store on PostgreSQL: what is its own", () => {
    it("has its tables at the latest version; eight servers starting at once migrate once", async () => {
      const schema = await db.schema();
      const stores = await Promise.all(
        Array.from({ length: 8 }, () => openPgIndexStore(schema.url, { poolSize: 1 })),
      );
      for (const store of stores) await store.close();
      const tables = await db.sql(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
        [schema.name],
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        [...PG_INDEX_TABLES, "index_schema"].sort(),
      );
      const version = await db.sql(`SELECT version FROM ${schema.name}.index_schema`);
      expect(version.rows).toEqual([{ version: PG_INDEX_MIGRATIONS.length }]);
      const pool = createPool(schema.url, 1);
      expect(await migratePgIndexSchema(pool)).toBe(PG_INDEX_MIGRATIONS.length);
      await pool.end();
    });

    it("counts exactly from three servers over one database: 3 × 200 concurrent shown", async () => {
      const schema = await db.schema();
      const servers = await Promise.all(
        Array.from({ length: 3 }, () => openPgIndexStore(schema.url, { poolSize: 4 })),
      );
      try {
        const keys = ["a", "b", "c", "d"].map((id) => ({ repo: "acme/app", id }));
        const calls: Promise<void>[] = [];
        for (let i = 0; i < 200; i++) {
          for (const [n, server] of servers.entries()) {
            // Each call a different order of the same rows: locks taken in the store's one
            // order never deadlock.
            const batch = i % 2 === 0 ? keys : [...keys].reverse();
            calls.push(server.counters.recordShown(`user${i % 2}`, batch, 1_000 + n));
            server.counters.countShown("queued", keys.slice(n), 2_000);
          }
        }
        await Promise.all(calls);
        await Promise.all(servers.map((s) => s.counters.flush()));
        const rows = await (servers[0] as (typeof servers)[number]).counters.list();
        expect(rows.map((r) => `${r.user} ${r.entryId} ${r.shown}`)).toEqual([
          "queued a 200",
          "queued b 400",
          "queued c 600",
          "queued d 600",
          "user0 a 300",
          "user0 b 300",
          "user0 c 300",
          "user0 d 300",
          "user1 a 300",
          "user1 b 300",
          "user1 c 300",
          "user1 d 300",
        ]);
        const days = await (servers[2] as (typeof servers)[number]).counters.days(
          "acme/app",
          "1970-01-01",
          "1970-01-01",
        );
        expect(days).toEqual([{ day: "1970-01-01", shown: 600 * 4 + 1800, read: 0 }]);
      } finally {
        for (const server of servers) await server.close();
      }
    });

    it("serialises one branch's delivery across two servers, and lets go when a holder's connection dies", async () => {
      const schema = await db.schema();
      const one = await openPgIndexStore(schema.url, { poolSize: 1 });
      const two = await openPgIndexStore(schema.url, { poolSize: 1 });
      try {
        expect(await deliveryLocks(schema.name)).toEqual({ granted: 0, waiting: 0 });
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let oneIn = false;
        const first = one.locks.withDeliveryLock("acme/app", "main", async () => {
          oneIn = true;
          await held;
          return "one";
        });
        while (!oneIn) await tick();
        let twoIn = false;
        const second = two.locks.withDeliveryLock("acme/app", "main", async () => {
          twoIn = true;
          return "two";
        });
        // The second server waits in the database: one lock granted, one waited for.
        while ((await deliveryLocks(schema.name)).waiting === 0) await tick();
        expect(twoIn).toBe(false);
        release();
        expect(await first).toBe("one");
        expect(await second).toBe("two");
        expect(await deliveryLocks(schema.name)).toEqual({ granted: 0, waiting: 0 });

        // A server killed mid-delivery: its session ends and the lock goes with it.
        let stuckIn = false;
        const stuck = one.locks.withDeliveryLock("acme/app", "main", async () => {
          stuckIn = true;
          await new Promise(() => undefined);
        });
        void stuck;
        while (!stuckIn) await tick();
        const key = pgLockKey(deliveryLockName("acme/app", "main"));
        await db.sql(
          `SELECT pg_terminate_backend(pid) FROM pg_locks
           WHERE locktype = 'advisory' AND granted AND classid = $1::bigint::oid AND objid = ($2::int)::bigint::oid`,
          [PG_LOCK_CLASS, key],
        );
        expect(await two.locks.withDeliveryLock("acme/app", "main", async () => "after")).toBe(
          "after",
        );
      } finally {
        await one.close();
        await two.close();
      }
    });

    it("answers database_unavailable when the database cannot be reached", async () => {
      const url = `${TEST_PG_URL}`.replace(/\/[^/?]*(\?|$)/, "/lore_no_such_db$1");
      await expect(openPgIndexStore(url)).rejects.toMatchObject({ code: "database_unavailable" });
    });
  });
}
