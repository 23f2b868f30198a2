/**
 * Joining the index's entries with the counters' sums: the entries' order kept, zeros for
 * an entry with no sum in the team's report and none of it in one user's, an entry and a
 * draft of one id both taking its sums, a sum no entry holds left out.
 */
import { describe, expect, it } from "vitest";
import { type CounterSum, joinUsage, type UsageEntry } from "./usage-sums.js";

const entry = (id: string, path: string, draftBranch?: string): UsageEntry => ({
  id,
  path,
  summary: `about ${id}`,
  firstSeenAt: 5,
  reachable: true,
  unmetMechanisms: [],
  ...(draftBranch === undefined ? {} : { draftBranch }),
});
const sum = (entryId: string, shown: number, read: number): CounterSum => ({
  entryId,
  shown,
  read,
  lastShownAt: shown > 0 ? 100 : null,
  lastReadAt: read > 0 ? 200 : null,
});

describe("joinUsage", () => {
  const entries = [entry("b", "a.md", "feature/x"), entry("a", "b.md"), entry("b", "c.md")];
  const sums = [sum("b", 3, 1), sum("stray", 9, 9)];

  it("team: every entry in order, zeros where nothing was counted; one id's sums on both its rows", () => {
    expect(joinUsage(entries, sums, "all")).toEqual([
      { ...entry("b", "a.md", "feature/x"), shown: 3, read: 1, lastShownAt: 100, lastReadAt: 200 },
      { ...entry("a", "b.md"), shown: 0, read: 0, lastShownAt: null, lastReadAt: null },
      { ...entry("b", "c.md"), shown: 3, read: 1, lastShownAt: 100, lastReadAt: 200 },
    ]);
  });

  it("one user's: only the entries with a sum; a file's entry has no draftBranch key", () => {
    const mine = joinUsage(entries, sums, "only");
    expect(mine.map((r) => [r.path, r.shown])).toEqual([
      ["a.md", 3],
      ["c.md", 3],
    ]);
    expect("draftBranch" in (mine[1] as object)).toBe(false);
    expect(joinUsage([], sums, "all")).toEqual([]);
  });
});
