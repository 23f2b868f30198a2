import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROLLBACK, ROLLBACK_ID } from "../../../test/e2e/fixture-entries.js";
import type { KnowledgeRoot } from "../../core/roots/knowledge-roots.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import { indexRoots } from "../indexing/index-roots.js";
import { recall } from "../knowledge/recall.js";
import { recallInRoot, withRoots } from "./recall-roots.js";

let tmp: string;
let index: EntryIndex;
let roots: KnowledgeRoot[];

function put(path: string, text: string): void {
  mkdirSync(dirname(join(tmp, path)), { recursive: true });
  writeFileSync(join(tmp, path), text);
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "lore-recall-roots-"));
  put("notes/knowledge/kubernetes.md", "# Kubernetes\n\nHow I debug a crashing kubernetes pod.\n");
  put(
    "group/knowledge/group/smoke-test-v1.md",
    "# Smoke\n\nThe kubernetes smoke test of the team.\n",
  );
  // A note that is a valid entry: its contract fires.
  put("group/knowledge/rollback.md", ROLLBACK);
  roots = [
    { id: "primary", kind: "primary", path: join(tmp, "notes"), writable: true },
    { id: "Group", kind: "read_only", path: join(tmp, "group"), writable: false },
    { id: "public", kind: "read_only", path: join(tmp, "missing"), writable: false },
  ];
  index = openIndex(join(tmp, "index.db"));
});
afterAll(() => {
  index.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("recall across roots (knowledge roots, seed 003)", () => {
  it("indexes each root's notes; a missing root does not stop the others; runs are incremental", async () => {
    const runs = await indexRoots(index, roots);
    expect(runs.map((r) => [r.root, r.exists, r.entries, r.notes])).toEqual([
      ["primary", true, 0, 1],
      ["Group", true, 1, 1],
      ["public", false, 0, 0],
    ]);
    const again = await indexRoots(index, roots);
    expect(again.map((r) => r.unchanged)).toEqual([1, 2, 0]);
  });

  it("names the root of each hit, full text over every root", () => {
    const answer = withRoots(recall(index, { query: "kubernetes", user: "t" }));
    expect(answer.hits.map((h) => [h.root, h.path]).sort()).toEqual([
      ["group", "group/smoke-test-v1.md"],
      ["primary", "kubernetes.md"],
    ]);
  });

  it("filters by knowledge_root_id; an entry note fires its contract", () => {
    const group = recallInRoot(index, { query: "kubernetes", user: "t", root: "group" });
    expect(group.hits.map((h) => [h.root, h.path])).toEqual([["group", "group/smoke-test-v1.md"]]);
    const fired = recallInRoot(index, { query: "как откатить релиз", user: "t", root: "group" });
    expect(fired.hits[0]).toMatchObject({ id: ROLLBACK_ID, root: "group", path: "rollback.md" });
    expect(fired.hits[0]?.why).toContainEqual({ kind: "on_query", word: "откат" });
    expect(
      recallInRoot(index, { query: "kubernetes", user: "t", root: "primary" }).hits,
    ).toHaveLength(1);
  });
});
