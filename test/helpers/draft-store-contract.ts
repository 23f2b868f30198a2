/**
 * The contract of the drafts port (`DraftStore`; scale-out: drafts on two engines): every
 * case an implementation must pass, registered for one engine by
 * {@link describeDraftStoreContract}. Each "server" is a store with the index it keeps
 * the drafts' entries in: on SQLite a connection of its own on one index file
 * (`sqlite-draft-store.test.ts`), on PostgreSQL a pool of its own over one schema and an
 * index file of its own (`mirrored-draft-store.test.ts`), so a case passing on both says
 * two servers see one set of drafts either way.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { buildDraft } from "../../src/core/drafts/build-draft.js";
import { type DraftRecord, draftSourceOf } from "../../src/core/drafts/draft.js";
import { LoreError } from "../../src/core/errors/lore-error.js";
import type { EntryIndex } from "../../src/index/entry-index.js";
import type { DraftEntry, DraftStore } from "../../src/ports/draft-store.js";
import { type StoreHarness, useCaseStores } from "./store-harness.js";

/** One server of a case: its drafts store and the index holding their entries. */
export interface DraftServer {
  drafts: DraftStore;
  index: EntryIndex;
  close(): Promise<void>;
}

/** How the contract reaches one engine (repositories `acme/app` and `acme/web` are hosted). */
export type DraftStoreHarness = StoreHarness<DraftServer>;

/** A draft of `author` in `repo` on `branch` numbered `n` (ids sort by `n`), with its entry. */
export function draftOf(
  n: number,
  author: string,
  repo = "acme/app",
  branch = "feature/x",
): { draft: DraftRecord; entry: DraftEntry } {
  const id = `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
  const built = buildDraft(
    { branch, title: `Draft ${n} by ${author}`, body: `Body ${n}.`, words: [`word${n}`] },
    () => id,
  );
  return {
    draft: {
      id: built.id,
      repo,
      branch: built.branch,
      author,
      createdAt: 1_700_000_000_000 + n,
      size: built.size,
      text: built.text,
    },
    entry: { parsed: built.parsed, diagnostics: built.diagnostics },
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LoreError) return error.code;
    throw error;
  }
  return "none";
}

/**
 * Registers the contract's cases for one engine.
 *
 * @param engine - the name in the suite's title (`SQLite`, `PostgreSQL`).
 * @param harness - see {@link DraftStoreHarness}.
 */
export function describeDraftStoreContract(engine: string, harness: DraftStoreHarness): void {
  describe(`drafts store contract: ${engine}`, () => {
    const servers = useCaseStores(harness);
    let a: DraftServer;
    beforeEach(() => {
      a = servers.store;
    });
    const insert = (server: DraftServer, n: number, author: string, limit = 200, repo?: string) => {
      const { draft, entry } = draftOf(n, author, repo);
      return server.drafts.insert(draft, entry, limit).then(() => draft);
    };

    it("stores a draft with its entry: read back as written, its entry in the index", async () => {
      const draft = await insert(a, 1, "anna");
      expect(await a.drafts.get("acme/app", draft.id)).toEqual(draft);
      expect(await a.drafts.get("acme/web", draft.id)).toBeUndefined();
      expect(await a.drafts.countByAuthor("anna")).toBe(1);
      expect(await a.drafts.count()).toBe(1);
      await a.drafts.refresh();
      expect(a.index.getEntry(draft.id, draftSourceOf("acme/app"))?.id).toBe(draft.id);
    });

    it("another server reads a draft at once, and holds its entry once refreshed", async () => {
      const b = await servers.another();
      const draft = await insert(a, 1, "anna");
      expect(await b.drafts.get("acme/app", draft.id)).toEqual(draft);
      expect(await b.drafts.list(["acme/app"], { limit: 10 })).toEqual([draft]);
      await b.drafts.refresh();
      expect(b.index.getEntry(draft.id, draftSourceOf("acme/app"))?.id).toBe(draft.id);
      expect(b.index.drafts.get("acme/app", draft.id)).toEqual(draft);
    });

    it("lists by id then repository, a page at a time, by repositories and branch", async () => {
      const b = await servers.another();
      const d1 = await insert(a, 1, "anna");
      const d3 = await insert(b, 3, "boris");
      const w2 = await insert(a, 2, "anna", 200, "acme/web");
      const other = draftOf(4, "anna", "acme/app", "main");
      await b.drafts.insert(other.draft, other.entry, 200);
      expect(await a.drafts.list(["acme/app", "acme/web"], { limit: 10 })).toEqual([
        d1,
        w2,
        d3,
        other.draft,
      ]);
      expect(await a.drafts.list(["acme/app"], { limit: 1, after: d1.id })).toEqual([d3]);
      expect(await a.drafts.list(["acme/app"], { limit: 10, branch: "main" })).toEqual([
        other.draft,
      ]);
      expect(await a.drafts.list([], { limit: 10 })).toEqual([]);
      expect(await b.drafts.ofBranch("acme/app", "feature/x")).toEqual([d1, d3]);
      expect(await b.drafts.countByAuthor("anna")).toBe(3);
    });

    it("refuses an id a draft of the repository holds, from either server; another repository may", async () => {
      const b = await servers.another();
      await insert(a, 1, "anna");
      expect(await codeOf(insert(b, 1, "boris"))).toBe("draft_id_taken");
      expect(await codeOf(insert(a, 1, "anna"))).toBe("draft_id_taken");
      await insert(b, 1, "boris", 200, "acme/web");
      expect(await a.drafts.count()).toBe(2);
    });

    it("refuses an id a file entry of the repository holds", async () => {
      const { draft, entry } = draftOf(7, "anna");
      a.index.putFile({
        repo: "acme/app",
        path: ".gitriver/knowledge/x.md",
        blobSha: "0".repeat(40),
        parsed: entry.parsed,
        diagnostics: [],
      });
      expect(await codeOf(a.drafts.insert(draft, entry, 200))).toBe("draft_id_taken");
      expect(await a.drafts.count()).toBe(0);
    });

    it("keeps a limit of L exactly when writers on two servers post at once", async () => {
      const b = await servers.another();
      const L = 7;
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => insert(i % 2 === 0 ? a : b, i + 1, "anna", L)),
      );
      const refused = results.filter((r) => r.status === "rejected");
      expect(results.length - refused.length).toBe(L);
      for (const r of refused) {
        expect(((r as PromiseRejectedResult).reason as LoreError).code).toBe("draft_limit_reached");
      }
      expect(await a.drafts.countByAuthor("anna")).toBe(L);
      expect(await b.drafts.countByAuthor("anna")).toBe(L);
      const refusal = (await insert(a, 99, "anna", L).catch((e: unknown) => e)) as LoreError;
      expect(refusal.data).toEqual({ author: "anna", count: L, limit: L });
    });

    it("removes a draft with its entry: gone on the other server too", async () => {
      const b = await servers.another();
      const draft = await insert(a, 1, "anna");
      await b.drafts.refresh();
      expect(await b.drafts.remove("acme/app", draft.id)).toBe(true);
      expect(await b.drafts.remove("acme/app", draft.id)).toBe(false);
      expect(await a.drafts.get("acme/app", draft.id)).toBeUndefined();
      await a.drafts.refresh();
      await b.drafts.refresh();
      for (const server of [a, b]) {
        expect(server.index.getEntry(draft.id, draftSourceOf("acme/app"))).toBeUndefined();
        expect(await server.drafts.count()).toBe(0);
      }
    });

    it("marks and clears a delivery, seen by the other server and its index", async () => {
      const b = await servers.another();
      const d1 = await insert(a, 1, "anna");
      const d2 = await insert(a, 2, "anna");
      await b.drafts.refresh();
      const delivery = { branch: "feature/x", commit: "c".repeat(40), at: 5, mergeRequest: 3 };
      await a.drafts.markDelivered("acme/app", [d1.id, d2.id], delivery);
      expect((await b.drafts.get("acme/app", d1.id))?.delivered).toEqual(delivery);
      await b.drafts.refresh();
      expect(b.index.drafts.get("acme/app", d2.id)?.delivered).toEqual(delivery);
      await b.drafts.clearDelivered("acme/app", [d1.id]);
      expect((await a.drafts.get("acme/app", d1.id))?.delivered).toBeUndefined();
      await a.drafts.refresh();
      expect(a.index.drafts.get("acme/app", d1.id)?.delivered).toBeUndefined();
      expect(a.index.drafts.get("acme/app", d2.id)?.delivered).toEqual(delivery);
      const plain = { branch: "main", commit: "d".repeat(40), at: 6 };
      await b.drafts.markDelivered("acme/app", [d2.id], plain);
      expect((await a.drafts.get("acme/app", d2.id))?.delivered).toEqual(plain);
    });
  });
}
