import { describe, expect, it } from "vitest";
import { normalizeText } from "./normalize-text.js";
import { splitWords, tokenize } from "./tokenize.js";

const tokens = (text: string) => tokenize(normalizeText(text));

describe("tokenize", () => {
  it("splits on everything but letters and digits", () => {
    expect(tokens("Use a pre-receive hook; don't commit in it. C++ notes (draft).")).toEqual([
      "use",
      "a",
      "pre",
      "receive",
      "hook",
      "don",
      "t",
      "commit",
      "in",
      "it",
      "c",
      "notes",
      "draft",
    ]);
    expect(tokens('"AND" NEAR(x y) *')).toEqual(["and", "near", "x", "y"]);
    expect(tokens("")).toEqual([]);
    expect(tokens('"')).toEqual([]);
  });

  it("keeps digits, other scripts, marks and astral letters inside words", () => {
    expect(tokens("v1.2 2024-01-05")).toEqual(["v1", "2", "2024", "01", "05"]);
    expect(tokens("中文 हिन्दी 😀x 𝒳y")).toEqual(["中文", "हिन्दी", "x", "𝒳y"]);
  });
});

describe("splitWords", () => {
  it("glues tokens joined by one in-word mark and sees a trailing star", () => {
    expect(splitWords(normalizeText("pre-receive don't deplo* (draft) a - b"))).toEqual([
      { tokens: ["pre", "receive"], prefix: false },
      { tokens: ["don", "t"], prefix: false },
      { tokens: ["deplo"], prefix: true },
      { tokens: ["draft"], prefix: false },
      { tokens: ["a"], prefix: false },
      { tokens: ["b"], prefix: false },
    ]);
  });
});
