import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeDiagnostic } from "../core/entry/diagnostic.js";
import type { ContractClause, ParsedEntry } from "../core/entry/entry.js";
import { stemToken } from "../core/text/stem.js";
import { type EntryIndex, openIndex } from "./entry-index.js";

const ID1 = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const ID2 = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
const SHA = (n: number) => n.toString(16).padStart(40, "0");

function parsed(id: string, body: string, contract: ContractClause[] = []): ParsedEntry {
  const known = contract.filter((c) => c.mechanism === "on_query" || c.mechanism === "on_tool");
  return {
    entry: { id, contract, origin: "human", links: [], unknownKeys: {}, body },
    summary: body.split("\n\n")[0] ?? "",
    reachable: known.length > 0 && known.length === contract.length,
    unmetMechanisms: contract.filter((c) => !known.includes(c)).map((c) => c.mechanism),
  };
}

let dir: string;
let index: EntryIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-index-"));
  index = openIndex(join(dir, "index.db"));
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("EntryIndex files", () => {
  it("stores entries and skipped files, lists them by repository", () => {
    index.putFile({
      repo: "r",
      path: "a.md",
      blobSha: SHA(1),
      parsed: parsed(ID1, "Alpha"),
      diagnostics: [],
    });
    const bad = makeDiagnostic("invalid_id", { path: "b.md", line: 2, params: { value: "x" } });
    expect(index.putFile({ repo: "r", path: "b.md", blobSha: SHA(2), diagnostics: [bad] })).toEqual(
      { stored: "skipped" },
    );
    index.putFile({ repo: "other", path: "a.md", blobSha: SHA(3), diagnostics: [] });
    expect(index.listFiles("r")).toEqual(
      new Map([
        ["a.md", SHA(1)],
        ["b.md", SHA(2)],
      ]),
    );
    expect(index.fileReports("r")).toEqual([
      { repo: "r", path: "a.md", blobSha: SHA(1), entryId: ID1, diagnostics: [] },
      { repo: "r", path: "b.md", blobSha: SHA(2), entryId: null, diagnostics: [bad] },
    ]);
    expect(index.fileReports().map((f) => `${f.repo}:${f.path}`)).toEqual([
      "other:a.md",
      "r:a.md",
      "r:b.md",
    ]);
    expect(index.entryCount()).toBe(1);
  });

  it("replaces a file's entry on put and drops it on delete", () => {
    index.putFile({
      repo: "r",
      path: "a.md",
      blobSha: SHA(1),
      parsed: parsed(ID1, "Alpha one"),
      diagnostics: [],
    });
    index.putFile({
      repo: "r",
      path: "a.md",
      blobSha: SHA(2),
      parsed: parsed(ID1, "Alpha two"),
      diagnostics: [],
    });
    expect(index.getEntry(ID1)?.body).toBe("Alpha two");
    expect(index.listFiles("r").get("a.md")).toBe(SHA(2));
    // now the file turns bad: the entry goes, the report stays
    index.putFile({ repo: "r", path: "a.md", blobSha: SHA(3), diagnostics: [] });
    expect(index.getEntry(ID1)).toBeUndefined();
    expect(index.deleteFile("r", "a.md")).toBe(true);
    expect(index.deleteFile("r", "a.md")).toBe(false);
    expect(index.listFiles("r").size).toBe(0);
  });

  it("keeps one file per id within a source: a second holder is skipped with duplicate_id", () => {
    index.putFile({
      repo: "r",
      path: "a.md",
      blobSha: SHA(1),
      parsed: parsed(ID1, "A"),
      diagnostics: [],
    });
    const result = index.putFile({
      repo: "r",
      path: "b.md",
      blobSha: SHA(2),
      parsed: parsed(ID1, "B"),
      diagnostics: [],
    });
    expect(result).toEqual({ stored: "skipped", duplicateOf: { repo: "r", path: "a.md" } });
    expect(index.getEntry(ID1)?.path).toBe("a.md");
    const report = index.fileReports("r").find((f) => f.path === "b.md");
    expect(report?.entryId).toBeNull();
    expect(report?.diagnostics.map((d) => d.code)).toEqual(["duplicate_id"]);
    expect(index.idOwners("r", [ID1, ID2])).toEqual(new Map([[ID1, { repo: "r", path: "a.md" }]]));
    // another source holding the same id is kept beside it: a clash, never a shadow
    expect(
      index.putFile({
        repo: "r2",
        path: "b.md",
        blobSha: SHA(2),
        parsed: parsed(ID1, "B"),
        diagnostics: [],
      }),
    ).toEqual({ stored: "entry" });
    expect(index.entriesById(ID1).map((e) => `${e.repo}:${e.path}`)).toEqual(["r:a.md", "r2:b.md"]);
    expect(index.clashes("r2")).toEqual([
      { id: ID1, path: "b.md", otherRepo: "r", otherPath: "a.md" },
    ]);
    index.deleteFile("r2", "b.md");
    index.deleteFile("r", "b.md");
    // a rename: the old path goes, the new one takes the id
    index.transaction(() => {
      index.deleteFile("r", "a.md");
      index.putFile({
        repo: "r",
        path: "c.md",
        blobSha: SHA(1),
        parsed: parsed(ID1, "A"),
        diagnostics: [],
      });
    });
    expect(index.idOwners("r", [ID1]).get(ID1)).toEqual({ repo: "r", path: "c.md" });
  });

  it("returns the whole entry with its report", () => {
    const note = makeDiagnostic("unknown_mechanism", {
      path: "a.md",
      params: { mechanism: "on_path" },
    });
    const p = parsed(ID1, "Body text\n\nmore", [
      { mechanism: "on_query", params: { words: ["x"] } },
      { mechanism: "on_path", params: { glob: "*" } },
    ]);
    p.entry.links = [ID2];
    p.entry.summary = "Override";
    p.entry.unknownKeys = { extra: [1, "two"] };
    p.summary = "Override";
    index.putFile({ repo: "r", path: "a.md", blobSha: SHA(1), parsed: p, diagnostics: [note] });
    expect(index.getEntry(ID1)).toEqual({
      id: ID1,
      repo: "r",
      path: "a.md",
      blobSha: SHA(1),
      origin: "human",
      links: [ID2],
      summary: "Override",
      summaryOverride: "Override",
      body: "Body text\n\nmore",
      contract: p.entry.contract,
      unknownKeys: { extra: [1, "two"] },
      reachable: false,
      unmetMechanisms: ["on_path"],
      diagnostics: [note],
    });
  });

  it("fills contract tables for reachable entries only", () => {
    const words = [{ mechanism: "on_query", params: { words: ["deploy"] } }];
    index.putFile({
      repo: "r",
      path: "a.md",
      blobSha: SHA(1),
      parsed: parsed(ID1, "A", words),
      diagnostics: [],
    });
    const unreachable = parsed(ID2, "B", words);
    unreachable.reachable = false;
    index.putFile({
      repo: "r",
      path: "b.md",
      blobSha: SHA(2),
      parsed: unreachable,
      diagnostics: [],
    });
    expect(index.contracts.fire({ keys: [["deploy", 0]], stems: ["deploy"] })).toBe(1);
    expect(index.contracts.best(10, []).map((h) => h.entryId)).toEqual([ID1]);
    index.deleteFile("r", "a.md");
    expect(index.contracts.fire({ keys: [["deploy", 0]], stems: ["deploy"] })).toBe(0);
  });

  it("rolls a transaction back on a throw", () => {
    expect(() =>
      index.transaction(() => {
        index.putFile({ repo: "r", path: "a.md", blobSha: SHA(1), diagnostics: [] });
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(index.listFiles("r").size).toBe(0);
  });
});

describe("EntryIndex counters", () => {
  it("counts shown and read per user with first and last times", () => {
    index.countShown(
      "ann",
      [ID1, ID2].map((id: string) => ({ repo: "acme/app", id })),
      1000,
    );
    index.countShown(
      "ann",
      [ID1].map((id: string) => ({ repo: "acme/app", id })),
      2000,
    );
    index.countRead("ann", { repo: "acme/app", id: ID1 }, 1500);
    index.countShown(
      "bob",
      [ID1].map((id: string) => ({ repo: "acme/app", id })),
      3000,
    );
    expect(index.stats("ann")).toEqual([
      {
        user: "ann",
        repo: "acme/app",
        entryId: ID1,
        shown: 2,
        read: 1,
        firstShownAt: 1000,
        lastShownAt: 2000,
        firstReadAt: 1500,
        lastReadAt: 1500,
      },
      {
        user: "ann",
        repo: "acme/app",
        entryId: ID2,
        shown: 1,
        read: 0,
        firstShownAt: 1000,
        lastShownAt: 1000,
        firstReadAt: null,
        lastReadAt: null,
      },
    ]);
    expect(index.stats().map((row) => `${row.user}:${row.shown}`)).toEqual([
      "ann:2",
      "ann:1",
      "bob:1",
    ]);
  });

  it("reads and sets the page cache limit in KiB; refuses a limit that is not positive", () => {
    expect(index.pageCacheKib()).toBe(8192);
    expect(index.pageCacheKib(16384)).toBe(8192);
    expect(index.pageCacheKib()).toBe(16384);
    expect(() => index.pageCacheKib(0)).toThrow(expect.objectContaining({ code: "invalid_input" }));
    expect(index.pageCacheKib(8192)).toBe(16384);
  });
});

describe("EntryIndex reads a push re-runs (migration 11)", () => {
  const idOf = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
  const put = (repo: string, path: string, n: number, id = idOf(n)) =>
    index.putFile({
      repo,
      path,
      blobSha: SHA(n),
      parsed: parsed(id, `Entry ${n}`),
      diagnostics: [],
    });
  const flags = () =>
    index.withDatabase((db) =>
      db.prepare("SELECT repo || ':' || path, skipped FROM files ORDER BY 1").raw().all(),
    );

  it("flags exactly the files stored without an entry, as they come and go", () => {
    put("r", "a.md", 1);
    put("r", "b.md", 2, idOf(1)); // a duplicate id: kept as skipped
    index.putFile({ repo: "r", path: "c.md", blobSha: SHA(3), diagnostics: [] }); // wrong
    expect(flags()).toEqual([
      ["r:a.md", 0],
      ["r:b.md", 1],
      ["r:c.md", 1],
    ]);
    expect([...index.skippedReports("r").keys()].sort()).toEqual(["b.md", "c.md"]);
    // The holder goes; the skipped file becomes an entry; the wrong one is fixed.
    index.deleteFile("r", "a.md");
    put("r", "b.md", 2, idOf(1));
    put("r", "c.md", 3);
    expect(flags()).toEqual([
      ["r:b.md", 0],
      ["r:c.md", 0],
    ]);
    expect(index.skippedReports("r").size).toBe(0);
    // An entry made wrong by a new version is flagged again.
    index.putFile({ repo: "r", path: "b.md", blobSha: SHA(9), diagnostics: [] });
    expect(flags()).toEqual([
      ["r:b.md", 1],
      ["r:c.md", 0],
    ]);
  });

  it("finds the same clashes walking from either side, whichever holds fewer entries", () => {
    // "big" holds 1,500 entries, "small" 3, of which 2 share ids with "big" and one with "zed".
    index.transaction(() => {
      for (let n = 1; n <= 1_500; n++) put("big", `k/${n}.md`, n);
    });
    put("small", "s/1.md", 7);
    put("small", "s/2.md", 1_200);
    put("small", "s/3.md", 5_000);
    put("zed", "z/1.md", 5_000);
    const expected = [
      { id: idOf(7), path: "s/1.md", otherRepo: "big", otherPath: "k/7.md" },
      { id: idOf(1_200), path: "s/2.md", otherRepo: "big", otherPath: "k/1200.md" },
      { id: idOf(5_000), path: "s/3.md", otherRepo: "zed", otherPath: "z/1.md" },
    ];
    expect(index.clashes("small")).toEqual(expected);
    // From the large side the others are few: the same rows as the direct walk gives.
    expect(index.clashes("big")).toEqual([
      { id: idOf(1_200), path: "k/1200.md", otherRepo: "small", otherPath: "s/2.md" },
      { id: idOf(7), path: "k/7.md", otherRepo: "small", otherPath: "s/1.md" },
    ]);
    expect(index.clashes("zed")).toEqual([
      { id: idOf(5_000), path: "z/1.md", otherRepo: "small", otherPath: "s/3.md" },
    ]);
    expect(index.clashes("nobody")).toEqual([]);
  });

  it("keeps the stems it computed while storing text, for the next process", () => {
    index.putFile({
      repo: "r",
      path: "a.md",
      blobSha: SHA(1),
      parsed: parsed(ID1, "Quixotically zygomorphic"),
      diagnostics: [],
    });
    const stems = index.withDatabase((db) =>
      db
        .prepare("SELECT token, stem FROM stems WHERE token IN ('quixotically', 'zygomorphic')")
        .raw()
        .all(),
    );
    expect(Object.fromEntries(stems as [string, string][])).toEqual({
      quixotically: stemToken("quixotically"),
      zygomorphic: stemToken("zygomorphic"),
    });
  });
});
