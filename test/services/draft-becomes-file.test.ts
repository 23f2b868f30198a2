/**
 * Seed 004, "Что происходит с черновиком": a file arriving on the default branch with a
 * draft's id removes the draft, and the entry keeps the same id, so its shown and read
 * counters survive — over a real git repository healed like a push.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { draftFilePath, draftSourceOf } from "../../src/core/drafts/draft.js";
import { type EntryIndex, openIndex } from "../../src/index/entry-index.js";
import { hostedHealDeps } from "../../src/main/compose-hook.js";
import { localDraftLimit } from "../../src/services/drafts/draft-limit.js";
import { writeDraft } from "../../src/services/drafts/write-draft.js";
import { getEntry } from "../../src/services/knowledge/get-entry.js";
import { recall } from "../../src/services/knowledge/recall.js";
import { healRepoIndex } from "../../src/services/push/heal-index.js";
import { makeBareClone, makeRepo, type TestRepo } from "../helpers/make-repo.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

describe("a draft's file reaching the default branch", () => {
  it("removes the draft; the entry keeps its id and its counters", async () => {
    const work: TestRepo = await makeRepo({ "README.md": "app\n" });
    cleanups.push(() => work.cleanup());
    const bare = await makeBareClone(work.dir);
    cleanups.push(() => bare.cleanup());
    const folder = mkdtempSync(join(tmpdir(), "lore-draft-file-"));
    const index: EntryIndex = openIndex(join(folder, "index.db"));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    cleanups.push(() => index.close());
    const target = { fullName: "acme/app", dir: bare.dir, defaultBranch: "main" };
    await healRepoIndex(hostedHealDeps(index), target);

    const draft = await writeDraft(
      { index, limitFor: localDraftLimit },
      {
        repo: "acme/app",
        author: "anna",
        input: {
          branch: "feature/cache",
          title: "Clear the build cache after a lockfile change",
          body: "The stale cache hid the new dependency for an hour.",
          words: ["cache"],
        },
      },
    );
    // Shown twice, read once while a draft.
    const shown = recall(index, { query: "cache", user: "boris", now: 10 });
    expect(shown.hits.map((h) => [h.id, h.draft])).toEqual([[draft.id, true]]);
    recall(index, { query: "cache", user: "boris", now: 11 });
    getEntry(index, draft.id, "boris", 12);

    // A file on a branch other than the default leaves the draft alone.
    await work.git(["checkout", "-q", "-b", "feature/cache"]);
    await work.commit({ [draftFilePath(draft.id)]: draft.text }, "knowledge");
    await work.git(["push", "-q", bare.dir, "feature/cache"]);
    await healRepoIndex(hostedHealDeps(index), target);
    expect(index.drafts.get("acme/app", draft.id)).toBeDefined();

    // Merged into main: the file replaces the draft.
    await work.git(["checkout", "-q", "main"]);
    await work.git(["merge", "-q", "--ff-only", "feature/cache"]);
    await work.git(["push", "-q", bare.dir, "main"]);
    await healRepoIndex(hostedHealDeps(index), target);

    expect(index.drafts.get("acme/app", draft.id)).toBeUndefined();
    expect(index.listFiles(draftSourceOf("acme/app")).size).toBe(0);
    const after = recall(index, { query: "cache", user: "boris", now: 13 });
    expect(after.hits.map((h) => [h.id, h.repo, h.draft])).toEqual([
      [draft.id, "acme/app", undefined],
    ]);
    const opened = getEntry(index, draft.id, "boris", 14);
    expect(opened).not.toHaveProperty("draft");
    expect(opened.path).toBe(draftFilePath(draft.id));
    const row = index.stats("boris").find((r) => r.entryId === draft.id);
    expect(row).toMatchObject({ shown: 3, read: 2, firstShownAt: 10, firstReadAt: 12 });
  });
});
