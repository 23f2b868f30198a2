import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { fts5Bm25, fts5Idf } from "./fts5-bm25.js";

describe("fts5Bm25", () => {
  it("floors the idf of a phrase in over half the rows at 1e-6", () => {
    expect(fts5Idf(10, 6)).toBe(1e-6);
    expect(fts5Idf(10, 1)).toBeCloseTo(Math.log(9.5 / 1.5), 15);
  });

  it("equals SQLite's bm25 with column weights, to the last bits", () => {
    const db = new Database(":memory:");
    db.exec("CREATE VIRTUAL TABLE t USING fts5 (a, b, tokenize = 'ascii')");
    const rows = ["x y", "y y z", "z", "x x x y", "w"].map((a, i) => [a, i % 2 ? "x z" : "q"]);
    for (const [a, b] of rows) db.prepare("INSERT INTO t (a, b) VALUES (?, ?)").run(a, b);
    const got = db
      .prepare("SELECT rowid, bm25(t, 3.0, 1.0) FROM t WHERE t MATCH 'x OR z' ORDER BY rowid")
      .raw()
      .all() as [number, number][];
    const tokens = rows.flat().join(" ").split(" ").length;
    const count = (text: string, w: string) => text.split(" ").filter((t) => t === w).length;
    const hits = (w: string) => rows.filter((r) => r.some((c) => count(c, w) > 0)).length;
    const idfs = [fts5Idf(rows.length, hits("x")), fts5Idf(rows.length, hits("z"))];
    for (const [rowid, bm25] of got) {
      const [a, b] = rows[rowid - 1] as [string, string];
      const freqs = ["x", "z"].map((w) => 3 * count(a, w) + count(b, w));
      const d = `${a} ${b}`.split(" ").length;
      const mine = fts5Bm25(idfs, freqs, d, tokens / rows.length);
      expect(Math.abs(mine - bm25)).toBeLessThanOrEqual(1e-12 * Math.abs(bm25));
    }
    expect(got.length).toBe(4);
    db.close();
  });
});
