import { describe, expect, it } from "vitest";
import { foldCounts, readCount, shownCounts, type UsageCount } from "./usage-counts.js";

const DAY = Date.UTC(2026, 2, 1, 12);

function count(fields: Partial<UsageCount> & Pick<UsageCount, "kind">): UsageCount {
  return { user: "ann", repo: "acme/app", entryId: "e1", now: DAY, ...fields };
}

describe("foldCounts", () => {
  it("adds a batch up to one change per row: counts summed, the first time in batch order, the latest", () => {
    const { counters, days } = foldCounts([
      count({ kind: "shown", now: DAY + 20 }),
      count({ kind: "shown", now: DAY + 10 }),
      count({ kind: "read", now: DAY + 30 }),
      count({ kind: "shown", now: DAY + 86_400_000 }),
    ]);
    expect(counters).toEqual([
      {
        user: "ann",
        repo: "acme/app",
        entryId: "e1",
        shown: 3,
        read: 1,
        firstShownAt: DAY + 20,
        lastShownAt: DAY + 86_400_000,
        firstReadAt: DAY + 30,
        lastReadAt: DAY + 30,
      },
    ]);
    expect(days).toEqual([
      { repo: "acme/app", entryId: "e1", day: "2026-03-01", user: "ann", shown: 2, read: 1 },
      { repo: "acme/app", entryId: "e1", day: "2026-03-02", user: "ann", shown: 1, read: 0 },
    ]);
  });

  it("sorts rows by their keys in code point order (UTF-8 bytes), not UTF-16 units", () => {
    // U+FF5E (one unit, 0xFF5E) sorts before U+1F600 (surrogates 0xD83D…) by code point.
    const users = ["😀", "～", "Zed", "ann", "a"];
    const { counters, days } = foldCounts(users.map((user) => count({ kind: "shown", user })));
    expect(counters.map((r) => r.user)).toEqual(["Zed", "a", "ann", "～", "😀"]);
    expect(days.map((r) => r.user)).toEqual(["Zed", "a", "ann", "～", "😀"]);
    const byRepo = foldCounts([
      count({ kind: "read", repo: "acme/b", entryId: "e1" }),
      count({ kind: "read", repo: "acme/a", entryId: "e2" }),
      count({ kind: "read", repo: "acme/a", entryId: "e1" }),
    ]);
    expect(byRepo.counters.map((r) => `${r.repo} ${r.entryId}`)).toEqual([
      "acme/a e1",
      "acme/a e2",
      "acme/b e1",
    ]);
  });

  it("answers nothing for an empty batch", () => {
    expect(foldCounts([])).toEqual({ counters: [], days: [] });
  });
});

describe("shownCounts and readCount", () => {
  it("count a draft under its repository, and a repeated entry each time", () => {
    expect(
      shownCounts(
        "ann",
        [
          { repo: "draft:acme/app", id: "e1" },
          { repo: "acme/lib", id: "e2" },
          { repo: "draft:acme/app", id: "e1" },
        ],
        DAY,
      ),
    ).toEqual([
      { kind: "shown", user: "ann", repo: "acme/app", entryId: "e1", now: DAY },
      { kind: "shown", user: "ann", repo: "acme/lib", entryId: "e2", now: DAY },
      { kind: "shown", user: "ann", repo: "acme/app", entryId: "e1", now: DAY },
    ]);
    expect(readCount("bob", { repo: "draft:acme/app", id: "e3" }, DAY + 1)).toEqual({
      kind: "read",
      user: "bob",
      repo: "acme/app",
      entryId: "e3",
      now: DAY + 1,
    });
  });
});
