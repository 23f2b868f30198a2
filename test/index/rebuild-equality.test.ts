import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { entryText } from "../../src/core/entry/index-document.js";
import { type EntryIndex, openIndex } from "../../src/index/entry-index.js";
import { SCHEMA_VERSION } from "../../src/index/migrate.js";
import { MIGRATION_001 } from "../../src/index/migrations/001-initial.js";
import { migration002 } from "../../src/index/migrations/002-fts-delete.js";
import { SUMMARY_WEIGHT } from "../../src/index/text-search.js";
import { indexFolder } from "../../src/services/indexing/index-folder.js";
import { recall } from "../../src/services/knowledge/recall.js";
import { search } from "../../src/services/knowledge/search.js";

/**
 * Defect B (the index: "deleting the database and re-indexing gives the same
 * answers"): an index brought up to date through inserts, updates, deletes and renames must
 * rank and score exactly like a fresh index of the same final files.
 */

const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const WORDS = ["deploy", "rollback", "migration", "cache", "queue", "schema", "откат", "ёлка"];
const QUERIES = ["deploy", "rollback cache", "migration", "queue schema", "откат", "елка", "body"];

/** An entry whose text varies in length and words with `n` and `version`. */
function entry(n: number, version = 0): string {
  const a = WORDS[(n + version) % WORDS.length] as string;
  const b = WORDS[(n * 3 + version) % WORDS.length] as string;
  const filler = "Some body text. ".repeat(1 + ((n * 7 + version) % 13));
  return `---\nid: ${id(n)}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [${a}]\n---\n\n${a} notes ${n}: about ${b}.\n\n${filler}${b} ${a} ${b}.\n`;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-rebuild-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Entry id → raw `-bm25` of every entry matching `word` (file ids differ between indexes). */
function rawScores(dbFile: string, word: string): Record<string, number> {
  const db = new Database(dbFile, { readonly: true });
  try {
    const fts = entryText("", word).bodyText;
    const rows = db
      .prepare(
        `SELECT e.id, -bm25(entry_text, ${SUMMARY_WEIGHT}.0, 1.0) FROM entry_text
         JOIN entries e ON e.file_id = entry_text.rowid WHERE entry_text MATCH ?`,
      )
      .raw()
      .all(`"${fts}"`) as [string, number][];
    return Object.fromEntries(rows.sort((x, y) => (x[0] < y[0] ? -1 : 1)));
  } finally {
    db.close();
  }
}

/** Every answer compared: search and recall pages (ids, paths, scores) and raw bm25. */
function answers(index: EntryIndex, dbFile: string) {
  return QUERIES.map((query) => ({
    search: search(index, { query, limit: 50 }).hits.map((h) => [h.id, h.path, h.score]),
    recall: recall(index, { query, user: "u", limit: 50, now: 1 }).hits.map((h) => [
      h.id,
      h.path,
      h.score,
      h.why,
    ]),
    raw: rawScores(dbFile, query.split(" ")[0] as string),
  }));
}

describe("an updated index answers like a fresh one", () => {
  it("after inserts, updates, deletes and renames: same hits, exactly the same scores", async () => {
    const folder = join(dir, "repo");
    const knowledge = join(folder, ".gitriver", "knowledge");
    mkdirSync(knowledge, { recursive: true });
    const write = (name: string, n: number, version = 0) =>
      writeFileSync(join(knowledge, name), entry(n, version));
    for (let n = 1; n <= 60; n++) write(`e${n}.md`, n);

    const updatedFile = join(dir, "updated.db");
    const updated = openIndex(updatedFile);
    const run = () => indexFolder({ index: updated, dir: folder, repoName: "acme/app" });
    await run();
    // Round 1: update 10, delete 10, rename 5, add 5.
    for (let n = 1; n <= 10; n++) write(`e${n}.md`, n, 1);
    for (let n = 11; n <= 20; n++) rmSync(join(knowledge, `e${n}.md`));
    for (let n = 21; n <= 25; n++)
      renameSync(join(knowledge, `e${n}.md`), join(knowledge, `r${n}.md`));
    for (let n = 61; n <= 65; n++) write(`e${n}.md`, n);
    await run();
    // Round 2: update some again, delete an added one, bring a deleted id back elsewhere.
    for (let n = 1; n <= 5; n++) write(`e${n}.md`, n, 2);
    rmSync(join(knowledge, "e61.md"));
    write("back-11.md", 11, 3);
    await run();

    const freshFile = join(dir, "fresh.db");
    const fresh = openIndex(freshFile);
    await indexFolder({ index: fresh, dir: folder, repoName: "acme/app" });
    expect(updated.entryCount()).toBe(fresh.entryCount());
    const expected = answers(fresh, freshFile);
    expect(expected[0]?.search.length).toBeGreaterThan(0);
    expect(answers(updated, updatedFile)).toEqual(expected);
    updated.close();
    fresh.close();
  });

  it("10 inserts, 5 deletes, 1 insert count 6 rows, like 6 inserts", () => {
    const body = (n: number) => `Entry ${n} about deploys${" and more".repeat(n)}.`;
    const make = (file: string, steps: (index: EntryIndex) => void) => {
      const index = openIndex(join(dir, file));
      steps(index);
      index.close();
      return join(dir, file);
    };
    const put = (index: EntryIndex, n: number) =>
      index.putFile({
        repo: "r",
        path: `e${n}.md`,
        blobSha: String(n).padStart(40, "0"),
        diagnostics: [],
        parsed: {
          entry: {
            id: id(n),
            contract: [],
            origin: "human",
            links: [],
            unknownKeys: {},
            body: body(n),
          },
          summary: body(n),
          reachable: false,
          unmetMechanisms: [],
        },
      });
    const churned = make("churned.db", (index) => {
      for (let n = 1; n <= 10; n++) put(index, n);
      for (let n = 1; n <= 5; n++) index.deleteFile("r", `e${n}.md`);
      put(index, 11);
    });
    const direct = make("direct.db", (index) => {
      for (let n = 6; n <= 11; n++) put(index, n);
    });
    expect(rawScores(churned, "deploys")).toEqual(rawScores(direct, "deploys"));
  });
});

describe("migration 2 on an existing database", () => {
  it("rebuilds the full-text table from stored entries: scores as a fresh index", async () => {
    const folder = join(dir, "repo");
    const knowledge = join(folder, ".gitriver", "knowledge");
    mkdirSync(knowledge, { recursive: true });
    for (let n = 1; n <= 20; n++) writeFileSync(join(knowledge, `e${n}.md`), entry(n));

    // A version-1 database holding the 20 entries, with stale FTS5 counts from churn.
    const oldFile = join(dir, "old.db");
    const fresh = openIndex(join(dir, "fresh.db"));
    await indexFolder({ index: fresh, dir: folder, repoName: "acme/app" });
    fresh.close();
    const old = new Database(oldFile);
    old.exec(MIGRATION_001);
    old.pragma("user_version = 1");
    old.exec(`ATTACH '${join(dir, "fresh.db")}' AS src;
      INSERT INTO files SELECT file_id, repo, path, blob_sha, report FROM src.files;
      INSERT INTO entries SELECT file_id, id, origin, links, summary, summary_override, body,
        contract, unknown_keys, reachable, unmet_mechanisms FROM src.entries;
      INSERT INTO contract_words SELECT * FROM src.contract_words;
      INSERT INTO contract_tools SELECT * FROM src.contract_tools;`);
    const insertText = old.prepare(
      "INSERT INTO entry_text (rowid, summary, body) VALUES (?, ?, ?)",
    );
    const rows = old.prepare("SELECT file_id, summary, body FROM entries").raw().all() as [
      number,
      string,
      string,
    ][];
    for (const [fileId, summary, text] of rows) {
      const t = entryText(summary, text);
      insertText.run(fileId + 1000, "deploy", "deploy deploy");
      old.prepare("DELETE FROM entry_text WHERE rowid = ?").run(fileId + 1000);
      insertText.run(fileId, t.summaryText, t.bodyText);
    }
    old.exec("DETACH src");
    old.close();
    expect(rawScores(oldFile, "deploy")).not.toEqual(rawScores(join(dir, "fresh.db"), "deploy"));

    // Migration 2 alone (later migrations rebuild the derived tables from git anyway).
    const db = new Database(oldFile);
    db.transaction(() => migration002(db))();
    db.pragma("user_version = 2");
    db.close();
    expect(rawScores(oldFile, "deploy")).toEqual(rawScores(join(dir, "fresh.db"), "deploy"));
    const migrated = openIndex(oldFile);
    expect(migrated.withDatabase((d) => d.pragma("user_version", { simple: true }))).toBe(
      SCHEMA_VERSION,
    );
    migrated.close();
  });
});
