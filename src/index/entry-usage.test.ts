/**
 * The usage of a repository's entries on a real SQLite file: durable counts
 * (`recordShown`/`recordRead`), one record per entry and draft with the user's or
 * everyone's counts, the ids of a batch known to a repository, and the entries' ages
 * (migration 7) kept through a new version of the file, a draft becoming a file, a forget
 * and a re-open.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeDraft } from "../../test/helpers/store-drafts.js";
import { draftFilePath } from "../core/drafts/draft.js";
import type { ContractClause, ParsedEntry } from "../core/entry/entry.js";
import { type EntryIndex, openIndex } from "./entry-index.js";
import { openSqliteDatabase } from "./sqlite-database.js";

const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const SHA = (n: number) => n.toString(16).padStart(40, "0");
const ON_QUERY: ContractClause[] = [{ mechanism: "on_query", params: { words: ["deploy"] } }];

function parsed(entryId: string, body: string, reachable = true): ParsedEntry {
  return {
    entry: {
      id: entryId,
      contract: reachable ? ON_QUERY : [{ mechanism: "on_path", params: { glob: "*" } }],
      origin: "human",
      links: [],
      unknownKeys: {},
      body,
    },
    summary: body,
    reachable,
    unmetMechanisms: reachable ? [] : ["on_path"],
  };
}

let dir: string;
let clock: number;
const open: EntryIndex[] = [];
const openAt = (file = join(dir, "index.db")) => {
  const index = openIndex(file, { now: () => clock });
  open.push(index);
  return index;
};
const put = (index: EntryIndex, repo: string, n: number, path = `k/e${n}.md`) =>
  index.putFile({
    repo,
    path,
    blobSha: SHA(n),
    parsed: parsed(id(n), `Entry ${n}.`),
    diagnostics: [],
  });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-usage-"));
  clock = 1_000_000;
});
afterEach(() => {
  for (const index of open.splice(0)) index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("EntryIndex.usage", () => {
  it("team: one record per entry and draft of the repository, zeros for one never shown; me: only the user's", () => {
    const index = openAt();
    put(index, "acme/app", 1);
    put(index, "acme/app", 2);
    put(index, "acme/other", 3);
    const draft = storeDraft(index, { repo: "acme/app", branch: "feature/x" });
    index.recordShown(
      "ann",
      [id(1), id(1), draft.id].map((id: string) => ({ repo: "acme/app", id })),
      5_000,
    );
    index.recordShown(
      "bob",
      [id(1)].map((id: string) => ({ repo: "acme/app", id })),
      7_000,
    );
    index.recordRead("bob", { repo: "acme/app", id: id(1) }, 8_000);

    const team = index.usage("acme/app", { limit: 100 });
    expect(team.map((r) => [r.id, r.shown, r.read])).toEqual([
      [draft.id, 1, 0],
      [id(1), 3, 1],
      [id(2), 0, 0],
    ]);
    expect(team[0]).toMatchObject({ path: draftFilePath(draft.id), draftBranch: "feature/x" });
    expect(team[1]).toMatchObject({ lastShownAt: 7_000, lastReadAt: 8_000, reachable: true });
    expect(team[2]).toMatchObject({ lastShownAt: null, lastReadAt: null, firstSeenAt: 1_000_000 });
    expect(team[2]?.draftBranch).toBeUndefined();

    const ann = index.usage("acme/app", { user: "ann", limit: 100 });
    expect(ann.map((r) => [r.id, r.shown, r.read, r.lastShownAt])).toEqual([
      [draft.id, 1, 0, 5_000],
      [id(1), 2, 0, 5_000],
    ]);
    expect(index.usage("acme/app", { user: "cid", limit: 100 })).toEqual([]);
    // Another repository's entry is never in this one's answer.
    expect(index.usage("acme/other", { limit: 100 }).map((r) => r.id)).toEqual([id(3)]);
    // The limit cuts by path.
    expect(index.usage("acme/app", { limit: 2 }).map((r) => r.id)).toEqual([draft.id, id(1)]);
    expect(index.usage("acme/app", { limit: Number.MAX_SAFE_INTEGER })).toHaveLength(3);
  });

  it("writes queued counts first: a read is exact right after countShown", () => {
    const index = openAt();
    put(index, "r", 1);
    index.countShown(
      "ann",
      [id(1)].map((id: string) => ({ repo: "r", id })),
      10,
    );
    expect(index.usage("r", { user: "ann", limit: 10 })[0]?.shown).toBe(1);
  });

  it("unreachable entries carry their unmet mechanisms", () => {
    const index = openAt();
    index.putFile({
      repo: "r",
      path: "k/x.md",
      blobSha: SHA(9),
      parsed: parsed(id(9), "Needs paths.", false),
      diagnostics: [],
    });
    expect(index.usage("r", { limit: 10 })[0]).toMatchObject({
      reachable: false,
      unmetMechanisms: ["on_path"],
    });
  });
});

describe("EntryIndex.recordShown / recordRead", () => {
  it("commit at once, with the queued counts, visible to another connection", () => {
    const file = join(dir, "index.db");
    const index = openAt(file);
    put(index, "r", 1);
    index.countShown(
      "ann",
      [id(1)].map((id: string) => ({ repo: "r", id })),
      1,
    );
    index.recordShown(
      "ann",
      [id(1)].map((id: string) => ({ repo: "r", id })),
      2,
    );
    index.recordRead("ann", { repo: "r", id: id(1) }, 3);
    const other = openSqliteDatabase(file);
    try {
      expect(other.prepare("SELECT shown, read FROM counters WHERE user = 'ann'").get()).toEqual({
        shown: 2,
        read: 1,
      });
    } finally {
      other.close();
    }
    expect(index.counter("ann", "r", id(1))).toMatchObject({
      shown: 2,
      read: 1,
      lastReadAt: 3,
    });
    expect(index.counter("bob", "acme/app", id(1))).toBeUndefined();
  });
});

describe("EntryIndex.knownIds", () => {
  it("answers the ids of the repository's entries and drafts only", () => {
    const index = openAt();
    put(index, "acme/app", 1);
    put(index, "acme/other", 2);
    const draft = storeDraft(index, { repo: "acme/app", branch: "main" });
    expect(index.knownIds("acme/app", [id(1), id(2), draft.id, "nope"])).toEqual(
      new Set([id(1), draft.id]),
    );
    expect(index.knownIds("acme/app", [])).toEqual(new Set());
  });
});

describe("entry ages (migration 7)", () => {
  it("are set when an id is first stored and kept through a new version, a forget and a re-open", () => {
    const file = join(dir, "index.db");
    const index = openAt(file);
    put(index, "r", 1);
    clock = 2_000_000;
    index.putFile({
      repo: "r",
      path: "k/e1.md",
      blobSha: SHA(99),
      parsed: parsed(id(1), "New."),
      diagnostics: [],
    });
    put(index, "r", 2);
    expect(index.usage("r", { limit: 10 }).map((r) => r.firstSeenAt)).toEqual([
      1_000_000, 2_000_000,
    ]);
    index.forgetRepository("r");
    clock = 3_000_000;
    put(index, "r", 1);
    expect(index.usage("r", { limit: 10 })[0]?.firstSeenAt).toBe(1_000_000);
    index.close();
    expect(openAt(file).usage("r", { limit: 10 })[0]?.firstSeenAt).toBe(1_000_000);
  });

  it("a draft turned file keeps its age and its counters", () => {
    const index = openAt();
    const draft = storeDraft(index, { repo: "acme/app", branch: "main" });
    index.recordShown(
      "ann",
      [draft.id].map((id: string) => ({ repo: "acme/app", id })),
      5,
    );
    clock = 9_000_000;
    index.putFile({
      repo: "acme/app",
      path: `.gitriver/knowledge/${draft.id}.md`,
      blobSha: SHA(7),
      parsed: parsed(draft.id, "Now a file."),
      diagnostics: [],
    });
    const rows = index.usage("acme/app", { limit: 10 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: draft.id, firstSeenAt: 1_000_000, shown: 1 });
    expect(rows[0]?.draftBranch).toBeUndefined();
  });

  it("the migration gives stored entries its own time, or an earlier one a counter knows", () => {
    const file = join(dir, "old.db");
    const index = openAt(file);
    put(index, "r", 1);
    put(index, "r", 2);
    index.recordShown(
      "ann",
      [id(1)].map((id: string) => ({ repo: "acme/app", id })),
      42,
    );
    index.close();
    // Back to schema 6: no ages yet.
    const db = openSqliteDatabase(file);
    // Migration 9's receipts go too, so that it runs again after 7 and 8.
    db.exec("DROP TABLE entry_ages; DROP TABLE receipt_hits; DROP TABLE receipts");
    db.pragma("user_version = 6");
    db.close();
    const before = Date.now();
    const ages = openAt(file)
      .usage("r", { limit: 10 })
      .map((r) => r.firstSeenAt);
    expect(ages[0]).toBe(42);
    expect(ages[1]).toBeGreaterThanOrEqual(before);
    expect(ages[1]).toBeLessThanOrEqual(Date.now());
  });
});
