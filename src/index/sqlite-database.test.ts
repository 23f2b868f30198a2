import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteDatabase, PAGE_CACHE_KIB, PAGE_SIZE_BYTES } from "./sqlite-database.js";

describe("openSqliteDatabase", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lore-sqlite-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("creates a new file with 8 KB pages in WAL mode and an 8 MB page cache", () => {
    const db = openSqliteDatabase(join(dir, "new.db"));
    db.exec("CREATE TABLE t (x)");
    expect(PAGE_SIZE_BYTES).toBe(8192);
    expect(db.pragma("page_size", { simple: true })).toBe(8192);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("cache_size", { simple: true })).toBe(-PAGE_CACHE_KIB);
    expect(PAGE_CACHE_KIB).toBe(8192);
    db.close();
  });

  it("keeps the page size of an existing file", () => {
    const file = join(dir, "old.db");
    const raw = new Database(file);
    raw.pragma("page_size = 4096");
    raw.pragma("journal_mode = WAL");
    raw.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)");
    raw.close();
    const db = openSqliteDatabase(file);
    expect(db.pragma("page_size", { simple: true })).toBe(4096);
    expect(db.prepare("SELECT x FROM t").pluck().get()).toBe(1);
    db.close();
  });
});
