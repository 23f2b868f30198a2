import { describe, expect, it } from "vitest";
import { columnTokens, phraseInstances } from "./phrase-match.js";

describe("phraseInstances", () => {
  it("counts a stem's occurrences, whole stems only", () => {
    const tokens = columnTokens("deploy deploy deployment redeploy");
    expect(phraseInstances({ tokens: ["deploy"], prefix: false }, tokens)).toBe(2);
    expect(phraseInstances({ tokens: ["deploy"], prefix: true }, tokens)).toBe(3);
  });

  it("counts a phrase only adjacent and in order, overlapping instances each", () => {
    expect(phraseInstances({ tokens: ["pre", "receiv"], prefix: false }, ["pre", "receiv"])).toBe(
      1,
    );
    expect(phraseInstances({ tokens: ["pre", "receiv"], prefix: false }, ["receiv", "pre"])).toBe(
      0,
    );
    expect(
      phraseInstances({ tokens: ["pre", "receiv"], prefix: false }, ["pre", "x", "receiv"]),
    ).toBe(0);
    expect(phraseInstances({ tokens: ["a", "a"], prefix: false }, ["a", "a", "a"])).toBe(2);
    expect(phraseInstances({ tokens: ["pre", "rec"], prefix: true }, ["pre", "receiv"])).toBe(1);
  });

  it("reads an empty column as no tokens", () => {
    expect(columnTokens("")).toEqual([]);
    expect(phraseInstances({ tokens: ["a"], prefix: true }, columnTokens(""))).toBe(0);
  });
});
