import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recall } from "../../services/recall.js";
import { openIndex } from "../entry-index.js";
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
        "депл по пятниц запрещ",
      );
      db.prepare("INSERT INTO contract_words VALUES ('депл', 1, ?, 'деплой', NULL)").run(ID);
    })();
    db.close();

    const index = openIndex(file);
    try {
      for (const query of ["деплоя", "деплоем", "деплои", "деплоев", "пятницу"]) {
        const hits = recall(index, { query, user: "u" }).hits;
        expect(hits.map((hit) => hit.id)).toEqual([ID]);
      }
      const hit = recall(index, { query: "деплоев", user: "u" }).hits[0];
      expect(hit?.why).toEqual([{ kind: "on_query", word: "деплой" }, { kind: "text" }]);
    } finally {
      index.close();
    }
  });
});
