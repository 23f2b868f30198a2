/**
 * Drafts in reads (seed 004, "Как знание выходит наружу"): recall, search, open and the
 * repository listing list a repository's drafts beside its files, marked `draft: true`
 * with their branch, under the repository's own name.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DraftRecord, draftFilePath } from "../../core/drafts/draft.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import type { EntryIndex } from "../../index/entry-index.js";
import { getEntry } from "../knowledge/get-entry.js";
import { listKnowledge } from "../knowledge/list-knowledge.js";
import { recall } from "../knowledge/recall.js";
import { recallWithin } from "../knowledge/recall-within.js";
import { search } from "../knowledge/search.js";
import { recallInRepo } from "../roots/recall-roots.js";
import { localDraftLimit } from "./draft-limit.js";
import { counterMinter, tempIndex } from "./drafts.test-helpers.js";
import { writeDraft } from "./write-draft.js";

let temp: ReturnType<typeof tempIndex>;
let index: EntryIndex;
let draft: DraftRecord;
const FILE_ID = "0190f5a4-3b2c-7d10-8a11-00000000f11e";

beforeEach(async () => {
  temp = tempIndex("lore-drafts-reads-");
  index = temp.index;
  const text = `---\nid: ${FILE_ID}\ncontract:\n  - mechanism: on_query\n    params: {words: [rollback]}\n---\n\nRollback with the script, a file entry.\n`;
  index.putFile({
    repo: "acme/app",
    path: ".gitriver/knowledge/rollback.md",
    blobSha: "b".repeat(40),
    parsed: parseEntry(text, { mode: "strict" }).value,
    diagnostics: [],
  });
  draft = await writeDraft(
    { index, limitFor: localDraftLimit, mintId: counterMinter(1) },
    {
      repo: "acme/app",
      author: "anna",
      input: {
        branch: "feature/retry",
        title: "Rollback needs the lock released first",
        body: "Found after an hour: the rollback hangs while the deploy lock is held.",
        words: ["rollback"],
      },
    },
  );
});
afterEach(() => temp.done());

const marks = (
  hits: { id: string; repo: string; source: string; draft?: true; branch?: string }[],
) => hits.map(({ id, repo, source, draft, branch }) => ({ id, repo, source, draft, branch }));

describe("drafts in reads", () => {
  const fileHit = {
    id: FILE_ID,
    repo: "acme/app",
    source: "acme/app",
    draft: undefined,
    branch: undefined,
  };
  const draftHit = () => ({
    id: draft.id,
    repo: "acme/app",
    source: "acme/app",
    draft: true,
    branch: "feature/retry",
  });

  it("recall (local, whole index) lists the draft beside the file, marked with its branch", () => {
    const answer = recall(index, { query: "rollback", user: "boris" });
    expect(answer.total).toBe(2);
    expect(marks(answer.hits).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [fileHit, draftHit()].sort((a, b) => a.id.localeCompare(b.id)),
    );
    const hit = answer.hits.find((h) => h.draft === true);
    expect(hit?.path).toBe(draftFilePath(draft.id));
    expect(hit?.summary).toBe("Rollback needs the lock released first");
  });

  it("recall of one repository (--repo) and of the team server's sources list the draft too", () => {
    const one = recallInRepo(index, { query: "rollback", user: "boris", repo: "acme/app" });
    expect(one.total).toBe(2);
    expect(one.hits.filter((h) => h.draft).map((h) => h.branch)).toEqual(["feature/retry"]);
    // Only the file source: the draft stays out.
    const files = recallWithin(index, { query: "rollback", user: "boris", repos: ["acme/app"] });
    expect(marks(files.hits)).toEqual([fileHit]);
  });

  it("search lists the draft marked", () => {
    const answer = search(index, { query: "lock" });
    expect(marks(answer.hits)).toEqual([draftHit()]);
  });

  it("open returns the draft's body, its repository and branch, and counts the read", () => {
    const view = getEntry(index, draft.id, "boris", 5);
    expect(view).toMatchObject({
      id: draft.id,
      repo: "acme/app",
      path: draftFilePath(draft.id),
      origin: "agent",
      draft: true,
      branch: "feature/retry",
      text: draft.text,
    });
    expect(view.body).toContain("the rollback hangs while the deploy lock is held");
    expect(getEntry(index, draft.id, "boris", 6, "acme/app").id).toBe(draft.id);
    expect(getEntry(index, FILE_ID, "boris", 6, "acme/app")).not.toHaveProperty("draft");
    expect(index.stats("boris").find((r) => r.entryId === draft.id)?.read).toBe(2);
  });

  it("the repository listing lists the draft with no body, marked", () => {
    const answer = listKnowledge(index, "acme/app");
    expect(answer.items.map((i) => [i.id, i.draft, i.branch])).toEqual([
      [draft.id, true, "feature/retry"],
      [FILE_ID, undefined, undefined],
    ]);
    expect(JSON.stringify(answer)).not.toContain("Found after an hour");
    expect(listKnowledge(index, "acme/other").items).toEqual([]);
  });
});
