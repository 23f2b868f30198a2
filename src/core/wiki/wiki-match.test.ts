import { describe, expect, it } from "vitest";
import { foldForMatch, matchesAny, matchNames, snippetAround } from "./wiki-match.js";

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

describe("matchNames: every word of a multi-word query", () => {
  const yarn = { slug: "concepts/yarn-windows", title: "Yarn on Windows" };
  it("`yarn windows` and `Windows yarn` find `Yarn on Windows`", () => {
    expect(matchNames(yarn, "yarn windows")).toEqual({ matched: true, inTitle: 2 });
    expect(matchNames(yarn, "Windows yarn")).toEqual({ matched: true, inTitle: 2 });
    expect(matchNames(yarn, "yarn linux")).toEqual({ matched: false, inTitle: 0 });
  });
  it("`ёлка зелёная` finds `Зелёная ёлка у дома` (ё ≡ е, any case)", () => {
    const tree = { slug: "entities/tree", title: "Зелёная ёлка у дома" };
    expect(matchNames(tree, "ёлка зелёная")).toEqual({ matched: true, inTitle: 2 });
    expect(matchNames(tree, "елка зеленая")).toEqual({ matched: true, inTitle: 2 });
    expect(matchNames(tree, "ёлка красная").matched).toBe(false);
  });
  it("a two-letter word next to another word counts: `on yarn` matches, `to yarn` does not", () => {
    expect(matchNames(yarn, "on yarn")).toEqual({ matched: true, inTitle: 2 });
    expect(matchNames(yarn, "to yarn").matched).toBe(false);
  });
  it("a word found only in the slug matches but does not count for the title", () => {
    expect(matchNames({ slug: "concepts/ci-cache", title: "Cache rules" }, "ci cache")).toEqual({
      matched: true,
      inTitle: 1,
    });
  });
  it("matchesAny wants every word in some field", () => {
    expect(matchesAny(["concepts/x", "Yarn", "runs on windows"], "yarn windows")).toBe(true);
    expect(matchesAny(["concepts/x", "Yarn"], "yarn windows")).toBe(false);
  });
  it("a snippet centres on the first word the body holds", () => {
    expect(snippetAround("Install it with the installer on Windows.", "yarn windows")).toContain(
      "Windows",
    );
  });
});
