/**
 * The stats records read in two halves (entries from a real SQLite index, sums from the
 * counters' store) give exactly what the index's one statement gives (`EntryIndex.usage`):
 * on SQLite's own counters, and with the same counts on PostgreSQL (`LORE_TEST_PG_URL`; that
 * half skips with the reason without it) — drafts, another repository's entry with the
 * same id, one user's rows, zeros, the limit, an id counted that no entry holds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  PG_SKIP_REASON,
  TEST_PG_URL,
  type TestDatabase,
} from "../../../test/helpers/pg-test-database.js";
import { storeDraft } from "../../../test/helpers/store-drafts.js";
import type { ParsedEntry } from "../../core/entry/entry.js";
import type { CountKey } from "../../core/stats/usage-counts.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import { openPgIndexStore } from "../../index/index-store/pg-index-store.js";
import { sqliteIndexStore } from "../../index/index-store/sqlite-index-store.js";
import type { IndexStore } from "../../ports/index-store.js";
import { usageDead, usageMe, usageRecords, usageTeam } from "./usage-records.js";
import { reportDead, reportMe, reportTeam } from "./usage-reports.js";

const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const REPO = "acme/app";
const T0 = Date.UTC(2026, 0, 1);

function parsed(n: number, reachable = true): ParsedEntry {
  return {
    entry: {
      id: id(n),
      contract: reachable
        ? [{ mechanism: "on_query", params: { words: ["deploy"] } }]
        : [{ mechanism: "on_path", params: { glob: "*" } }],
      origin: "human",
      links: [],
      unknownKeys: {},
      body: `E${n}.`,
    },
    summary: `Entry ${n}.`,
    reachable,
    unmetMechanisms: reachable ? [] : ["on_path"],
  };
}

let dir: string;
let index: EntryIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-usage-records-"));
  index = openIndex(join(dir, "index.db"), { now: () => T0 });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Entries of two repositories (one id in both), a draft, an unreachable one; answers the draft's id. */
function fill(): string {
  for (const n of [3, 1, 2, 5]) {
    index.putFile({
      repo: REPO,
      path: `.gitriver/knowledge/e${n}.md`,
      blobSha: n.toString(16).padStart(40, "0"),
      parsed: parsed(n, n !== 5),
      diagnostics: [],
    });
  }
  index.putFile({
    repo: "acme/lib",
    path: ".gitriver/knowledge/e1.md",
    blobSha: "f".repeat(40),
    parsed: parsed(1),
    diagnostics: [],
  });
  return storeDraft(index, { repo: REPO, branch: "feature/x" }).id;
}

/** The same counts on a store: three users, a draft's, another repository's, a stray id. */
async function count(store: IndexStore, draft: string): Promise<void> {
  const k = (n: number, repo = REPO): CountKey => ({ repo, id: id(n) });
  await store.counters.recordShown(
    "ann",
    [k(1), k(1), k(2), { repo: `draft:${REPO}`, id: draft }],
    T0 + 10,
  );
  await store.counters.recordShown("bob", [k(1), k(3), k(1, "acme/lib")], T0 + 20);
  await store.counters.recordRead("bob", k(1), T0 + 30);
  await store.counters.recordShown("cid", [k(99)], T0 + 40);
  store.counters.countRead("ann", k(2), T0 + 50);
}

/** The usage reads compared: every user, page sizes at and past the ends. */
const reads = [
  { limit: 100 },
  { limit: 2 },
  { limit: 0 },
  { limit: Number.MAX_SAFE_INTEGER },
  { user: "ann", limit: 100 },
  { user: "ann", limit: 1 },
  { user: "bob", limit: 100 },
  { user: "cid", limit: 100 },
  { user: "nobody", limit: 100 },
];

/** Every read the reports make, both ways, for a comparison. */
async function bothWays(store: IndexStore) {
  const sources = { index, counters: store.counters };
  const split = [];
  for (const options of reads) split.push(await usageRecords(sources, REPO, options));
  split.push(await usageRecords(sources, "acme/lib", { limit: 10 }));
  return {
    split,
    reports: [
      await usageTeam(sources, REPO, 2),
      await usageMe(sources, REPO, "ann"),
      await usageDead(sources, REPO, { minShown: 1, minAgeDays: 0 }, T0 + 1),
    ],
  };
}

/** The one-statement answers of the SQLite index for the same reads. */
function oneStatement() {
  return {
    split: [
      ...reads.map((options) => index.usage(REPO, options)),
      index.usage("acme/lib", { limit: 10 }),
    ],
    reports: [
      reportTeam(index, REPO, 2),
      reportMe(index, REPO, "ann"),
      reportDead(index, REPO, { minShown: 1, minAgeDays: 0 }, T0 + 1),
    ],
  };
}

describe("usage records from the index and the counters' sums", () => {
  it("on SQLite's own counters: the same records and reports as the index's one statement", async () => {
    const draft = fill();
    const store = sqliteIndexStore(index);
    await count(store, draft);
    const split = await bothWays(store);
    expect(split).toEqual(oneStatement());
    // Not empty answers compared: the draft, the zeros and one user's counts are there.
    expect(split.split[0]?.map((r) => [r.id, r.shown, r.read])).toEqual([
      [draft, 1, 0],
      [id(1), 3, 1],
      [id(2), 1, 1],
      [id(3), 1, 0],
      [id(5), 0, 0],
    ]);
    expect(split.split[4]?.map((r) => [r.id, r.shown, r.read])).toEqual([
      [draft, 1, 0],
      [id(1), 2, 0],
      [id(2), 1, 1],
    ]);
    expect(split.reports[0]).toMatchObject({ partial: "truncated" });
  });
});

if (TEST_PG_URL === undefined) {
  describe.skip(PG_SKIP_REASON, () => {
    it("reads the usage records with the counters on PostgreSQL", () => undefined);
  });
} else {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase("usage");
  });
  afterAll(async () => {
    await db?.drop();
  });

  describe("usage records with the counters on PostgreSQL", () => {
    it("gives what SQLite gives for the same counts", async () => {
      const draft = fill();
      const pg = await openPgIndexStore((await db.schema()).url, { poolSize: 2 });
      try {
        await count(pg, draft);
        await count(sqliteIndexStore(index), draft);
        expect(await bothWays(pg)).toEqual(oneStatement());
      } finally {
        await pg.close();
      }
    });
  });
}
