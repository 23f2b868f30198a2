import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContractClause, ParsedEntry } from "../../core/entry/entry.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import type { HitPage, RecallHit } from "./hit-page.js";
import { type RecallInput, recall } from "./recall.js";
import { recallWithin } from "./recall-within.js";

/**
 * A filtered recall is recall (README "How recall matches and ranks"): the same query over
 * several repositories, filtered to some of them (`--repo`, team `/mcp` rights, a root),
 * lists exactly the unfiltered recall's hits of those repositories — same ids, same order,
 * same scores — stop words, the floor on common words and the ranking included.
 */
const REPOS = ["acme/app", "acme/web", "beta/tool", "root:team"] as const;
const idOf = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;

function parsed(id: string, body: string, contract: ContractClause[]): ParsedEntry {
  return {
    entry: { id, contract, origin: "human", links: [], unknownKeys: {}, body },
    summary: (body.split("\n\n")[0] ?? "").replace(/\s+/g, " ").trim(),
    reachable: contract.length > 0,
    unmetMechanisms: [],
  };
}

const RARE = ["rollback", "migration", "deploy", "schema", "cache", "token", "retry", "widget"];
let dir: string;
let index: EntryIndex;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-recall-within-"));
  index = openIndex(join(dir, "index.db"));
  let n = 0;
  for (const [r, repo] of REPOS.entries()) {
    for (let at = 0; at < 24; at++) {
      n += 1;
      const words = [RARE[(at + r) % RARE.length], RARE[(at * 3 + r) % RARE.length]];
      // "service" is in three entries of four (common, not a stop word); "the" and "of" in all.
      const common = at % 4 === 3 ? "" : " service";
      const body = `The ${words.join(" of the ")}${common} note ${at}.\n\nMore of the ${words[0]} text${at % 2 === 0 ? " rollback" : ""}.`;
      const contract: ContractClause[] = [];
      if (at % 3 === 0) contract.push({ mechanism: "on_query", params: { words: [words[1]] } });
      if (at % 5 === 0) contract.push({ mechanism: "on_tool", params: { name: "Bash" } });
      if (at % 7 === 0) {
        contract.push({ mechanism: "on_query", params: { words: ["roll back the schema"] } });
      }
      index.putFile({
        repo,
        path: `.gitriver/knowledge/${n}.md`,
        blobSha: "a".repeat(40),
        parsed: parsed(idOf(n), body, contract),
        diagnostics: [],
      });
    }
  }
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every page of a recall, pages of 7 (so cursors are crossed). */
function allHits(page: (cursor: string | undefined) => HitPage): RecallHit[] {
  const hits: RecallHit[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const answer = page(cursor);
    hits.push(...answer.hits);
    if (answer.next_cursor === null) return hits;
    cursor = answer.next_cursor;
  }
  throw new Error("more than 100 pages");
}

const shape = (hits: RecallHit[]) => hits.map((hit) => [hit.id, hit.repo, hit.score, hit.why]);

const QUERIES: { label: string; input: Omit<RecallInput, "user"> }[] = [
  { label: "one rare word", input: { query: "rollback" } },
  { label: "two rare words", input: { query: "deploy migration" } },
  {
    label: "a common word with a rare one (the common one finds nothing alone)",
    input: { query: "service cache" },
  },
  { label: "a common word alone (searched: nothing rarer)", input: { query: "service" } },
  { label: "a prefix", input: { query: "migr*" } },
  { label: "a phrase of a contract", input: { query: "roll back the schema" } },
  { label: "a tool only", input: { tool: "Bash" } },
  { label: "a query and a tool", input: { query: "token retry", tool: "Bash" } },
  { label: "stop words only, found everywhere: no hit", input: { query: "the of" } },
  { label: "a word nowhere", input: { query: "zeppelin" } },
];

const FILTERS: string[][] = [
  ["acme/app"],
  ["acme/web"],
  ["root:team"],
  ["acme/app", "beta/tool"],
  [...REPOS],
  [],
];

describe("recall filtered to some repositories = recall, then filtered", () => {
  for (const { label, input } of QUERIES) {
    it(`${label}: ${JSON.stringify(input)}`, () => {
      const everything = allHits((cursor) =>
        recall(index, {
          ...input,
          limit: 7,
          user: "u",
          countShown: false,
          ...(cursor ? { cursor } : {}),
        }),
      );
      for (const repos of FILTERS) {
        const filtered = allHits((cursor) =>
          recallWithin(index, {
            ...input,
            limit: 7,
            user: "u",
            countShown: false,
            repos,
            ...(cursor ? { cursor } : {}),
          }),
        );
        const expected = everything.filter((hit) => repos.includes(hit.repo));
        expect(shape(filtered), `${label} within ${repos.join(",")}`).toEqual(shape(expected));
        const first = recallWithin(index, {
          ...input,
          limit: 50,
          user: "u",
          countShown: false,
          repos,
        });
        expect(first.total).toBe(expected.length);
        // A root's notes name their root.
        for (const hit of filtered) {
          expect(hit.root).toBe(hit.repo === "root:team" ? "team" : undefined);
        }
      }
    });
  }

  it("the fixture is not trivial: the queries find hits in several repositories, the stop words none", () => {
    const found = (query: string) =>
      new Set(
        recall(index, { query, limit: 50, user: "u", countShown: false }).hits.map((h) => h.repo),
      );
    expect(found("rollback").size).toBe(4);
    expect(found("service cache").size).toBe(4);
    expect(recall(index, { query: "the of", user: "u", countShown: false }).total).toBe(0);
    expect(
      recallWithin(index, { query: "the of", user: "u", countShown: false, repos: ["acme/app"] })
        .total,
    ).toBe(0);
    // The common word is dropped when a rarer one is asked: entries holding only it are out.
    const mixed = recallWithin(index, {
      query: "service cache",
      limit: 50,
      user: "u",
      countShown: false,
      repos: ["acme/app"],
    });
    const cacheOnly = recallWithin(index, {
      query: "cache",
      limit: 50,
      user: "u",
      countShown: false,
      repos: ["acme/app"],
    });
    expect(new Set(mixed.hits.map((h) => h.id))).toEqual(new Set(cacheOnly.hits.map((h) => h.id)));
  });
});
