import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeServerStoreContract } from "../../../test/helpers/server-store-contract.js";
import { describeError } from "../../cli/print-error.js";
import type { LoreError } from "../../core/errors/lore-error.js";
import type { ServerStore } from "../../ports/server-store.js";
import { SERVER_MIGRATIONS } from "./migrations.js";
import { openSqliteServerStore, SERVER_DB_FILE } from "./sqlite-server-store.js";

// The engine-neutral cases: the same suite PostgreSQL's store runs (pg-server-store.test.ts).
let contractDir = "";
describeServerStoreContract("SQLite", {
  async fresh() {
    contractDir = mkdtempSync(join(tmpdir(), "lore-server-store-"));
  },
  async open() {
    return openSqliteServerStore(join(contractDir, SERVER_DB_FILE));
  },
  async dispose() {
    rmSync(contractDir, { recursive: true, force: true });
  },
});

describe("SQLite server store: the file", () => {
  let dir: string;
  let file: string;
  let store: ServerStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lore-server-store-"));
    file = join(dir, SERVER_DB_FILE);
    store = openSqliteServerStore(file);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates a WAL file with foreign keys, a busy timeout and the latest schema version", () => {
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw.pragma("user_version", { simple: true })).toBe(SERVER_MIGRATIONS.length);
    const tables = (
      raw
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    expect(tables).toEqual([
      "branch_rule_pushers",
      "branch_rules",
      "draft_limits",
      "grants",
      "groups",
      "members",
      "merge_requests",
      "mr_approvals",
      "rate_windows",
      "repos",
      "ssh_keys",
      "tokens",
      "users",
      "web_sessions",
    ]);
    raw.close();
  });

  it("refuses a file written by a newer Lore", async () => {
    await store.close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SERVER_MIGRATIONS.length + 1}`);
    raw.close();
    let error: LoreError | undefined;
    try {
      store = openSqliteServerStore(file);
    } catch (caught) {
      error = caught as LoreError;
    }
    expect(error?.code).toBe("index_failed");
    expect(error?.message).toContain(
      `the server database has schema version ${SERVER_MIGRATIONS.length + 1}`,
    );
    store = openSqliteServerStore(":memory:");
  });
});

describe("a damaged server database", () => {
  it("is refused with advice to restore it, never to delete it", () => {
    const dir = mkdtempSync(join(tmpdir(), "lore-server-store-bad-"));
    const file = join(dir, SERVER_DB_FILE);
    writeFileSync(file, "this is not a database, it is a text file of some length".repeat(100));
    let caught: unknown;
    try {
      openSqliteServerStore(file);
    } catch (error) {
      caught = error;
    }
    expect((caught as LoreError).code).toBe("index_failed");
    expect(describeError(caught, "en").line).toBe(
      `lore: the index failed: the server database ${file} is damaged or not a database; restore it from a backup (it holds the users, tokens and grants: do not delete it) [index_failed]`,
    );
    expect((caught as LoreError).data.sqlite).toBe("SQLITE_NOTADB");
    rmSync(dir, { recursive: true, force: true });
  });
});
