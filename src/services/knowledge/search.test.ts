import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ParsedEntry } from "../../core/entry/entry.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import { search } from "./search.js";

const idOf = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
function parsed(id: string, body: string, reachable = true): ParsedEntry {
  return {
    entry: {
      id,
      contract: reachable ? [{ mechanism: "on_query", params: { words: ["zzz"] } }] : [],
      origin: "human",
      links: [],
      unknownKeys: {},
      body,
    },
    summary: body.split("\n\n")[0] ?? "",
    reachable,
    unmetMechanisms: [],
  };
}

let dir: string;
let index: EntryIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-search-"));
  index = openIndex(join(dir, "index.db"));
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("search", () => {
  it("ranks by bm25 with the summary weighing more, lists unreachable entries, counts nothing", () => {
    const inBody = idOf(1);
    const inSummary = idOf(2);
    const unreachable = idOf(3);
    index.putFile({
      repo: "r",
      path: "1.md",
      blobSha: "0".repeat(40),
      parsed: parsed(inBody, "Notes\n\nwe migrate the schema"),
      diagnostics: [],
    });
    index.putFile({
      repo: "r",
      path: "2.md",
      blobSha: "0".repeat(40),
      parsed: parsed(inSummary, "Schema migrations\n\nhow to run them"),
      diagnostics: [],
    });
    index.putFile({
      repo: "r",
      path: "3.md",
      blobSha: "0".repeat(40),
      parsed: parsed(unreachable, "Other\n\nan old migration", false),
      diagnostics: [],
    });
    index.putFile({
      repo: "r",
      path: "4.md",
      blobSha: "0".repeat(40),
      parsed: parsed(idOf(4), "Unrelated\n\nnothing here"),
      diagnostics: [],
    });
    const answer = search(index, { query: "migrations" });
    expect(answer.hits[0]?.id).toBe(inSummary);
    expect(answer.hits.map((h) => h.id).sort()).toEqual([inBody, inSummary, unreachable]);
    expect(answer.total).toBe(3);
    expect(answer.total_exact).toBe(true);
    expect(answer.next_cursor).toBeNull();
    expect(answer.hits.every((h) => h.why.length === 1 && h.why[0]?.kind === "text")).toBe(true);
    expect(answer.hits[0]?.score).toBeGreaterThan(answer.hits[1]?.score ?? 0);
    expect(index.stats()).toEqual([]);
  });

  it("matches a prefix on the stem and pages with a cursor", () => {
    for (let i = 1; i <= 5; i++) {
      index.putFile({
        repo: "r",
        path: `${i}.md`,
        blobSha: "0".repeat(40),
        parsed: parsed(idOf(i), `Deploying service ${i}`),
        diagnostics: [],
      });
    }
    const first = search(index, { query: "deplo*", limit: 2 });
    expect(first.total).toBe(5);
    const second = search(index, { query: "deplo*", limit: 2, cursor: first.next_cursor ?? "" });
    const third = search(index, { query: "deplo*", limit: 2, cursor: second.next_cursor ?? "" });
    const ids = [...first.hits, ...second.hits, ...third.hits].map((h) => h.id);
    expect(new Set(ids).size).toBe(5);
    expect(third.next_cursor).toBeNull();
  });
});
