import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DraftRecord, draftSourceOf } from "../../core/drafts/draft.js";
import { draftView } from "../../core/drafts/draft-view.js";
import type { EntryIndex } from "../../index/entry-index.js";
import { discardDraft } from "./discard-draft.js";
import { localDraftLimit } from "./draft-limit.js";
import { counterMinter, refusalOf, tempIndex } from "./drafts.test-helpers.js";
import { listDrafts } from "./list-drafts.js";
import { sqliteDraftStore } from "./sqlite-draft-store.js";
import { writeDraft } from "./write-draft.js";

let temp: ReturnType<typeof tempIndex>;
let index: EntryIndex;
let mintId: () => string;
beforeEach(() => {
  temp = tempIndex("lore-list-drafts-");
  index = temp.index;
  mintId = counterMinter(1);
});
afterEach(() => temp.done());

async function write(repo: string, author: string, branch = "feature/x"): Promise<DraftRecord> {
  return writeDraft(
    { index, limitFor: localDraftLimit, mintId, now: () => Date.UTC(2026, 1, 3, 4, 5, 6, 7) },
    { repo, author, input: { branch, title: `By ${author}`, body: "Body.", words: ["w"] } },
  );
}

describe("listDrafts", () => {
  it("lists every draft of the repositories with its text, whoever wrote it, a page at a time", async () => {
    const written: DraftRecord[] = [];
    for (let i = 0; i < 120; i += 1) written.push(await write("acme/a", i % 2 ? "anna" : "boris"));
    await write("acme/hidden", "anna");
    const first = await listDrafts(sqliteDraftStore(index), { repos: ["acme/a"] });
    expect(first.items.length).toBe(50);
    expect(first.items[0]).toEqual(written[0]);
    expect(first.next_cursor).toBe(written[49]?.id);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listDrafts(sqliteDraftStore(index), {
        repos: ["acme/a"],
        perPage: 100,
        ...(cursor === null ? {} : { after: cursor }),
      });
      ids.push(...page.items.map((d) => d.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(ids).toEqual(written.map((d) => d.id));
    expect(
      new Set(
        (await listDrafts(sqliteDraftStore(index), { repos: ["acme/a"], perPage: 100 })).items.map(
          (d) => d.author,
        ),
      ),
    ).toEqual(new Set(["anna", "boris"]));
  });

  it("filters by branch; a last page has next_cursor null", async () => {
    await write("r", "anna", "one");
    const two = await write("r", "anna", "two");
    expect(await listDrafts(sqliteDraftStore(index), { repos: ["r"], branch: "two" })).toEqual({
      items: [two],
      next_cursor: null,
    });
  });

  it("refuses per_page outside 1..100 and a malformed cursor", async () => {
    for (const perPage of [0, 101, 2.5, -1]) {
      expect(
        (await refusalOf(() => listDrafts(sqliteDraftStore(index), { repos: ["r"], perPage })))
          .code,
      ).toBe("invalid_limit");
    }
    expect(
      (await listDrafts(sqliteDraftStore(index), { repos: ["r"], perPage: 100 })).items,
    ).toEqual([]);
    for (const after of ["nope", "", "0190f5a4-3b2c-4d10-8a11-000000000001"]) {
      expect(
        (await refusalOf(() => listDrafts(sqliteDraftStore(index), { repos: ["r"], after }))).code,
      ).toBe("invalid_cursor");
    }
  });
});

describe("discardDraft", () => {
  it("lets the author remove their draft, with its entry", async () => {
    const draft = await write("r", "anna");
    await discardDraft(sqliteDraftStore(index), {
      repo: "r",
      id: draft.id,
      caller: "anna",
      callerMayWrite: false,
    });
    expect(index.drafts.get("r", draft.id)).toBeUndefined();
    expect(index.getEntry(draft.id, draftSourceOf("r"))).toBeUndefined();
  });

  it("lets a writer of the repository remove another's draft; refuses a reader", async () => {
    const draft = await write("r", "anna");
    const refused = await refusalOf(() =>
      discardDraft(sqliteDraftStore(index), {
        repo: "r",
        id: draft.id,
        caller: "boris",
        callerMayWrite: false,
      }),
    );
    expect(refused.code).toBe("forbidden");
    expect(index.drafts.get("r", draft.id)).toBeDefined();
    await discardDraft(sqliteDraftStore(index), {
      repo: "r",
      id: draft.id,
      caller: "vera",
      callerMayWrite: true,
    });
    expect(index.drafts.get("r", draft.id)).toBeUndefined();
  });

  it("answers draft_not_found for an unknown id or a draft of another repository", async () => {
    const draft = await write("r", "anna");
    for (const [repo, id] of [
      ["r", "0190f5a4-3b2c-7d10-8a11-0000000fffff"],
      ["other", draft.id],
    ] as const) {
      const error = await refusalOf(() =>
        discardDraft(sqliteDraftStore(index), { repo, id, caller: "anna", callerMayWrite: true }),
      );
      expect(error.code).toBe("draft_not_found");
    }
  });
});

describe("draftView", () => {
  it("answers ISO 8601 times and delivered with its merge request", async () => {
    const draft = await write("acme/a", "anna");
    expect(draftView(draft)).toEqual({
      id: draft.id,
      branch: "feature/x",
      author: "anna",
      created_at: "2026-02-03T04:05:06.007Z",
      size: draft.size,
      text: draft.text,
    });
    const at = Date.UTC(2026, 1, 4);
    index.drafts.markDelivered("acme/a", [draft.id], {
      branch: "feature/x",
      commit: "c".repeat(40),
      at,
      mergeRequest: 7,
    });
    const delivered = index.drafts.get("acme/a", draft.id) as DraftRecord;
    expect(draftView(delivered, true)).toMatchObject({
      repo: "acme/a",
      delivered: {
        branch: "feature/x",
        commit: "c".repeat(40),
        at: "2026-02-04T00:00:00.000Z",
        merge_request: 7,
      },
    });
  });
});
