import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LoreError } from "../core/errors/lore-error.js";
import { openIndex } from "./entry-index.js";
import { MIGRATIONS, migrate, SCHEMA_VERSION } from "./migrate.js";
import { openSqliteDatabase } from "./sqlite-database.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-migrate-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("migrate", () => {
  it("creates the schema on a fresh file and sets user_version", () => {
    const db = openSqliteDatabase(join(dir, "index.db"));
    expect(migrate(db)).toBe(0);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
    for (const name of [
      "files",
      "entries",
      "entry_text",
      "contract_words",
      "contract_tools",
      "counters",
      "entry_ages",
    ]) {
      expect(tables).toContain(name);
    }
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    db.close();
  });

  it("does nothing on re-open and keeps the data", () => {
    const file = join(dir, "index.db");
    const index = openIndex(file);
    index.putFile({ repo: "r", path: "a.md", blobSha: "1".repeat(40), diagnostics: [] });
    index.close();
    const db = openSqliteDatabase(file);
    expect(migrate(db)).toBe(SCHEMA_VERSION);
    db.close();
    const again = openIndex(file);
    expect(again.listFiles("r")).toEqual(new Map([["a.md", "1".repeat(40)]]));
    again.close();
  });

  it("refuses a file written by a newer schema", () => {
    const file = join(dir, "index.db");
    const db = openSqliteDatabase(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openIndex(file)).toThrow(LoreError);
    try {
      openIndex(file);
    } catch (error) {
      expect((error as LoreError).code).toBe("index_failed");
    }
  });
});
