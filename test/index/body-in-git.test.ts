import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openGitRepo } from "../../src/adapters/git-cli/git-cli-repo.js";
import { entryText } from "../../src/core/entry/index-document.js";
import { type EntryIndex, openIndex } from "../../src/index/entry-index.js";
import { SUMMARY_WEIGHT } from "../../src/index/text-search.js";
import { indexFolder } from "../../src/services/indexing/index-folder.js";
import { indexRepository } from "../../src/services/indexing/index-repo.js";
import { getEntry } from "../../src/services/knowledge/get-entry.js";
import { recall } from "../../src/services/knowledge/recall.js";
import { search } from "../../src/services/knowledge/search.js";
import { makeRepo, type RepoFiles, type TestRepo } from "../helpers/make-repo.js";

/**
 * The body of an entry indexed from a git commit is not stored in the index (migration 5):
 * git holds it, and the index reads it back by blob sha for `get` and for FTS5's exact
 * delete. An index kept up to date through commits must still answer like a fresh one.
 */

const K = ".gitriver/knowledge";
const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const WORDS = ["deploy", "rollback", "migration", "cache", "queue", "schema", "откат"];
const QUERIES = ["deploy", "rollback cache", "migration", "queue schema", "откат", "body"];

/** The body of entry `n` at `version`: varies in length and words. */
function body(n: number, version = 0): string {
  const a = WORDS[(n + version) % WORDS.length] as string;
  const b = WORDS[(n * 3 + version) % WORDS.length] as string;
  const filler = "Some body text. ".repeat(1 + ((n * 7 + version) % 13));
  return `${a} notes ${n}: about ${b}.\n\n${filler}${b} ${a} ${b}.\n`;
}

/** An entry file; CRLF line ends for odd `n` (the body read back must match the parse). */
function entry(n: number, version = 0): string {
  const a = WORDS[(n + version) % WORDS.length] as string;
  const text = `---\nid: ${id(n)}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [${a}]\n---\n\n${body(n, version)}`;
  return n % 2 === 1 ? text.replace(/\n/g, "\r\n") : text;
}

function files(numbers: number[], version = 0): RepoFiles {
  return Object.fromEntries(numbers.map((n) => [`${K}/e${n}.md`, entry(n, version)]));
}

/** Entry id → raw `-bm25` of every entry matching `word`. */
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

function answers(index: EntryIndex, dbFile: string) {
  return QUERIES.map((query) => ({
    search: search(index, { query, limit: 50 }).hits.map((h) => [h.id, h.path, h.score]),
    recall: recall(index, { query, user: "u", limit: 50, now: 1 }).hits.map((h) => [
      h.id,
      h.score,
      h.why,
    ]),
    raw: rawScores(dbFile, query.split(" ")[0] as string),
  }));
}

/** `entries.body` of every stored entry, by id (NULL when the body is kept only in git). */
function storedBodies(dbFile: string): Record<string, string | null> {
  const db = new Database(dbFile, { readonly: true });
  try {
    const rows = db.prepare("SELECT id, body FROM entries ORDER BY id").raw().all();
    return Object.fromEntries(rows as [string, string | null][]);
  } finally {
    db.close();
  }
}

let dir: string;
let repo: TestRepo;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-body-in-git-"));
});
afterEach(async () => {
  await repo?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function indexInto(index: EntryIndex, folder: string, repoName = "acme/app") {
  const git = await openGitRepo(folder);
  try {
    return await indexRepository({ index, repo: git, repoName });
  } finally {
    await git.close();
  }
}

describe("bodies kept only in git", () => {
  it("stores no body for a git-backed entry; get reads it back exactly as parsed", async () => {
    repo = await makeRepo(files([1, 2, 3]));
    const dbFile = join(dir, "index.db");
    const index = openIndex(dbFile);
    await indexInto(index, repo.dir);
    expect(storedBodies(dbFile)).toEqual({ [id(1)]: null, [id(2)]: null, [id(3)]: null });
    // Entry 1 is written with CRLF line ends; the body is held with LF, as the parser gives it.
    expect(getEntry(index, id(1), "u").body).toBe(body(1));
    expect(getEntry(index, id(2), "u").body).toBe(body(2));
    index.close();
  });

  it("keeps the body of a plain folder's entry (its old text is gone from the disk)", async () => {
    repo = await makeRepo(files([1]));
    const dbFile = join(dir, "index.db");
    const index = openIndex(dbFile);
    await indexFolder({ index, dir: repo.dir, repoName: "folder" });
    expect(storedBodies(dbFile)).toEqual({ [id(1)]: body(1) });
    index.close();
  });

  it("after updates, deletes and renames over commits: same hits and scores as a fresh index", async () => {
    const all = Array.from({ length: 40 }, (_, i) => i + 1);
    repo = await makeRepo(files(all));
    const updatedFile = join(dir, "updated.db");
    const updated = openIndex(updatedFile);
    await indexInto(updated, repo.dir);
    await repo.commit(files([1, 2, 3, 4, 5, 6, 7, 8], 1));
    await repo.remove(Array.from({ length: 8 }, (_, i) => `${K}/e${i + 11}.md`));
    await repo.rename(`${K}/e21.md`, `${K}/r21.md`);
    await indexInto(updated, repo.dir);
    await repo.commit(files([1, 2, 3], 2));
    await repo.commit({ [`${K}/back-11.md`]: entry(11, 3) });
    await indexInto(updated, repo.dir);

    const freshFile = join(dir, "fresh.db");
    const fresh = openIndex(freshFile);
    await indexInto(fresh, repo.dir);
    expect(updated.entryCount()).toBe(33);
    expect(updated.entryCount()).toBe(fresh.entryCount());
    const expected = answers(fresh, freshFile);
    expect(expected[0]?.search.length).toBeGreaterThan(0);
    expect(answers(updated, updatedFile)).toEqual(expected);
    updated.close();
    fresh.close();
  });

  it("forgets a source exactly, and also when its folder is gone", async () => {
    repo = await makeRepo(files([1, 2, 3, 4]));
    const other = await makeRepo(files([5, 6, 7]));
    try {
      const onlyFile = join(dir, "only.db");
      const only = openIndex(onlyFile);
      await indexInto(only, other.dir, "acme/other");
      const expected = answers(only, onlyFile);
      only.close();

      for (const gone of [false, true]) {
        const file = join(dir, `both-${gone}.db`);
        const index = openIndex(file);
        await indexInto(index, repo.dir);
        await indexInto(index, other.dir, "acme/other");
        if (gone) await repo.cleanup();
        expect(index.forgetRepository("acme/app")).toBe(4);
        expect(answers(index, file)).toEqual(expected);
        index.close();
      }
    } finally {
      await other.cleanup();
    }
  });

  it("refuses with index_failed when a replaced entry's blob cannot be read", async () => {
    repo = await makeRepo(files([1]));
    const index = openIndex(join(dir, "index.db"), { readBlobs: () => new Map() });
    await indexInto(index, repo.dir);
    await repo.commit(files([1], 1));
    await expect(indexInto(index, repo.dir)).rejects.toMatchObject({ code: "index_failed" });
    expect(() => getEntry(index, id(1), "u")).toThrow(
      expect.objectContaining({ code: "index_failed" }),
    );
    index.close();
  });
});
