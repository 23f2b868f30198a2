import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ParsedEntry } from "../core/entry/entry.js";
import { LoreError } from "../core/errors/lore-error.js";
import { parseSearchQuery } from "../core/recall/search-query.js";
import { type EntryIndex, openIndex } from "./entry-index.js";

/** A UUIDv7-shaped id from a number (ordering follows `n`). */
const idOf = (n: number) => `0190f5a4-0000-7000-8000-${n.toString(16).padStart(12, "0")}`;

function parsed(id: string, summary: string, body: string, words: string[]): ParsedEntry {
  const contract = words.length > 0 ? [{ mechanism: "on_query", params: { words } }] : [];
  return {
    entry: { id, contract, origin: "agent", links: [], unknownKeys: {}, body },
    summary,
    reachable: words.length > 0,
    unmetMechanisms: [],
  };
}

let dir: string;
let index: EntryIndex;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-text-"));
  index = openIndex(join(dir, "index.db"));
  index.transaction(() => {
    for (let i = 1; i <= 30; i++) {
      const summary = i % 6 === 0 ? `alpha note ${i}` : `note ${i}`;
      const body = `${summary}\n\nalpha ${i % 10 === 0 ? "rare" : "common"} words "quoted" (x) * NEAR AND`;
      index.putFile({
        repo: "r",
        path: `${i}.md`,
        blobSha: "0".repeat(40),
        parsed: parsed(idOf(i), summary, body, i % 7 === 0 ? ["beta"] : []),
        diagnostics: [],
      });
    }
  });
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = (query: string, budget: number, offset = 0, limit = 100) =>
  index.text.page(parseSearchQuery(query).terms, {
    offset,
    limit,
    budget,
    totalCap: 1000,
    excludeFired: false,
    check: [],
  });

describe("TextSearch", () => {
  it("ranks every match by bm25 when the query fits the budget", () => {
    const result = page("alpha", 100);
    expect(result.mode).toBe("ranked");
    expect(result.total).toBe(30);
    expect(result.totalExact).toBe(true);
    expect(result.rows[0]?.score).toBeGreaterThan(0);
    // summary matches (weight 3) come first
    const top = index.hitRecords(result.rows.slice(0, 5).map((r) => r.fileId));
    expect([...top.values()].every((r) => r.summary.startsWith("alpha"))).toBe(true);
  });

  it("ignores words too common to rank by when a rarer word is present", () => {
    const result = page("alpha rare", 10);
    expect(result.mode).toBe("ranked");
    expect(result.total).toBe(3);
  });

  it("drops words found in over half the entries when a rarer word is present", () => {
    const result = page("alpha rare", 2);
    expect(result.mode).toBe("broad");
    expect(result.total).toBe(3);
    expect(page("alpha common", 2).total).toBe(30);
  });

  it("lists a broad query unranked: summary matches first, every match once across pages", () => {
    const first = page("alpha", 10, 0, 100);
    expect(first.mode).toBe("broad");
    expect(first.total).toBe(30);
    expect(first.rows.every((r) => r.score === 0)).toBe(true);
    const summaries = [...index.hitRecords(first.rows.slice(0, 5).map((r) => r.fileId)).values()];
    expect(summaries.every((r) => r.summary.startsWith("alpha"))).toBe(true);
    const seen: number[] = [];
    for (let offset = 0; offset < 40; offset += 7) {
      seen.push(...page("alpha", 10, offset, 7).rows.map((r) => r.fileId));
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    expect(seen).toEqual(first.rows.map((r) => r.fileId));
  });

  it("reports a lower bound past the total cap", () => {
    const result = index.text.page(parseSearchQuery("alpha").terms, {
      offset: 0,
      limit: 5,
      budget: 10,
      totalCap: 12,
      excludeFired: false,
      check: [],
    });
    expect(result).toMatchObject({ mode: "broad", total: 12, totalExact: false });
    expect(result.rows).toHaveLength(5);
  });

  it("expands a prefix through the vocabulary", () => {
    expect(page("com*", 100).total).toBe(27); // "common" in 27 bodies
    expect(page("nothingher*", 100).total).toBe(0);
  });

  it("leaves fired entries out of rows and total, and reports which checked ids match", () => {
    expect(index.contracts.fire({ keys: [["beta", 0]], stems: ["beta"] })).toBe(4);
    const fired = index.contracts.best(10, []).map((hit) => hit.fileId);
    expect(fired).toHaveLength(4);
    for (const budget of [100, 10]) {
      const result = index.text.page(parseSearchQuery("alpha").terms, {
        offset: 0,
        limit: 100,
        budget,
        totalCap: 1000,
        excludeFired: true,
        check: fired,
      });
      expect(result.total).toBe(26);
      expect(result.rows).toHaveLength(26);
      expect(result.rows.some((r) => fired.includes(r.fileId))).toBe(false);
      expect([...result.alsoText].sort()).toEqual([...fired].sort());
    }
  });

  it("never raises an SQL error, whatever the query (property, real FTS5)", () => {
    const nasty = fc.constantFrom(
      '"',
      "*",
      "(",
      ")",
      ":",
      "^",
      "+",
      "-",
      "{",
      "}",
      "NEAR",
      "AND",
      "OR",
      "NOT",
      " ",
      "'",
      "ё",
      "é",
      "\u0000",
      "😀",
    );
    const query = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.array(nasty, { maxLength: 12 }).map((parts) => parts.join("")),
      fc
        .array(fc.oneof(nasty, fc.constantFrom("alpha", "rare", "note")), { maxLength: 8 })
        .map((p) => p.join(" ")),
    );
    fc.assert(
      fc.property(query, fc.constantFrom(10, 100), (text, budget) => {
        try {
          page(text, budget, 0, 10);
        } catch (error) {
          expect(error).toBeInstanceOf(LoreError);
          expect((error as LoreError).code).toBe("empty_query");
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("TextSearch prefix expansions", () => {
  it("follow every change of the full-text index, by this connection or another", () => {
    const folder = mkdtempSync(join(tmpdir(), "lore-text-expand-"));
    const file = join(folder, "index.db");
    const mine = openIndex(file);
    const other = openIndex(file);
    const put = (into: EntryIndex, n: number, word: string) =>
      into.putFile({
        repo: "r",
        path: `${n}.md`,
        blobSha: "0".repeat(40),
        parsed: parsed(idOf(n), `note ${n}`, `a ${word} here`, []),
        diagnostics: [],
      });
    const total = (query: string) =>
      mine.text.page(parseSearchQuery(query).terms, {
        offset: 0,
        limit: 100,
        budget: 100,
        totalCap: 1000,
        excludeFired: false,
        check: [],
      }).total;
    try {
      for (let n = 1; n <= 3; n++) put(mine, n, "zorbat");
      expect(total("zor*")).toBe(3);
      expect(total("zor*")).toBe(3); // the kept expansion
      // Another process adds a stem with the prefix: the next recall expands to it too.
      for (let n = 4; n <= 5; n++) put(other, n, "zorkin");
      expect(total("zor*")).toBe(5);
      // … and removes one.
      other.deleteFile("r", "1.md");
      expect(total("zor*")).toBe(4);
      // Inside this connection's write transaction the new rows are found before commit.
      mine.transaction(() => {
        put(mine, 6, "zormun");
        expect(total("zor*")).toBe(5);
      });
      expect(total("zor*")).toBe(5);
      expect(total("nothingher*")).toBe(0);
    } finally {
      other.close();
      mine.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("EntryIndex.ftsPendingBytes", () => {
  it("changes only how FTS5 lays out its segments: the same matches and scores; refuses a size that is not positive", () => {
    const folder = mkdtempSync(join(tmpdir(), "lore-text-pending-"));
    const build = (name: string, bytes: number | undefined) => {
      const built = openIndex(join(folder, name));
      if (bytes !== undefined) built.ftsPendingBytes(bytes);
      built.transaction(() => {
        for (let n = 1; n <= 40; n++) {
          const body = `alpha ${n % 3 === 0 ? "beta gamma" : "gamma"} ${"delta ".repeat(n % 5)}`;
          built.putFile({
            repo: "r",
            path: `${n}.md`,
            blobSha: "0".repeat(40),
            parsed: parsed(idOf(n), `note ${n % 4 === 0 ? "beta" : ""}`, body, []),
            diagnostics: [],
          });
        }
      });
      built.deleteFile("r", "7.md");
      return built;
    };
    // One transaction: 64 bytes writes a segment every row or two, the default one segment.
    const tiny = build("tiny.db", 64);
    const usual = build("usual.db", undefined);
    const answers = (from: EntryIndex) =>
      ["alpha", "beta", "gamma delta", "del*"].map((query) =>
        from.text.matches(parseSearchQuery(query).terms, { budget: 100, totalCap: 1000, need: 50 }),
      );
    try {
      const stored = tiny.withDatabase(
        (db) =>
          db
            .prepare("SELECT v FROM entry_text_config WHERE k = 'hashsize'")
            .pluck()
            .get() as number,
      );
      expect(stored).toBe(64);
      const blocks = (from: EntryIndex) =>
        from.withDatabase(
          (db) => db.prepare("SELECT count(*) FROM entry_text_data").pluck().get() as number,
        );
      // Many segments against few: the layouts differ…
      expect(blocks(tiny)).toBeGreaterThan(blocks(usual));
      // …the answers do not.
      expect(answers(tiny)).toEqual(answers(usual));
      expect(answers(tiny)[0]?.rows.length).toBe(39);
      expect(() => tiny.ftsPendingBytes(0)).toThrow(
        expect.objectContaining({ code: "invalid_input" }),
      );
    } finally {
      tiny.close();
      usual.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("TextSearch kept word counts", () => {
  it("follow every change of the index, by this connection or another: counts, budget and floor", () => {
    const folder = mkdtempSync(join(tmpdir(), "lore-text-counts-"));
    const file = join(folder, "index.db");
    const mine = openIndex(file);
    const other = openIndex(file);
    const put = (into: EntryIndex, n: number, words: string) =>
      into.putFile({
        repo: "r",
        path: `${n}.md`,
        blobSha: "0".repeat(40),
        parsed: parsed(idOf(n), `note ${n}`, `a ${words} here`, []),
        diagnostics: [],
      });
    const found = (query: string, budget: number) => {
      const result = mine.text.matches(parseSearchQuery(query).terms, {
        budget,
        totalCap: 1000,
        need: 10,
      });
      return { ids: result.rows.map((row) => row.fileId).sort(), mode: result.mode };
    };
    try {
      put(mine, 1, "quark zeta");
      put(mine, 2, "quark");
      put(mine, 3, "quark");
      put(mine, 4, "plain");
      const fileIdOf = (n: number) =>
        mine.withDatabase(
          (db) =>
            db.prepare("SELECT file_id FROM files WHERE path = ?").pluck().get(`${n}.md`) as number,
        );
      const ids = (paths: number[]) => paths.map(fileIdOf).sort();
      // `quark` is in 3 of 4 entries: common, so `zeta` alone finds hits.
      expect(found("quark zeta", 100)).toEqual({ ids: ids([1]), mode: "ranked" });
      expect(found("quark zeta", 100)).toEqual({ ids: ids([1]), mode: "ranked" }); // kept
      expect(found("quark", 2).mode).toBe("broad");
      // Another process adds entries without it: no longer common, both words search.
      for (let n = 5; n <= 8; n++) put(other, n, "plain");
      expect(found("quark zeta", 100)).toEqual({ ids: ids([1, 2, 3]), mode: "ranked" });
      // This connection takes two `quark` entries away: within a budget of 2 now.
      mine.deleteFile("r", "2.md");
      mine.deleteFile("r", "3.md");
      expect(found("quark", 2)).toEqual({ ids: ids([1]), mode: "ranked" });
      // Inside this connection's write transaction the new rows count before commit.
      mine.transaction(() => {
        put(mine, 9, "quark");
        put(mine, 10, "quark");
        expect(found("quark", 2).mode).toBe("broad");
      });
      expect(found("quark", 2).mode).toBe("broad");
    } finally {
      other.close();
      mine.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("TextSearch best matches of one word (`top`)", () => {
  const matches = (query: string, top?: number, repos?: string[]) =>
    index.text.matches(parseSearchQuery(query).terms, {
      budget: 100,
      totalCap: 1000,
      need: 10,
      ...(top === undefined ? {} : { top }),
      ...(repos === undefined ? {} : { repos }),
    });

  it("reads only the best `top` by relevance of a lone ranked word, with every match counted", () => {
    const whole = matches("alpha");
    expect(whole.complete).toBe(true);
    expect(whole.rows).toHaveLength(30);
    const best = matches("alpha", 4);
    expect(best).toMatchObject({ complete: false, total: 30, totalExact: true, mode: "ranked" });
    const byRelevance = [...whole.rows].sort(
      (a, b) => b.relevance - a.relevance || a.fileId - b.fileId,
    );
    expect(best.rows).toEqual(byRelevance.slice(0, 4));
    // Every best row holds the one word's bit, as in the whole list.
    expect(new Set(best.rows.map((row) => row.mask))).toEqual(new Set([1]));
  });

  it("lists every match when `top` reaches them, and ignores it for two words or within repositories", () => {
    expect(matches("alpha", 30)).toEqual(matches("alpha"));
    expect(matches("alpha rare", 2)).toEqual(matches("alpha rare"));
    expect(matches("alpha", 2, ["r"])).toEqual(matches("alpha", undefined, ["r"]));
    expect(matches("alpha", 2, ["r"]).complete).toBe(true);
  });
});
