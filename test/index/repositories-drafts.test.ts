import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type EntryIndex, openIndex } from "../../src/index/entry-index.js";
import { storeDraft } from "../helpers/store-drafts.js";

// `lore repos` counts a source's drafts (its `drafts` column): those of that repository in
// this index, delivered or not; other repositories' drafts are not counted.

describe("the repositories listing counts each repository's drafts", () => {
  let dir: string;
  let index: EntryIndex;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "lore-repos-drafts-"));
    index = openIndex(join(dir, "index.db"));
  });
  afterEach(async () => {
    index.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("counts drafts per repository, delivered ones too", () => {
    for (const repo of ["acme/app", "acme/lib"]) {
      index.putRepository({ repo, path: join(dir, repo), kind: "git", commit: null, indexedAt: 1 });
    }
    const first = storeDraft(index, { repo: "acme/app", branch: "main" });
    storeDraft(index, { repo: "acme/app", branch: "feature/x" });
    storeDraft(index, { repo: "acme/lib", branch: "main" });
    index.drafts.markDelivered("acme/app", [first.id], { branch: "main", commit: "c", at: 2 });
    const counts = Object.fromEntries(index.repositories().map((r) => [r.repo, r.drafts]));
    expect(counts).toEqual({ "acme/app": 2, "acme/lib": 1 });
    index.drafts.remove("acme/app", first.id);
    expect(index.repositories().find((r) => r.repo === "acme/app")?.drafts).toBe(1);
  });
});
