import { describe, expect, it } from "vitest";
import { analyzeText } from "./analyze-text.js";
import { type StemStore, stemToken, withStemStore } from "./stem.js";

describe("stemToken", () => {
  it("folds word forms with the Russian and English Snowball stemmers", () => {
    expect(stemToken("откатить")).toBe(stemToken("откат"));
    expect(stemToken("deploying")).toBe(stemToken("deploy"));
    expect(stemToken("deploys")).toBe("deploy");
    expect(analyzeText("развёртывание")).toEqual(analyzeText("развертывания"));
    expect(analyzeText("зелёная")).toEqual(analyzeText("зеленая"));
  });

  it("leaves other scripts, digits and mixed tokens as they are", () => {
    expect(stemToken("2024")).toBe("2024");
    expect(stemToken("中文")).toBe("中文");
    expect(stemToken("gitхук")).toBe("gitхук");
  });

  it("answers the same after its cache turns over", () => {
    const first = stemToken("migrations");
    for (let i = 0; i < 120_000; i++) stemToken(`w${i}`);
    expect(stemToken("migrations")).toBe(first);
  });
});

describe("analyzeText", () => {
  it("normalises, splits and stems", () => {
    expect(analyzeText("Как ОТКАТИТЬ релиз?")).toEqual(["как", "откат", "релиз"]);
    expect(analyzeText("Deploying pre-receive hooks")).toEqual(["deploy", "pre", "receiv", "hook"]);
  });
});

describe("withStemStore", () => {
  /** A store over a map, logging what was asked and kept. */
  function mapStore(held: Record<string, string> = {}) {
    const asked: string[] = [];
    const kept: [string, string][] = [];
    const store: StemStore = {
      get: (token) => {
        asked.push(token);
        return held[token];
      },
      put: (token, stem) => void kept.push([token, stem]),
    };
    return { store, asked, kept };
  }

  it("asks the store on a miss and keeps what Snowball computed", () => {
    const { store, asked, kept } = mapStore();
    const stem = withStemStore(store, () => stemToken("wanderingly"));
    expect(asked).toEqual(["wanderingly"]);
    expect(kept).toEqual([["wanderingly", stem]]);
    // Memoised now: the store is not asked again, nor given it twice.
    withStemStore(store, () => stemToken("wanderingly"));
    expect(asked).toEqual(["wanderingly"]);
    expect(kept).toHaveLength(1);
  });

  it("takes a stored stem without computing it, and is off outside the call", () => {
    const { store, kept } = mapStore({ переставлявшиеся: "stored-stem" });
    expect(withStemStore(store, () => stemToken("переставлявшиеся"))).toBe("stored-stem");
    expect(kept).toEqual([]);
    const { store: other, asked } = mapStore();
    withStemStore(other, () => undefined);
    stemToken("unstoredness");
    expect(asked).toEqual([]);
  });
});
