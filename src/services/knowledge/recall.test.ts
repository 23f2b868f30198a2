import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ContractClause, ParsedEntry } from "../../core/entry/entry.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import { getEntry } from "./get-entry.js";
import { ANSWER_BYTE_BUDGET } from "./hit-page.js";
import { recall } from "./recall.js";
import { search } from "./search.js";

/** A UUIDv7-shaped id from a number (ordering follows `n`). */
const idOf = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;

/** A parsed entry built by hand: summary = first paragraph; reachable = known mechanisms only. */
function parsed(id: string, body: string, contract: ContractClause[] = []): ParsedEntry {
  const known = contract.filter((c) => c.mechanism === "on_query" || c.mechanism === "on_tool");
  return {
    entry: { id, contract, origin: "human", links: [], unknownKeys: {}, body },
    summary: (body.split("\n\n")[0] ?? "").replace(/\s+/g, " ").trim(),
    reachable: known.length > 0 && known.length === contract.length,
    unmetMechanisms: contract.filter((c) => !known.includes(c)).map((c) => c.mechanism),
  };
}
const onQuery = (...words: string[]): ContractClause => ({
  mechanism: "on_query",
  params: { words },
});
const onTool = (name: string): ContractClause => ({ mechanism: "on_tool", params: { name } });

let dir: string;
let index: EntryIndex;
let n = 0;
function put(body: string, contract: ContractClause[] = [], target: EntryIndex = index): string {
  n += 1;
  const id = idOf(n);
  target.putFile({
    repo: "repo",
    path: `.gitriver/knowledge/${n}.md`,
    blobSha: "a".repeat(40),
    parsed: parsed(id, body, contract),
    diagnostics: [],
  });
  return id;
}
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    if (error instanceof LoreError) return error.code;
    throw error;
  }
  return undefined;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-recall-"));
  index = openIndex(join(dir, "index.db"));
  n = 0;
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("case 6: ё, case and word forms on both sides", () => {
  it("finds «Ёлка зелёная стоит у ДОМА» by елка, ЁЛКА, зеленая, дома", () => {
    const id = put("Ёлка зелёная стоит у ДОМА");
    put("Something else entirely");
    for (const query of ["елка", "ЁЛКА", "зеленая", "дома"]) {
      expect(recall(index, { query, user: "u" }).hits.map((h) => h.id)).toEqual([id]);
      expect(search(index, { query }).hits.map((h) => h.id)).toEqual([id]);
    }
  });
});

describe("case 7: punctuation and operators are never FTS5 syntax", () => {
  it("finds the entry by pre-receive, don't, C++, (draft)", () => {
    const id = put("Use a pre-receive hook; don't commit in it. C++ notes (draft).");
    put("Nothing to see here");
    for (const query of ["pre-receive", "don't", "C++", "(draft)"]) {
      expect(recall(index, { query, user: "u" }).hits.map((h) => h.id)).toEqual([id]);
      expect(search(index, { query }).hits.map((h) => h.id)).toEqual([id]);
    }
  });

  it("answers AND, NEAR, a lone quote and an empty query with no hits or empty_query", () => {
    put("Use a pre-receive hook; don't commit in it. C++ notes (draft).");
    for (const query of ["AND", "NEAR", '"', ""]) {
      for (const run of [
        () => recall(index, { query, user: "u" }),
        () => search(index, { query }),
      ]) {
        const code = codeOf(run);
        if (code === undefined) expect(run().hits).toEqual([]);
        else expect(code).toBe("empty_query");
      }
    }
  });
});

describe("case 10: 300 entries of ~4 KB containing git", () => {
  it("answers limit hits with summaries, total 300, a cursor, well under 40 KB; pages through all", () => {
    const filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(70);
    index.transaction(() => {
      for (let i = 0; i < 300; i++) {
        put(`Entry ${i} about git usage and branches.\n\n${filler}\n\nMore on git: ${filler}`);
      }
    });
    const first = recall(index, { query: "git", user: "u" });
    expect(first.hits).toHaveLength(10);
    expect(first.total).toBe(300);
    expect(first.next_cursor).not.toBeNull();
    expect(first.hits[0]?.summary).toMatch(/^Entry \d+ about git/);
    expect(Buffer.byteLength(JSON.stringify(first))).toBeLessThan(40 * 1024);
    expect(JSON.stringify(first)).not.toContain("Lorem");

    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = recall(index, {
        query: "git",
        user: "u",
        limit: 50,
        ...(cursor ? { cursor } : {}),
      });
      expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThanOrEqual(ANSWER_BYTE_BUDGET);
      for (const hit of page.hits) {
        expect(seen.has(hit.id)).toBe(false);
        seen.add(hit.id);
      }
      cursor = page.next_cursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined && pages < 100);
    expect(seen.size).toBe(300);
  });
});

describe("recall by contract", () => {
  it("fires on_query through word forms and lists contract hits before text hits", () => {
    const textOnly = put("How to откатить a release: run the rollback job.");
    const rollback = put("Rollbacks: use the pipeline.", [onQuery("откат")]);
    const deploy = put("Deploy checklist", [onQuery("deploy")]);
    const unfold = put("Развёртывание сервиса", [onQuery("развёртывание")]);
    const answer = recall(index, { query: "как откатить", user: "u" });
    expect(answer.hits.map((h) => h.id)).toEqual([rollback, textOnly]);
    expect(answer.hits[0]?.why).toEqual([{ kind: "on_query", word: "откат" }]);
    expect(answer.hits[1]?.why).toEqual([{ kind: "text" }]);
    expect(answer.total).toBe(2);
    expect(recall(index, { query: "deploying", user: "u" }).hits[0]?.id).toBe(deploy);
    expect(recall(index, { query: "ошибка развертывания", user: "u" }).hits[0]?.id).toBe(unfold);
  });

  it("fires a word of several tokens only on the contiguous sequence", () => {
    const id = put("Server hooks", [onQuery("pre-receive hook", "hooks")]);
    const both = recall(index, { query: "the pre-receive hook failed", user: "u" });
    expect(both.hits[0]).toMatchObject({
      id,
      why: [
        { kind: "on_query", word: "hooks" },
        { kind: "on_query", word: "pre-receive hook" },
        { kind: "text" },
      ],
      score: 3.6667,
    });
    const one = recall(index, { query: "hook pre-receive", user: "u" });
    expect(one.hits[0]?.why).toEqual([{ kind: "on_query", word: "hooks" }, { kind: "text" }]);
    expect(recall(index, { query: "receive", user: "u" }).hits).toEqual([]);
  });

  it("merges why for an entry matching both contract and text", () => {
    const id = put("Deploy with care: deploys break on Fridays.", [onQuery("deploy")]);
    const answer = recall(index, { query: "deploy", user: "u" });
    expect(answer.hits).toHaveLength(1);
    expect(answer.total).toBe(1);
    expect(answer.hits[0]).toMatchObject({
      id,
      why: [{ kind: "on_query", word: "deploy" }, { kind: "text" }],
      score: 1.5,
    });
    expect(answer.hits[0]).not.toHaveProperty("body");
  });

  it("pages through contract hits that have no text match", () => {
    index.transaction(() => {
      for (let i = 0; i < 60; i++) put(`Shell note ${i}.`, [onTool("Bash")]);
    });
    const first = recall(index, { tool: "Bash", user: "u", limit: 50 });
    expect(first.hits).toHaveLength(50);
    expect(first.total).toBe(60);
    expect(first.next_cursor).not.toBeNull();
    const second = recall(index, {
      tool: "Bash",
      user: "u",
      limit: 50,
      cursor: first.next_cursor as string,
    });
    expect(second.hits).toHaveLength(10);
    expect(second.next_cursor).toBeNull();
    const ids = new Set([...first.hits, ...second.hits].map((hit) => hit.id));
    expect(ids.size).toBe(60);
  });

  it("fires on_tool on the exact name, alone or with a query", () => {
    const bash = put("Shell commands run in a sandbox.", [onTool("Bash")]);
    put("Lower-case bash is another tool.", [onTool("bash")]);
    expect(recall(index, { tool: "Bash", user: "u" }).hits.map((h) => h.id)).toEqual([bash]);
    const both = recall(index, { tool: "Bash", query: "sandbox", user: "u" });
    expect(both.hits.map((h) => h.id)).toEqual([bash]);
    expect(both.hits[0]?.why).toEqual([{ kind: "on_tool", name: "Bash" }, { kind: "text" }]);
    expect(recall(index, { tool: "Grep", user: "u" }).hits).toEqual([]);
  });

  it("answers a repeated recall from every change of the contracts, by this connection or another", () => {
    const other = openIndex(join(dir, "index.db"));
    try {
      const ids = (input: { tool?: string; query?: string }) =>
        recall(index, { ...input, user: "u", countShown: false })
          .hits.map((h) => h.id)
          .sort();
      const first = put("Run the shell carefully.", [onTool("Bash"), onQuery("sandbox")]);
      expect(ids({ tool: "Bash" })).toEqual([first]);
      expect(ids({ tool: "Bash" })).toEqual([first]); // the kept lookup
      expect(ids({ query: "sandbox" })).toEqual([first]);
      // Another process adds one and this connection takes the first away.
      const second = put("Quote every argument.", [onTool("Bash"), onQuery("sandbox")], other);
      expect(ids({ tool: "Bash" })).toEqual([first, second].sort());
      index.deleteFile("repo", ".gitriver/knowledge/1.md");
      expect(ids({ tool: "Bash" })).toEqual([second]);
      expect(ids({ query: "sandbox" })).toEqual([second]);
      // Inside this connection's write transaction its new rows fire before commit.
      index.transaction(() => {
        const third = put("Mind the exit code.", [onTool("Bash")]);
        expect(ids({ tool: "Bash" })).toEqual([second, third].sort());
      });
    } finally {
      other.close();
    }
  });

  it("never fires an unreachable entry's contract; get still returns it", () => {
    const hidden = put("Deploy notes nobody sees by contract.", [
      onQuery("deploy"),
      { mechanism: "on_path", params: { glob: "*" } },
    ]);
    const answer = recall(index, { query: "deploy", user: "u" });
    // findable by text, never through its contract
    expect(answer.hits.map((h) => [h.id, h.why])).toEqual([[hidden, [{ kind: "text" }]]]);
    expect(recall(index, { query: "unrelated", user: "u" }).hits).toEqual([]);
    const entry = getEntry(index, hidden, "u");
    expect(entry.reachable).toBe(false);
    expect(entry.unmet_mechanisms).toEqual(["on_path"]);
    expect(entry.body).toBe("Deploy notes nobody sees by contract.");
  });

  it("counts text matches when contract hits fill the page", () => {
    const hit = put("Deploy checklist", [onQuery("deploy")]);
    const text = put("deploy notes");
    const first = recall(index, { query: "deploy", limit: 1, user: "u" });
    expect(first.hits.map((h) => h.id)).toEqual([hit]);
    expect(first.total).toBe(2);
    const second = recall(index, {
      query: "deploy",
      limit: 1,
      cursor: first.next_cursor ?? "",
      user: "u",
    });
    expect(second.hits.map((h) => h.id)).toEqual([text]);
    expect(second.next_cursor).toBeNull();
  });

  it("ranks entries with more fired triggers first", () => {
    const one = put("A", [onQuery("deploy")]);
    const two = put("B", [onQuery("deploy", "rollback")]);
    expect(recall(index, { query: "deploy rollback", user: "u" }).hits.map((h) => h.id)).toEqual([
      two,
      one,
    ]);
  });
});

describe("recall input", () => {
  it("validates limit, cursor and emptiness", () => {
    put("git notes");
    expect(codeOf(() => recall(index, { user: "u" }))).toBe("empty_query");
    expect(codeOf(() => recall(index, { query: "  ", user: "u" }))).toBe("empty_query");
    for (const limit of [0, 51, 1.5, Number.NaN]) {
      expect(codeOf(() => recall(index, { query: "git", limit, user: "u" }))).toBe("invalid_limit");
    }
    expect(codeOf(() => recall(index, { query: "git", cursor: "nonsense", user: "u" }))).toBe(
      "invalid_cursor",
    );
    for (let i = 0; i < 3; i++) put(`git entry ${i}`);
    const page = recall(index, { query: "git", limit: 1, user: "u" });
    const cursor = page.next_cursor ?? "";
    expect(codeOf(() => recall(index, { query: "branch", cursor, user: "u" }))).toBe(
      "invalid_cursor",
    );
    expect(codeOf(() => search(index, { query: "git", cursor }))).toBe("invalid_cursor");
    expect(recall(index, { query: "GIT", cursor, limit: 1, user: "u" }).hits).toHaveLength(1);
  });

  it("keeps the answer under the byte budget", () => {
    const long = "git ".repeat(120).trim(); // a ~480-byte summary
    index.transaction(() => {
      for (let i = 0; i < 80; i++) put(`${long} ${i}`);
    });
    const answer = recall(index, { query: "git", limit: 50, user: "u" });
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThanOrEqual(ANSWER_BYTE_BUDGET);
    expect(answer.hits.length).toBeLessThan(80);
    expect(answer.next_cursor).not.toBeNull();
  });
});

describe("counters", () => {
  it("counts listed hits as shown and gets as read, per user; search counts nothing", () => {
    const a = put("git alpha");
    const b = put("git beta");
    recall(index, { query: "git", user: "ann", now: 1000 });
    recall(index, { query: "alpha", user: "ann", now: 2000 });
    recall(index, { query: "git", user: "bob", limit: 1, now: 3000 });
    search(index, { query: "git" });
    getEntry(index, a, "bob", 4000);
    expect(codeOf(() => getEntry(index, idOf(999), "bob"))).toBe("entry_not_found");
    const ann = index.stats("ann");
    expect(ann.map((r) => [r.entryId, r.shown, r.read])).toEqual([
      [a, 2, 0],
      [b, 1, 0],
    ]);
    expect(ann[0]).toMatchObject({ firstShownAt: 1000, lastShownAt: 2000 });
    const bob = index.stats("bob");
    expect(bob.reduce((sum, r) => sum + r.shown, 0)).toBe(1);
    expect(bob.find((r) => r.entryId === a)).toMatchObject({ read: 1, firstReadAt: 4000 });
  });
});

describe("rebuild", () => {
  it("gives the same answers after deleting the database and storing the same records", () => {
    const bodies: [string, ContractClause[]][] = [
      ["Deploy checklist for releases", [onQuery("deploy")]],
      ["Как откатить релиз: откат через конвейер", [onQuery("откат")]],
      ["Git hooks: pre-receive and post-receive", [onTool("Bash")]],
      ["Unreachable deploy note", []],
      ["Release notes about deploying on Fridays", [onQuery("release")]],
    ];
    const fill = (target: EntryIndex) => {
      n = 0;
      for (const [body, contract] of bodies) put(body, contract, target);
    };
    const queries = ["deploy", "откатить релиз", "pre-receive", "release deploying", "git"];
    fill(index);
    const before = queries.map((query) => recall(index, { query, user: "u", tool: "Bash" }));
    index.close();
    rmSync(join(dir, "index.db"));
    rmSync(join(dir, "index.db-wal"), { force: true });
    rmSync(join(dir, "index.db-shm"), { force: true });
    index = openIndex(join(dir, "index.db"));
    fill(index);
    const after = queries.map((query) => recall(index, { query, user: "u", tool: "Bash" }));
    expect(after).toEqual(before);
  });
});

describe("large groups of equal rank are ordered by entry id on every page", () => {
  /** Puts an entry under a given id (the file order is not the id order). */
  function putAs(id: string, body: string, contract: ContractClause[] = []): void {
    n += 1;
    index.putFile({
      repo: "repo",
      path: `.gitriver/knowledge/${n}.md`,
      blobSha: "a".repeat(40),
      parsed: parsed(id, body, contract),
      diagnostics: [],
    });
  }
  /** 300 ids, put in a shuffled order; returns them sorted. */
  function putShuffled(body: (i: number) => string, contract: ContractClause[] = []): string[] {
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) {
      const id = idOf(1_000 + ((i * 7919) % 300));
      putAs(id, body(i), contract);
      ids.push(id);
    }
    for (let i = 0; i < 400; i++) put(`filler note number ${i}`);
    return ids.sort();
  }
  /** The ids of the first `pages` pages of a recall. */
  function pagesOf(query: string, limit: number, pages: number): string[] {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < pages; page++) {
      const answer = recall(index, { query, limit, user: "u", ...(cursor ? { cursor } : {}) });
      ids.push(...answer.hits.map((h) => h.id));
      cursor = answer.next_cursor ?? undefined;
    }
    return ids;
  }

  it("300 tied text matches: pages of 10 and of 50 list the smallest ids in order", () => {
    const sorted = putShuffled(() => "pelmidem tally");
    expect(pagesOf("pelmidem", 10, 3)).toEqual(sorted.slice(0, 30));
    expect(pagesOf("pelmidem", 50, 2)).toEqual(sorted.slice(0, 100));
  });

  it("300 contract hits of equal rank: pages list the smallest ids in order", () => {
    const sorted = putShuffled((i) => `unrelated body ${i}`, [onQuery("ключ")]);
    expect(pagesOf("ключ", 10, 3)).toEqual(sorted.slice(0, 30));
    expect(pagesOf("ключ", 50, 2)).toEqual(sorted.slice(0, 100));
  });
});

describe("a one-word query read to its page only", () => {
  it("pages through the same order, scores, total and cursors as the whole ranking", () => {
    // 40 matches of `zebrafish`: several relevances, ties among equal texts, and ids that
    // run against the insertion order (so ties ordered by rowid would differ).
    for (let k = 0; k < 40; k++) {
      const id = idOf(1000 - k);
      const body = `${"zebrafish ".repeat((k % 4) + 1)}${"filler ".repeat(k % 3)}tank`;
      index.putFile({
        repo: "repo",
        path: `.gitriver/knowledge/z${k}.md`,
        blobSha: "a".repeat(40),
        parsed: parsed(id, body),
        diagnostics: [],
      });
    }
    put("nothing about fish here");
    const whole = recall(index, { query: "zebrafish", user: "u", limit: 50, countShown: false });
    expect(whole.total).toBe(40);
    expect(whole.hits).toHaveLength(40);
    expect(whole.next_cursor).toBeNull();
    const shown = (hits: typeof whole.hits) => hits.map((h) => [h.id, h.score]);
    for (const limit of [1, 2, 3, 5, 7, 10]) {
      const seen: (string | number)[][] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 50; pages++) {
        const page = recall(index, {
          query: "zebrafish",
          user: "u",
          limit,
          countShown: false,
          ...(cursor === undefined ? {} : { cursor }),
        });
        expect({ total: page.total, exact: page.total_exact }).toEqual({ total: 40, exact: true });
        seen.push(...shown(page.hits));
        if (page.next_cursor === null) break;
        cursor = page.next_cursor;
      }
      expect(seen).toEqual(shown(whole.hits));
    }
  });
});
