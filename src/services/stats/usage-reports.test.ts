/**
 * The stats reports over a real SQLite index (seed 004 "Интерфейс"): `stats/team` has a row
 * for every entry, zeros for one never shown, drafts' rows marked; `stats/me` only the
 * caller's; `stats/dead` finds each ailment with the thresholds at the boundary (exactly
 * `min_shown`, exactly `min_age_days`) and echoes the ones applied; the 1,000 cap answers
 * `partial: "truncated"`; an entry that needs a mechanism this version lacks is
 * `unreachable` with `unmet_mechanisms`, and after an upgrade that knows it, reachable
 * again without a rebuild and without its file changing («оживает сама»).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../../../test/helpers/make-repo.js";
import { storeDraft } from "../../../test/helpers/store-drafts.js";
import { openGitRepo } from "../../adapters/git-cli/git-cli-repo.js";
import type { ContractClause, ParsedEntry } from "../../core/entry/entry.js";
import { isLoreError } from "../../core/errors/lore-error.js";
import { DAY_MS, parseThresholds } from "../../core/stats/dead-memory.js";
import { STATS_CAP } from "../../core/stats/usage-stats.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import { indexRepository } from "../indexing/index-repo.js";
import { reportDead, reportMe, reportTeam, writeQueuedCounts } from "./usage-reports.js";

const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const SHA = (n: number) => n.toString(16).padStart(40, "0");
const T0 = Date.UTC(2026, 0, 1);
const REPO = "acme/app";

function parsed(n: number, reachable = true): ParsedEntry {
  const contract: ContractClause[] = reachable
    ? [{ mechanism: "on_query", params: { words: ["deploy"] } }]
    : [{ mechanism: "on_path", params: { glob: "src/**" } }];
  return {
    entry: { id: id(n), contract, origin: "human", links: [], unknownKeys: {}, body: `E${n}.` },
    summary: `Entry ${n}.`,
    reachable,
    unmetMechanisms: reachable ? [] : ["on_path"],
  };
}

let dir: string;
let clock: number;
let index: EntryIndex;
let repo: TestRepo | undefined;
const put = (n: number, reachable = true) =>
  index.putFile({
    repo: REPO,
    path: `.gitriver/knowledge/e${String(n).padStart(5, "0")}.md`,
    blobSha: SHA(n),
    parsed: parsed(n, reachable),
    diagnostics: [],
  });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-reports-"));
  clock = T0;
  index = openIndex(join(dir, "index.db"), { now: () => clock });
});
afterEach(async () => {
  index.close();
  await repo?.cleanup();
  repo = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe("reportTeam and reportMe", () => {
  it("team: every entry and draft, zeros for one never shown; me: only mine", () => {
    put(1);
    put(2);
    const draft = storeDraft(index, { repo: REPO, branch: "feature/x" });
    index.recordShown(
      "ann",
      [id(1)].map((id: string) => ({ repo: REPO, id })),
      T0 + 1_000,
    );
    index.recordShown(
      "bob",
      [id(1), draft.id].map((id: string) => ({ repo: REPO, id })),
      T0 + 2_000,
    );
    index.recordRead("bob", { repo: REPO, id: id(1) }, T0 + 3_000);
    expect(reportTeam(index, REPO)).toEqual({
      items: [
        {
          id: draft.id,
          path: `.gitriver/knowledge/${draft.id}.md`,
          summary: expect.any(String),
          shown: 1,
          read: 0,
          last_shown_at: new Date(T0 + 2_000).toISOString(),
          last_read_at: null,
          draft: true,
          branch: "feature/x",
        },
        {
          id: id(1),
          path: ".gitriver/knowledge/e00001.md",
          summary: "Entry 1.",
          shown: 2,
          read: 1,
          last_shown_at: new Date(T0 + 2_000).toISOString(),
          last_read_at: new Date(T0 + 3_000).toISOString(),
        },
        {
          id: id(2),
          path: ".gitriver/knowledge/e00002.md",
          summary: "Entry 2.",
          shown: 0,
          read: 0,
          last_shown_at: null,
          last_read_at: null,
        },
      ],
    });
    const mine = reportMe(index, REPO, "ann");
    expect(mine).toEqual({
      items: [
        {
          id: id(1),
          path: ".gitriver/knowledge/e00001.md",
          summary: "Entry 1.",
          shown: 1,
          read: 0,
          last_shown_at: new Date(T0 + 1_000).toISOString(),
          last_read_at: null,
        },
      ],
    });
    expect(reportMe(index, REPO, "nobody")).toEqual({ items: [] });
  });

  it("caps at 1,000 rows with partial: truncated; exactly 1,000 is complete", () => {
    for (let n = 1; n <= STATS_CAP; n++) put(n);
    index.recordShown(
      "ann",
      Array.from({ length: STATS_CAP }, (_, i) => id(i + 1)).map((id: string) => ({
        repo: REPO,
        id,
      })),
      T0,
    );
    const whole = reportTeam(index, REPO);
    expect(whole.items).toHaveLength(1_000);
    expect("partial" in whole).toBe(false);
    expect("partial" in reportMe(index, REPO, "ann")).toBe(false);
    put(STATS_CAP + 1);
    index.recordShown(
      "ann",
      [id(STATS_CAP + 1)].map((id: string) => ({ repo: REPO, id })),
      T0,
    );
    const cut = reportTeam(index, REPO);
    expect(cut.items).toHaveLength(1_000);
    expect(cut.partial).toBe("truncated");
    expect(cut.items[999]?.id).toBe(id(1_000));
    expect(reportMe(index, REPO, "ann")).toMatchObject({ partial: "truncated" });
    const dead = reportDead(index, REPO, { minShown: 1 }, T0);
    expect(dead.items).toHaveLength(1_000);
    expect(dead.partial).toBe("truncated");
  });
});

describe("reportDead", () => {
  it("finds each ailment with the thresholds exactly at the boundary", () => {
    put(1); // shown exactly min_shown, never read: shown_not_read
    put(2); // shown min_shown - 1: alive
    put(3); // shown min_shown and read once: alive
    put(4, false); // unreachable, even though shown and read
    put(5); // never shown, first seen exactly min_age_days ago: never_shown
    clock = T0 + 1;
    put(6); // never shown, one ms younger than min_age_days: alive
    const five = (n: number) => Array.from({ length: 5 }, () => id(n));
    index.recordShown(
      "ann",
      [...five(1), ...five(3), id(4)].map((id: string) => ({ repo: REPO, id })),
      T0 + 10,
    );
    index.recordShown(
      "ann",
      five(2)
        .slice(1)
        .map((id: string) => ({ repo: REPO, id })),
      T0 + 10,
    );
    index.recordRead("bob", { repo: REPO, id: id(3) }, T0 + 20);
    index.recordRead("bob", { repo: REPO, id: id(4) }, T0 + 20);
    const now = T0 + 7 * DAY_MS;
    const answer = reportDead(index, REPO, { minShown: 5, minAgeDays: 7 }, now);
    expect(answer.min_shown).toBe(5);
    expect(answer.min_age_days).toBe(7);
    expect("partial" in answer).toBe(false);
    expect(answer.items.map((row) => [row.id, row.ailment])).toEqual([
      [id(1), "shown_not_read"],
      [id(4), "unreachable"],
      [id(5), "never_shown"],
    ]);
    expect(answer.items[1]).toMatchObject({ unmet_mechanisms: ["on_path"], shown: 1, read: 1 });
    expect(answer.items[0]?.unmet_mechanisms).toBeUndefined();
    expect(answer.items[2]).toMatchObject({
      first_seen_at: new Date(T0).toISOString(),
      age_days: 7,
      shown: 0,
    });
    // The defaults are applied and echoed: 10 showings, 30 days.
    const defaults = reportDead(index, REPO, {}, now);
    expect([defaults.min_shown, defaults.min_age_days]).toEqual([10, 30]);
    expect(defaults.items.map((row) => row.ailment)).toEqual(["unreachable"]);
    // min_age_days 0: every entry never shown is dead at once.
    expect(
      reportDead(index, REPO, { minShown: 100, minAgeDays: 0 }, T0 + 1).items.map((r) => r.id),
    ).toEqual([id(4), id(5), id(6)]);
  });

  it("refuses thresholds out of range naming the parameter", () => {
    const codeOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        if (isLoreError(error)) return [error.code, error.data.parameter, error.message];
      }
      return undefined;
    };
    expect(codeOf(() => reportDead(index, REPO, { minShown: 0 }, T0))).toEqual([
      "invalid_input",
      "min_shown",
      "invalid input: `min_shown` must be a whole number from 1 to 1000000; got 0",
    ]);
    expect(codeOf(() => parseThresholds({ min_age_days: "36501" }))?.[1]).toBe("min_age_days");
    expect(codeOf(() => parseThresholds({ min_shown: "1.5" }))?.[1]).toBe("min_shown");
    expect(codeOf(() => parseThresholds({ min_shown: "-1" }))?.[1]).toBe("min_shown");
    expect(parseThresholds({ min_shown: "1", min_age_days: "36500" })).toEqual({
      minShown: 1,
      minAgeDays: 36_500,
    });
    expect(parseThresholds({})).toEqual({ minShown: 10, minAgeDays: 30 });
  });

  it("an entry needing a mechanism this version lacks is unreachable; after the upgrade it is not, same file, no rebuild", async () => {
    const tool = `---\nid: ${id(5)}\ncontract:\n  - mechanism: on_tool\n    params:\n      name: run_migration\n---\n\nRun migrations with a lock timeout.\n`;
    repo = await makeRepo({ ".gitriver/knowledge/tool.md": tool });
    const file = join(dir, "upgrade.db");
    const old = openIndex(file, { mechanisms: ["on_query"], now: () => T0 });
    const git = await openGitRepo(repo.dir);
    try {
      await indexRepository({ index: old, repo: git, repoName: REPO, mechanisms: ["on_query"] });
    } finally {
      await git.close();
    }
    expect(reportDead(old, REPO, { minAgeDays: 30 }, T0).items).toEqual([
      expect.objectContaining({ id: id(5), ailment: "unreachable", unmet_mechanisms: ["on_tool"] }),
    ]);
    old.close();
    const upgraded = openIndex(file, { now: () => T0 });
    try {
      expect(reportDead(upgraded, REPO, { minAgeDays: 30 }, T0).items).toEqual([]);
      expect(upgraded.usage(REPO, { limit: 10 })[0]).toMatchObject({
        reachable: true,
        unmetMechanisms: [],
        firstSeenAt: T0,
      });
    } finally {
      upgraded.close();
    }
  });
});

describe("writeQueuedCounts", () => {
  /** Another connection (a refresh, a heal) holding the index's write lock. */
  const holdWriteLock = () => {
    const other = new Database(join(dir, "index.db"), { timeout: 0 });
    other.exec("BEGIN IMMEDIATE");
    return () => {
      other.exec("COMMIT");
      other.close();
    };
  };

  it("waits out another writer, so a report counts what was just shown", async () => {
    put(1);
    const release = holdWriteLock();
    index.countShown("ann", [{ repo: REPO, id: id(1) }], T0);
    // While the lock is held the report alone misses the queued count…
    expect(reportMe(index, REPO, "ann").items).toEqual([]);
    const written = writeQueuedCounts(index);
    setTimeout(release, 50);
    await written;
    // …and after the wait it has it.
    expect(reportMe(index, REPO, "ann").items.map((r) => [r.id, r.shown])).toEqual([[id(1), 1]]);
  });

  it("answers from the stored counts when the writer outlasts the wait, losing none", async () => {
    put(1);
    const release = holdWriteLock();
    index.countShown("ann", [{ repo: REPO, id: id(1) }], T0);
    await writeQueuedCounts(index, 30);
    expect(reportMe(index, REPO, "ann").items).toEqual([]);
    release();
    await writeQueuedCounts(index, 30);
    expect(reportMe(index, REPO, "ann").items.map((r) => [r.id, r.shown])).toEqual([[id(1), 1]]);
  });
});
