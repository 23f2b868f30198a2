import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FLUSH_DELAY_MS } from "./counters.js";
import { type EntryIndex, openIndex } from "./entry-index.js";

const ID1 = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const ID2 = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";

/** The `shown` counts of `user` as another connection to the same file reads them. */
function shownElsewhere(file: string, user: string): string[] {
  const other = openIndex(file);
  try {
    // `stats` flushes only this connection's own (empty) queue: it reads the file.
    return other.stats(user).map((row) => `${row.entryId}:${row.shown}:${row.read}`);
  } finally {
    other.close();
  }
}

let dir: string;
let file: string;
let index: EntryIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-counters-"));
  file = join(dir, "index.db");
  index = openIndex(file);
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("usage counters written after the answer", () => {
  it("are not in the file right after counting, and are seen by this process at once", () => {
    index.countShown(
      "ann",
      [ID1, ID2].map((id: string) => ({ repo: "acme/app", id })),
      1000,
    );
    index.countRead("ann", { repo: "acme/app", id: ID1 }, 1500);
    expect(shownElsewhere(file, "ann")).toEqual([]);
    expect(index.stats("ann").map((row) => `${row.entryId}:${row.shown}:${row.read}`)).toEqual([
      `${ID1}:1:1`,
      `${ID2}:1:0`,
    ]);
    // stats wrote them: another connection sees them now.
    expect(shownElsewhere(file, "ann")).toEqual([`${ID1}:1:1`, `${ID2}:1:0`]);
  });

  it("are written by close", () => {
    index.countShown(
      "ann",
      [ID1, ID1].map((id: string) => ({ repo: "acme/app", id })),
      1000,
    );
    index.close();
    expect(shownElsewhere(file, "ann")).toEqual([`${ID1}:2:0`]);
  });

  it(`are written by themselves ${FLUSH_DELAY_MS} ms later, in one transaction`, async () => {
    expect(FLUSH_DELAY_MS).toBe(250);
    index.countShown(
      "bob",
      [ID2].map((id: string) => ({ repo: "acme/app", id })),
      2000,
    );
    const deadline = Date.now() + 10_000;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      seen = shownElsewhere(file, "bob");
      if (seen.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen).toEqual([`${ID2}:1:0`]);
  });

  it("are written during a burst that never pauses, not only after it", async () => {
    // A count every 10 ms never leaves the 40 ms pause a write waits for; the oldest
    // count's 2 s limit writes them anyway, while the burst goes on.
    const deadline = Date.now() + 10_000;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      index.countShown("cyd", [{ repo: "acme/app", id: ID2 }], 4000);
      seen = shownElsewhere(file, "cyd");
      if (seen.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(seen).toHaveLength(1);
  });

  it("keep first and last times in counting order across a flush", () => {
    index.countShown(
      "ann",
      [ID1].map((id: string) => ({ repo: "acme/app", id })),
      3000,
    );
    index.countShown(
      "ann",
      [ID1].map((id: string) => ({ repo: "acme/app", id })),
      1000,
    );
    index.stats();
    index.countShown(
      "ann",
      [ID1].map((id: string) => ({ repo: "acme/app", id })),
      5000,
    );
    const [row] = index.stats("ann");
    expect(row).toMatchObject({ shown: 3, firstShownAt: 3000, lastShownAt: 5000 });
  });
});

describe("usage by day (migration 10)", () => {
  const day = (iso: string) => Date.parse(iso);

  it("the queued path and the durable one both count on the UTC day; drafts fold into their repository; another connection sees the flushed days", () => {
    index.countShown("ann", [{ repo: "acme/app", id: ID1 }], day("2026-11-30T23:59:59.999Z"));
    index.countShown("ann", [{ repo: "draft:acme/app", id: ID1 }], day("2026-12-01T00:00:00Z"));
    index.recordRead("bob", { repo: "acme/app", id: ID1 }, day("2026-12-01T10:00:00Z"));
    index.recordShown("bob", [{ repo: "acme/other", id: ID1 }], day("2026-12-01T10:00:00Z"));
    expect(index.usageDays("acme/app", "2026-11-30", "2026-12-01")).toEqual([
      { day: "2026-11-30", shown: 1, read: 0 },
      { day: "2026-12-01", shown: 1, read: 1 },
    ]);
    expect(index.usageDays("acme/app", "2026-12-01", "2026-12-01", ID2)).toEqual([]);
    expect(index.usageDays("acme/app", "2026-12-01", "2026-12-01", ID1)).toEqual([
      { day: "2026-12-01", shown: 1, read: 1 },
    ]);
    const other = openIndex(file);
    try {
      expect(other.usageDays("acme/other", "2026-12-01", "2026-12-01")).toEqual([
        { day: "2026-12-01", shown: 1, read: 0 },
      ]);
    } finally {
      other.close();
    }
  });

  it("a removed user's days and a removed repository's days go with their counters", () => {
    const at = day("2026-12-01T10:00:00Z");
    index.recordShown("ann", [{ repo: "acme/app", id: ID1 }], at);
    index.recordShown("bob", [{ repo: "acme/app", id: ID1 }], at);
    index.forgetUserCounters("ann");
    expect(index.usageDays("acme/app", "2026-12-01", "2026-12-01")).toEqual([
      { day: "2026-12-01", shown: 1, read: 0 },
    ]);
    index.forgetHostedRepository("acme/app");
    expect(index.usageDays("acme/app", "2026-12-01", "2026-12-01")).toEqual([]);
  });
});
