import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  PG_SKIP_REASON,
  TEST_PG_URL,
  type TestDatabase,
  withDatabase,
} from "../../../test/helpers/pg-test-database.js";
import {
  describeServerStoreContract,
  refusal,
} from "../../../test/helpers/server-store-contract.js";
import { SERVER_MIGRATIONS } from "./migrations.js";
import { PG_SERVER_MIGRATIONS, SERVER_TABLES } from "./pg-migrations.js";
import {
  CONNECT_TIMEOUT_MS,
  createPool,
  migratePgServerSchema,
  openPgServerStore,
  POOL_WAIT_MS,
} from "./pg-server-store.js";

if (TEST_PG_URL === undefined) {
  describe.skip(PG_SKIP_REASON, () => {
    it("runs the server store contract on PostgreSQL", () => undefined);
  });
} else {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase("store");
  });
  afterAll(async () => {
    await db?.drop();
  });

  // The engine-neutral cases: the same suite SQLite's store runs, each case in a fresh schema.
  let current: { name: string; url: string } | undefined;
  describeServerStoreContract("PostgreSQL", {
    async fresh() {
      current = await db.schema();
    },
    open: () => openPgServerStore((current as { url: string }).url),
    async dispose() {
      if (current !== undefined) await db.sql(`DROP SCHEMA ${current.name} CASCADE`);
      current = undefined;
    },
  });

  describe("PostgreSQL server store: the schema", () => {
    it("has as many migrations as SQLite's and the same tables, at the latest version", async () => {
      expect(PG_SERVER_MIGRATIONS.length).toBe(SERVER_MIGRATIONS.length);
      const schema = await db.schema();
      const store = await openPgServerStore(schema.url);
      await store.close();
      const tables = await db.sql(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
        [schema.name],
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        [...SERVER_TABLES, "server_schema"].sort(),
      );
      const version = await db.sql(`SELECT version FROM ${schema.name}.server_schema`);
      expect(version.rows).toEqual([{ version: SERVER_MIGRATIONS.length }]);
    });

    it("migrates once: again is a no-op, and eight servers starting at once migrate it once", async () => {
      const schema = await db.schema();
      const stores = await Promise.all(
        Array.from({ length: 8 }, () => openPgServerStore(schema.url, { poolSize: 2 })),
      );
      await stores[0]?.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      for (const store of stores) expect(await store.countUsers()).toBe(1);
      for (const store of stores) await store.close();
      const version = await db.sql(`SELECT version FROM ${schema.name}.server_schema`);
      expect(version.rows).toEqual([{ version: SERVER_MIGRATIONS.length }]);
      const pool = createPool(schema.url, 1);
      expect(await migratePgServerSchema(pool)).toBe(SERVER_MIGRATIONS.length);
      await pool.end();
    });

    it(
      "a query waits for a busy pool's connection longer than a connection attempt may take",
      async () => {
        expect(POOL_WAIT_MS).toBeGreaterThan(CONNECT_TIMEOUT_MS);
        const schema = await db.schema();
        const pool = createPool(schema.url, 1);
        try {
          const held = await pool.connect();
          const waiting = pool.query<{ n: number }>("SELECT 1 AS n");
          // The only connection stays in use past the connect timeout; the query still gets it.
          await new Promise((r) => setTimeout(r, CONNECT_TIMEOUT_MS + 1000));
          expect(pool.waitingCount).toBe(1);
          held.release();
          expect((await waiting).rows).toEqual([{ n: 1 }]);
        } finally {
          await pool.end();
        }
      },
      CONNECT_TIMEOUT_MS + 20_000,
    );

    it("refuses a schema written by a newer Lore", async () => {
      const schema = await db.schema();
      await (await openPgServerStore(schema.url)).close();
      await db.sql(`UPDATE ${schema.name}.server_schema SET version = version + 1`);
      const error = await refusal(openPgServerStore(schema.url));
      expect(error.code).toBe("index_failed");
      expect(error.message).toContain(
        `the server database has schema version ${SERVER_MIGRATIONS.length + 1}, newer than this Lore`,
      );
    });

    it("leaves the version it started from when a migration fails", async () => {
      const schema = await db.schema();
      // A table in the way of migration 1 makes it fail.
      await db.sql(`CREATE TABLE ${schema.name}.users (x int)`);
      const error = await refusal(openPgServerStore(schema.url));
      expect(error.code).toBe("index_failed");
      expect(error.message).toContain("migration of the server database to schema version 1");
      const left = await db.sql(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'server_schema'",
        [schema.name],
      );
      expect(left.rows).toEqual([{ n: 0 }]);
    });
  });

  describe("PostgreSQL server store: a database that cannot be reached", () => {
    it("answers database_unavailable (503) for a server that is not there, without the password", async () => {
      const error = await refusal(openPgServerStore("postgres://lore:s3cret-pw@127.0.0.1:1/lore"));
      expect(error.code).toBe("database_unavailable");
      expect(error.message).toContain("ECONNREFUSED");
      expect(JSON.stringify({ m: error.message, d: error.data })).not.toContain("s3cret-pw");
    });

    it("answers database_unavailable for a database that does not exist, naming it", async () => {
      const error = await refusal(
        openPgServerStore(withDatabase(TEST_PG_URL as string, "lore_no_such_db")),
      );
      expect(error.code).toBe("database_unavailable");
      expect(error.message).toContain("lore_no_such_db");
      expect(error.data.pg).toBe("3D000");
    });

    it("answers database_unavailable once the store's database is gone", async () => {
      const other = await createTestDatabase("gone");
      const store = await openPgServerStore(other.url);
      await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      await other.drop(); // WITH (FORCE): ends the store's connections
      expect((await refusal(store.getUser("anna"))).code).toBe("database_unavailable");
      await store.close();
    });
  });
}
