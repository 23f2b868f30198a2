/**
 * The load receipts' cases of the {@link IndexStore} contract (`index-store-contract.ts`
 * registers them inside each engine's suite): what `receipts` of the port must answer on
 * SQLite and on PostgreSQL alike — the receipt as stored, the order, every filter and the
 * cursor, receipts of one entry, pruning, forgetting, and two servers writing at once.
 */
import { describe, expect, it } from "vitest";
import type { NewReceipt, ReceiptHit, ReceiptRecord } from "../../src/core/receipts/receipt.js";
import type { IndexStore } from "../../src/ports/index-store.js";
import type { CaseStores } from "./store-harness.js";

const ID1 = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const ID2 = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
const ID3 = "0190f5a4-3b2e-7f32-ac33-4d5e6f708192";
/** 2026-03-01T10:00:00Z. */
const T0 = Date.UTC(2026, 2, 1, 10);
const DAY_MS = 86_400_000;
const SHA = "0123456789abcdef0123456789abcdef01234567";

/** A hit of `repo`/`id` at `rank`, fired by a query word. */
function hit(rank: number, repo: string, id: string, extra: Partial<ReceiptHit> = {}): ReceiptHit {
  return {
    rank,
    repo,
    id,
    revision: SHA,
    draft: false,
    score: 2.5 / rank,
    why: [{ kind: "on_query", word: "rollback" }],
    ...extra,
  };
}

/** A receipt of `user` at `at` with `hits`; the other fields at plain values. */
function receipt(
  user: string,
  at: number,
  hits: ReceiptHit[],
  extra: Partial<NewReceipt> = {},
): NewReceipt {
  return {
    at,
    user,
    client: "claude-code",
    session: "s-1",
    query: "how to roll back",
    tool: null,
    offset: 0,
    limit: 10,
    total: hits.length,
    hits,
    ...extra,
  };
}

/** What a listing answers for a receipt recorded under `id`. */
function stored(id: string, fields: NewReceipt, hits = fields.hits): ReceiptRecord {
  return { ...fields, id, seq: expect.any(Number) as unknown as number, hits };
}

/**
 * Registers the receipts' cases inside an engine's contract suite.
 *
 * @param stores - the suite's per-case stores (`useCaseStores`).
 */
export function describeReceiptStoreCases(stores: CaseStores<IndexStore>): void {
  describe("load receipts", () => {
    it("stores a receipt before it resolves, as given: another server lists it at once", async () => {
      const store = stores.store;
      const fields = receipt(
        "ann",
        T0,
        [
          hit(1, "acme/app", ID1, {
            why: [
              { kind: "on_query", word: "rollback" },
              { kind: "on_tool", name: "Bash" },
              { kind: "text" },
            ],
          }),
          hit(2, "acme/app", ID2, { draft: true, revision: "f".repeat(40), score: 0.8125 }),
        ],
        { query: "откат миграции — how?", tool: "Bash", offset: 10, limit: 5, total: 42 },
      );
      const id = await store.receipts.record(fields);
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      const bare = receipt("bob", T0 + 1, [], { session: null, query: null, tool: "Read" });
      const second = await store.receipts.record(bare);
      expect(second).not.toBe(id);
      const other = await stores.another();
      expect(await other.receipts.list({ limit: 10 })).toEqual([
        stored(second, bare),
        stored(id, fields),
      ]);
      expect(await other.receipts.count()).toBe(2);
    });

    it("lists newest first, by user, session, time, repositories, with a cursor and a limit", async () => {
      const store = stores.store;
      const ids: string[] = [];
      const all: NewReceipt[] = [
        receipt("ann", T0, [hit(1, "acme/app", ID1), hit(2, "acme/lib", ID2)]),
        receipt("bob", T0 + 1, [hit(1, "acme/lib", ID2)], { session: "s-2" }),
        receipt("ann", T0 + 2, [hit(1, "acme/app", ID3)], { session: "s-2" }),
        receipt("ann", T0 + 3, []),
        // Written last, yet earlier by its clock: the order is the order of writing.
        receipt("ann", T0 - 5, [hit(1, "acme/lib", ID1)]),
      ];
      for (const fields of all) ids.push(await store.receipts.record(fields));
      const [r0, r1, r2, r3, r4] = all as [
        NewReceipt,
        NewReceipt,
        NewReceipt,
        NewReceipt,
        NewReceipt,
      ];
      const [i0, i1, i2, i3, i4] = ids as [string, string, string, string, string];
      const list = (query: Parameters<IndexStore["receipts"]["list"]>[0]) =>
        store.receipts.list(query);
      expect((await list({ limit: 10 })).map((r) => r.id)).toEqual([i4, i3, i2, i1, i0]);
      const seqs = (await list({ limit: 10 })).map((r) => r.seq);
      expect([...seqs].sort((a, b) => b - a)).toEqual(seqs);
      expect(new Set(seqs).size).toBe(5);
      expect((await list({ user: "ann", limit: 10 })).map((r) => r.id)).toEqual([i4, i3, i2, i0]);
      expect((await list({ session: "s-2", limit: 10 })).map((r) => r.id)).toEqual([i2, i1]);
      expect((await list({ since: T0 + 1, limit: 10 })).map((r) => r.id)).toEqual([i3, i2, i1]);
      expect((await list({ limit: 2 })).map((r) => r.id)).toEqual([i4, i3]);
      expect((await list({ before: i3, limit: 2 })).map((r) => r.id)).toEqual([i2, i1]);
      expect((await list({ before: i1, user: "ann", limit: 5 })).map((r) => r.id)).toEqual([i0]);
      expect(await list({ before: "0".repeat(32), limit: 5 })).toEqual([]);
      // `repos`: only receipts with such a hit, and only those hits.
      expect(await list({ repos: ["acme/lib"], limit: 10 })).toEqual([
        stored(i4, r4),
        stored(i1, r1),
        stored(i0, r0, [hit(2, "acme/lib", ID2)]),
      ]);
      // `hitRepos`: every receipt, only those hits.
      expect(await list({ user: "ann", hitRepos: ["acme/app"], limit: 10 })).toEqual([
        stored(i4, r4, []),
        stored(i3, r3),
        stored(i2, r2),
        stored(i0, r0, [hit(1, "acme/app", ID1)]),
      ]);
      expect(await list({ repos: [], limit: 10 })).toEqual([]);
      expect(await list({ user: "nobody", limit: 10 })).toEqual([]);
    });

    it("answers the receipts in which one entry surfaced, newest first, with all their hits", async () => {
      const store = stores.store;
      const a = receipt("ann", T0, [hit(1, "acme/app", ID1), hit(2, "acme/app", ID2)]);
      const b = receipt("bob", T0 + 1, [hit(1, "acme/app", ID2)]);
      const c = receipt("bob", T0 + 2, [hit(1, "acme/lib", ID1)]);
      const d = receipt("ann", T0 + 3, [hit(1, "acme/app", ID1, { draft: true })]);
      const [ia, , , id] = [
        await store.receipts.record(a),
        await store.receipts.record(b),
        await store.receipts.record(c),
        await store.receipts.record(d),
      ];
      const other = await stores.another();
      expect(await other.receipts.ofEntry("acme/app", ID1, 10)).toEqual([
        stored(id as string, d),
        stored(ia as string, a),
      ]);
      expect((await other.receipts.ofEntry("acme/app", ID1, 1)).map((r) => r.id)).toEqual([id]);
      expect(await other.receipts.ofEntry("acme/app", ID3, 10)).toEqual([]);
    });

    it("prunes receipts older than keep_days with their hits, on a write and when asked", async () => {
      const store = stores.store;
      const old = await store.receipts.record(
        receipt("ann", T0 - 40 * DAY_MS, [hit(1, "acme/app", ID1)]),
      );
      // The next write is over an hour later by the receipts' clock: it prunes.
      const kept = await store.receipts.record(receipt("ann", T0, [hit(1, "acme/app", ID2)]));
      expect((await store.receipts.list({ limit: 10 })).map((r) => r.id)).toEqual([kept]);
      expect(await store.receipts.ofEntry("acme/app", ID1, 10)).toEqual([]);
      // A cursor whose receipt was pruned lists nothing.
      expect(await store.receipts.list({ before: old, limit: 10 })).toEqual([]);
      // Within the hour: kept by the writes, dropped when asked.
      await store.receipts.record(receipt("bob", T0 - 31 * DAY_MS, [hit(1, "acme/app", ID3)]));
      await store.receipts.record(receipt("bob", T0 - 29 * DAY_MS, [hit(1, "acme/app", ID3)]));
      expect(await store.receipts.count()).toBe(3);
      expect(await store.receipts.prune(T0)).toBe(1);
      expect(await store.receipts.count()).toBe(2);
      expect((await store.receipts.ofEntry("acme/app", ID3, 10)).map((r) => r.at)).toEqual([
        T0 - 29 * DAY_MS,
      ]);
      expect(await store.receipts.prune(T0)).toBe(0);
    });

    it("forgets a user's receipts and a repository's hits, and nobody else's", async () => {
      const store = stores.store;
      const a = receipt("ann", T0, [hit(1, "acme/app", ID1), hit(2, "acme/lib", ID1)]);
      const b = receipt("bob", T0 + 1, [hit(1, "acme/app", ID2), hit(2, "acme/lib", ID2)]);
      const c = receipt("ann", T0 + 2, [hit(1, "acme/lib", ID3)]);
      await store.receipts.record(a);
      const ib = await store.receipts.record(b);
      await store.receipts.record(c);
      expect(await store.receipts.forgetUser("ann")).toBe(2);
      expect(await store.receipts.forgetUser("ann")).toBe(0);
      expect(await store.receipts.ofEntry("acme/lib", ID3, 10)).toEqual([]);
      expect(await store.receipts.forgetRepo("acme/app")).toBe(1);
      const other = await stores.another();
      expect(await other.receipts.list({ limit: 10 })).toEqual([
        stored(ib, b, [hit(2, "acme/lib", ID2)]),
      ]);
      expect(await other.receipts.list({ repos: ["acme/app"], limit: 10 })).toEqual([]);
    });

    it("loses no receipt when two servers write at once: unique ids, one stable order", async () => {
      const store = stores.store;
      const other = await stores.another();
      const rounds = 30;
      /** One server's receipts, each written once the one before it is stored. */
      const write = async (server: IndexStore, user: string): Promise<string[]> => {
        const ids: string[] = [];
        for (let i = 0; i < rounds; i++) {
          ids.push(
            await server.receipts.record(
              receipt(user, T0 + i, [hit(1, "acme/app", ID1), hit(2, "acme/app", ID2)], {
                query: `q${i}`,
              }),
            ),
          );
        }
        return ids;
      };
      const [annIds, bobIds] = await Promise.all([write(store, "ann"), write(other, "bob")]);
      const all = await store.receipts.list({ limit: 3 * rounds });
      expect(all.length).toBe(2 * rounds);
      expect(new Set(all.map((r) => r.id)).size).toBe(2 * rounds);
      expect(new Set([...annIds, ...bobIds])).toEqual(new Set(all.map((r) => r.id)));
      const seqs = all.map((r) => r.seq);
      expect(new Set(seqs).size).toBe(2 * rounds);
      expect([...seqs].sort((a, b) => b - a)).toEqual(seqs);
      // Each server's receipts in the order it wrote them, newest first.
      expect(all.filter((r) => r.user === "ann").map((r) => r.id)).toEqual([...annIds].reverse());
      expect(all.filter((r) => r.user === "bob").map((r) => r.id)).toEqual([...bobIds].reverse());
      expect(all.every((r) => r.hits.length === 2)).toBe(true);
      // The same order from the other server, and page by page through the cursor.
      expect((await other.receipts.list({ limit: 3 * rounds })).map((r) => r.id)).toEqual(
        all.map((r) => r.id),
      );
      const paged: string[] = [];
      let before: string | undefined;
      for (;;) {
        const page = await other.receipts.list({
          limit: 7,
          ...(before === undefined ? {} : { before }),
        });
        if (page.length === 0) break;
        paged.push(...page.map((r) => r.id));
        before = page[page.length - 1]?.id;
      }
      expect(paged).toEqual(all.map((r) => r.id));
    });
  });
}
