import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  PG_SKIP_REASON,
  TEST_PG_URL,
  type TestDatabase,
} from "../../test/helpers/pg-test-database.js";
import { openServerStore, openSharedIndexStore } from "./open-server.js";

describe("openServerStore", () => {
  const dir = mkdtempSync(join(tmpdir(), "lore-open-server-"));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("creates the data folder 0700 and server.db with its WAL 0600, closed to others", async () => {
    const data = join(dir, "a", "data");
    const store = await openServerStore(data);
    await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(join(data, "server.db")).mode & 0o777).toBe(0o600);
    expect(statSync(join(data, "server.db-wal")).mode & 0o077).toBe(0);
    await store.close();
    const again = await openServerStore(data);
    expect(await again.countUsers()).toBe(1);
    await again.close();
  });
});

describe("openSharedIndexStore", () => {
  it("is none without [server] database: the server counts in its SQLite index", async () => {
    expect(await openSharedIndexStore(undefined)).toBeUndefined();
  });

  it("refuses a PostgreSQL that cannot be reached with database_unavailable, never the password", async () => {
    const error = await openSharedIndexStore("postgres://u:pw-secret@127.0.0.1:1/x").then(
      () => undefined,
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(error?.code).toBe("database_unavailable");
    expect(error?.message).not.toContain("pw-secret");
  });
});

if (TEST_PG_URL === undefined) {
  describe.skip(PG_SKIP_REASON, () => {
    it("opens the index store on PostgreSQL", () => undefined);
  });
} else {
  describe("openSharedIndexStore on PostgreSQL", () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase("shared");
    });
    afterAll(async () => {
      await db?.drop();
    });

    it("opens the index store there: a count is in PostgreSQL's counters table", async () => {
      const schema = await db.schema();
      const store = await openSharedIndexStore(schema.url);
      expect(store).toBeDefined();
      try {
        await store?.counters.recordShown("anna", [{ repo: "acme/app", id: "e1" }], 1_000);
      } finally {
        await store?.close();
      }
      const rows = await db.sql(`SELECT user_name, shown::int FROM ${schema.name}.counters`);
      expect(rows.rows).toEqual([{ user_name: "anna", shown: 1 }]);
    });
  });
}
