import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stemToken } from "../../core/text/stem.js";
import { MIGRATIONS } from "../migrate.js";
import { openSqliteDatabase } from "../sqlite-database.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-migrate-003-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ID = "0190f5a4-3b2c-7d10-8a11-000000000001";

describe("migration 3: the analysed tables rebuilt with the word keys", () => {
  it("re-analyses a version-2 index: its old stems give way to keys every form fires", () => {
    const file = join(dir, "index.db");
    const db = openSqliteDatabase(file);
    db.transaction(() => {
      for (const migration of MIGRATIONS.slice(0, 2)) {
        if (typeof migration === "string") db.exec(migration);
        else migration(db);
      }
      db.pragma("user_version = 2");
      db.prepare("INSERT INTO files VALUES (1, 'r', 'a.md', ?, '[]')").run("a".repeat(40));
      const contract = JSON.stringify([{ mechanism: "on_query", params: { words: ["деплой"] } }]);
      db.prepare(
        `INSERT INTO entries VALUES (1, ?, 'human', '[]', 'Деплой по пятницам', NULL,
           'Деплой по пятницам запрещён.', ?, '{}', 1, '[]')`,
      ).run(ID, contract);
      // What version 2 stored: Snowball stems, `деплой` → `депл`.
      db.prepare("INSERT INTO entry_text (rowid, summary, body) VALUES (1, ?, ?)").run(
        "депл по пятниц",
        "депл по пятниц запрещ xoldstem",
      );
      db.prepare("INSERT INTO contract_words VALUES ('депл', 1, ?, 'деплой', NULL)").run(ID);
    })();
    // Migration 3 alone: migration 4 drops the derived tables after it (they are rebuilt
    // from git), so its effect is read straight from the tables it refills.
    db.transaction(() => {
      const migration = MIGRATIONS[2];
      if (typeof migration === "string") db.exec(migration);
      else migration?.(db);
      db.pragma("user_version = 3");
    })();
    const key = stemToken("деплой");
    for (const form of ["деплоя", "деплоем", "деплои", "деплоев"]) {
      expect(stemToken(form)).toBe(key);
    }
    const words = db.prepare("SELECT first_stem, word FROM contract_words").all();
    expect(words).toEqual([{ first_stem: key, word: "деплой" }]);
    const text = db
      .prepare("SELECT rowid FROM entry_text WHERE entry_text MATCH ?")
      .pluck()
      .all(`"${key}"`);
    expect(text).toEqual([1]);
    // What version 2 stored is gone: the table was refilled, not appended to.
    const stale = db
      .prepare("SELECT rowid FROM entry_text WHERE entry_text MATCH ?")
      .pluck()
      .all('"xoldstem"');
    expect(stale).toEqual([]);
    db.close();
  });
});
