import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { indexFolder } from "../../services/indexing/index-folder.js";
import { recall } from "../../services/knowledge/recall.js";
import { search } from "../../services/knowledge/search.js";
import { type EntryIndex, openIndex } from "../entry-index.js";
import { SCHEMA_VERSION } from "../migrate.js";
import { openSqliteDatabase } from "../sqlite-database.js";

const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const WORDS = ["deploy", "rollback", "migration", "cache", "queue", "откат", "ёлка", "журнал"];
const QUERIES = ["deploy", "rollback cache", "migration", "откат", "журналы", "body"];

function entry(n: number, version = 0, entryId = id(n)): string {
  const a = WORDS[(n + version) % WORDS.length] as string;
  const b = WORDS[(n * 3 + version) % WORDS.length] as string;
  const filler = "Some body text. ".repeat(1 + ((n * 7 + version) % 11));
  return `---\nid: ${entryId}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [${a}]\n---\n\n${a} notes ${n}: about ${b}.\n\n${filler}${b} ${a} ${b}.\n`;
}

function answers(index: EntryIndex) {
  return QUERIES.map((query) => ({
    search: search(index, { query, limit: 50 }).hits.map((h) => [h.id, h.path, h.score]),
    recall: recall(index, { query, user: "u", limit: 50, now: 1 }).hits.map((h) => [
      h.id,
      h.path,
      h.score,
      h.why,
    ]),
  }));
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-migrate-011-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("migration 11 on an existing version-10 index", () => {
  it("flags its skipped files, keeps its answers, and stays equal to a fresh index as it changes", async () => {
    const folder = join(dir, "repo");
    const knowledge = join(folder, ".gitriver", "knowledge");
    mkdirSync(knowledge, { recursive: true });
    const write = (name: string, text: string) => writeFileSync(join(knowledge, name), text);
    for (let n = 1; n <= 30; n++) write(`e${n}.md`, entry(n));
    write("wrong.md", "---\nid: not-an-id\n---\n\nNo entry.\n");
    write("z-copy.md", entry(31, 0, id(5))); // a duplicate id: skipped

    const file = join(dir, "old.db");
    const old = openIndex(file);
    await indexFolder({ index: old, dir: folder, repoName: "acme/app" });
    const skippedBefore = old.skippedReports("acme/app");
    expect([...skippedBefore.keys()].sort()).toEqual([
      ".gitriver/knowledge/wrong.md",
      ".gitriver/knowledge/z-copy.md",
    ]);
    old.close();
    // Back to schema 10: no flag, no stems (and none of the later migrations).
    const db = openSqliteDatabase(file);
    db.exec(
      "DROP INDEX files_skipped; ALTER TABLE files DROP COLUMN skipped; DROP TABLE stems; DROP INDEX receipts_by_public_id; ALTER TABLE receipts DROP COLUMN public_id;",
    );
    db.pragma("user_version = 10");
    db.close();

    const migrated = openIndex(file);
    expect(migrated.withDatabase((d) => d.pragma("user_version", { simple: true }))).toBe(
      SCHEMA_VERSION,
    );
    expect(migrated.skippedReports("acme/app")).toEqual(skippedBefore);
    const flagged = migrated.withDatabase((d) =>
      d.prepare("SELECT path FROM files WHERE skipped = 1 ORDER BY path").pluck().all(),
    );
    expect(flagged).toEqual([...skippedBefore.keys()].sort());
    const fresh = openIndex(join(dir, "fresh.db"));
    await indexFolder({ index: fresh, dir: folder, repoName: "acme/app" });
    const expected = answers(fresh);
    expect(expected[0]?.search.length).toBeGreaterThan(0);
    expect(answers(migrated)).toEqual(expected);
    fresh.close();

    // Changed after the migration: updates, deletes, the duplicate's id freed.
    for (let n = 1; n <= 8; n++) write(`e${n}.md`, entry(n, 1));
    for (let n = 9; n <= 12; n++) rmSync(join(knowledge, `e${n}.md`));
    rmSync(join(knowledge, "e5.md"));
    await indexFolder({ index: migrated, dir: folder, repoName: "acme/app" });
    const again = openIndex(join(dir, "fresh-again.db"));
    await indexFolder({ index: again, dir: folder, repoName: "acme/app" });
    expect([...migrated.skippedReports("acme/app").keys()]).toEqual([
      ".gitriver/knowledge/wrong.md",
    ]);
    expect(answers(migrated)).toEqual(answers(again));
    again.close();
    migrated.close();
  });
});
