import { describe, expect, it } from "vitest";
import { foldForMatch, matchesAny, snippetAround } from "./wiki-match.js";

describe("foldForMatch", () => {
  it("lower-cases, folds ё to е and keeps the length", () => {
    const text = "Ёлка и ЁЖ, Yarn İ";
    const folded = foldForMatch(text);
    expect(folded).toBe("елка и еж, yarn İ");
    expect(folded.length).toBe(text.length);
  });
});

describe("matchesAny", () => {
  it("matches a substring of any field, case-insensitive, ё ≡ е", () => {
    expect(matchesAny(["concepts/yolka", "Ёлка как символ"], "елка")).toBe(true);
    expect(matchesAny(["concepts/yarn-on-windows", "Yarn on Windows"], "WINDOWS")).toBe(true);
    expect(matchesAny(["concepts/other", "Other"], "yarn")).toBe(false);
  });
  it("a blank query matches everything", () => {
    expect(matchesAny(["a"], "")).toBe(true);
    expect(matchesAny(["a"], "   ")).toBe(true);
  });
});

describe("snippetAround", () => {
  it("centres about 80 characters on the match", () => {
    const body = `${"a ".repeat(100)}yarn install on windows${" b".repeat(100)}`;
    const snippet = snippetAround(body, "YARN");
    expect(snippet).toContain("yarn install on windows");
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(84);
  });
  it("finds a match written with ё for a query with е", () => {
    expect(snippetAround("Новогодняя Ёлка стоит в зале", "елка")).toContain("Ёлка");
  });
  it("gives the body's beginning when the body has no match", () => {
    expect(snippetAround("short body", "zzz")).toBe("short body");
    expect(snippetAround("", "x")).toBe("");
  });
});
