import { describe, expect, it } from "vitest";
import { comparePaths } from "./duplicate-ids.js";

describe("comparePaths", () => {
  it("orders paths as UTF-8 bytes, the order of git ls-tree", () => {
    const paths = [
      "b.md",
      "a/x.md",
      "a.md",
      "a-b.md",
      "\u{1F600}.md",
      "\uFF21.md",
      "я.md",
      "a0.md",
    ];
    const byBytes = [...paths].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...paths].sort(comparePaths)).toEqual(byBytes);
    expect(comparePaths("a", "a")).toBe(0);
    expect(comparePaths("a", "ab")).toBe(-1);
  });
});
