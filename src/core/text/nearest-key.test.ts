import { describe, expect, it } from "vitest";
import { KNOWN_KEYS } from "../entry/entry.js";
import { editDistance, nearestKey } from "./nearest-key.js";

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["abc", "", 3],
    ["sumary", "summary", 1],
    ["lnik", "link", 1],
    ["kitten", "sitting", 3],
    ["ёлка", "елка", 1],
    ["😀a", "a", 1],
  ])("%s → %s = %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe("nearestKey", () => {
  it("suggests the known key for typos and case (the typo keys `sumary` and `Links`)", () => {
    expect(nearestKey("sumary", KNOWN_KEYS)).toBe("summary");
    expect(nearestKey("Links", KNOWN_KEYS)).toBe("links");
    expect(nearestKey("orign", KNOWN_KEYS)).toBe("origin");
    expect(nearestKey("contracts", KNOWN_KEYS)).toBe("contract");
    expect(nearestKey("ID", KNOWN_KEYS)).toBe("id");
  });

  it("follows the seed's example through aliases: on_trigers → contract", () => {
    expect(nearestKey("on_trigers", KNOWN_KEYS)).toBe("contract");
    expect(nearestKey("description", KNOWN_KEYS)).toBe("summary");
    expect(nearestKey("keywords", ["words"])).toBe("words");
  });

  it("says none when nothing is similar (a newer file)", () => {
    expect(nearestKey("priority", KNOWN_KEYS)).toBeUndefined();
    expect(nearestKey("x", KNOWN_KEYS)).toBeUndefined();
    expect(nearestKey("expires_at", KNOWN_KEYS)).toBeUndefined();
    expect(nearestKey("lang", ["words"])).toBeUndefined();
  });
});
