/**
 * The drafts port on PostgreSQL (`LORE_TEST_PG_URL`: a throw-away cluster; skipped with the
 * reason without it): the engine-neutral contract, each "server" a pool of its own over one
 * fresh schema and an index file of its own (the mirror); then what is the mirror's own —
 * the first refresh of a server (uploading an older index's drafts, dropping those removed
 * meanwhile), a file replacing a draft, one cheap query when nothing changed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DraftServer,
  describeDraftStoreContract,
  draftOf,
} from "../../../test/helpers/draft-store-contract.js";
import {
  createTestDatabase,
  PG_SKIP_REASON,
  TEST_PG_URL,
  type TestDatabase,
} from "../../../test/helpers/pg-test-database.js";
import { draftSourceOf } from "../../core/drafts/draft.js";
import { openIndex } from "../../index/entry-index.js";
import { openPgIndexStore } from "../../index/index-store/pg-index-store.js";
import type { SharedDraftRecords } from "../../ports/draft-store.js";
import type { IndexStore } from "../../ports/index-store.js";
import { MirroredDraftStore } from "./mirrored-draft-store.js";
import { sqliteDraftStore } from "./sqlite-draft-store.js";

const HOSTED = ["acme/app", "acme/web"];

if (TEST_PG_URL === undefined) {
  describe.skip(PG_SKIP_REASON, () => {
    it("runs the drafts store contract on PostgreSQL", () => undefined);
  });
} else {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase("drafts");
  });
  afterAll(async () => {
    await db?.drop();
  });

  let current: { name: string; url: string } | undefined;
  let dir: string | undefined;
  let servers = 0;

  /** A server over `url` with the index file `file`. */
  async function server(url: string, file: string): Promise<DraftServer & { store: IndexStore }> {
    const store = await openPgIndexStore(url, { poolSize: 4 });
    const index = openIndex(file);
    const drafts = new MirroredDraftStore({
      records: store.drafts as SharedDraftRecords,
      index,
      hostedRepos: async () => HOSTED,
    });
    return {
      drafts,
      index,
      store,
      async close() {
        await store.close();
        index.close();
      },
    };
  }

  describeDraftStoreContract("PostgreSQL", {
    async fresh() {
      current = await db.schema();
      dir = mkdtempSync(join(tmpdir(), "lore-pg-drafts-"));
    },
    open: () =>
      server((current as { url: string }).url, join(dir as string, `index-${++servers}.db`)),
    async dispose() {
      if (current !== undefined) await db.sql(`DROP SCHEMA ${current.name} CASCADE`);
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      current = undefined;
      dir = undefined;
    },
  });

  describe("drafts on PostgreSQL: the mirror", () => {
    it("a server's first refresh uploads the drafts of its older index and drops those removed meanwhile", async () => {
      const schema = await db.schema();
      const folder = mkdtempSync(join(tmpdir(), "lore-pg-drafts-"));
      try {
        // An index of before drafts moved to PostgreSQL: two drafts of a hosted repository,
        // one of a local source.
        const old = openIndex(join(folder, "a.db"));
        const local = sqliteDraftStore(old);
        const kept = draftOf(1, "anna");
        const removed = draftOf(2, "anna");
        const mine = draftOf(3, "anna", "/home/anna/work");
        for (const d of [kept, removed, mine]) await local.insert(d.draft, d.entry, 200);
        old.close();
        const b = await server(schema.url, join(folder, "b.db"));
        const a = await server(schema.url, join(folder, "a.db"));
        await a.drafts.refresh();
        expect((await b.drafts.list(HOSTED, { limit: 10 })).map((d) => d.id)).toEqual([
          kept.draft.id,
          removed.draft.id,
        ]);
        await b.drafts.remove("acme/app", removed.draft.id);
        await a.close();
        // Restarted: the draft removed through B while A was down goes from A's index; the
        // local source's stays.
        const again = await server(schema.url, join(folder, "a.db"));
        await again.drafts.refresh();
        expect(again.index.drafts.all().map((d) => d.id)).toEqual([mine.draft.id, kept.draft.id]);
        expect(again.index.getEntry(removed.draft.id, draftSourceOf("acme/app"))).toBeUndefined();
        expect(await again.drafts.count()).toBe(1);
        await again.close();
        await b.close();
      } finally {
        rmSync(folder, { recursive: true, force: true });
        await db.sql(`DROP SCHEMA ${schema.name} CASCADE`);
      }
    });

    it("a server's first refresh keeps a draft another server on the same index file wrote after its listing", async () => {
      const schema = await db.schema();
      const folder = mkdtempSync(join(tmpdir(), "lore-pg-drafts-"));
      try {
        const file = join(folder, "shared.db");
        const x = await server(schema.url, file);
        await x.drafts.refresh();
        const later = draftOf(5, "anna");
        // Y's whole listing is read, then X writes (and mirrors into the same file) before
        // Y goes on.
        const store = await openPgIndexStore(schema.url, { poolSize: 2 });
        const real = store.drafts as SharedDraftRecords;
        const changes = async (since?: number) => {
          const listing = await real.changes(since);
          if (since === undefined) await x.drafts.insert(later.draft, later.entry, 200);
          return listing;
        };
        const records = new Proxy(real, {
          get: (target, name) =>
            name === "changes"
              ? changes
              : (Reflect.get(target, name) as (...args: unknown[]) => unknown).bind(target),
        });
        const index = openIndex(file);
        const y = new MirroredDraftStore({ records, index, hostedRepos: async () => HOSTED });
        await y.refresh();
        expect(index.drafts.get("acme/app", later.draft.id)).toEqual(later.draft);
        await y.refresh();
        expect(index.drafts.get("acme/app", later.draft.id)).toEqual(later.draft);
        expect(await y.count()).toBe(1);
        index.close();
        await store.close();
        await x.close();
      } finally {
        rmSync(folder, { recursive: true, force: true });
        await db.sql(`DROP SCHEMA ${schema.name} CASCADE`);
      }
    });

    it("a file replacing a draft in one server's index removes it from PostgreSQL and the other's", async () => {
      const schema = await db.schema();
      const folder = mkdtempSync(join(tmpdir(), "lore-pg-drafts-"));
      try {
        const a = await server(schema.url, join(folder, "a.db"));
        const b = await server(schema.url, join(folder, "b.db"));
        const { draft, entry } = draftOf(1, "anna");
        await a.drafts.insert(draft, entry, 200);
        await b.drafts.refresh();
        // The draft's file reaches the default branch and A's heal parses it.
        a.index.putFile({
          repo: "acme/app",
          path: `.gitriver/knowledge/${draft.id}.md`,
          blobSha: "0".repeat(40),
          parsed: entry.parsed,
          diagnostics: [],
        });
        expect(a.index.drafts.get("acme/app", draft.id)).toBeUndefined();
        await a.drafts.refresh();
        expect(await b.drafts.get("acme/app", draft.id)).toBeUndefined();
        await b.drafts.refresh();
        expect(b.index.drafts.get("acme/app", draft.id)).toBeUndefined();
        expect(b.index.getEntry(draft.id, draftSourceOf("acme/app"))).toBeUndefined();
        await a.close();
        await b.close();
      } finally {
        rmSync(folder, { recursive: true, force: true });
        await db.sql(`DROP SCHEMA ${schema.name} CASCADE`);
      }
    });

    it("answers no change when nothing changed; the changes after a number in their order", async () => {
      const schema = await db.schema();
      const store = await openPgIndexStore(schema.url, { poolSize: 2 });
      try {
        const records = store.drafts as SharedDraftRecords;
        const whole = await records.changes();
        expect(whole).toEqual({ seq: 0, changed: [], removed: [], whole: true });
        const d1 = draftOf(1, "anna").draft;
        const d2 = draftOf(2, "anna").draft;
        await records.insert(d1, 10);
        await records.insert(d2, 10);
        await records.remove(d1.repo, d1.id);
        const after = await records.changes(whole.seq);
        expect(after.changed).toEqual([d2]);
        expect(after.removed).toEqual([{ repo: d1.repo, id: d1.id }]);
        expect(await records.changes(after.seq)).toEqual({
          seq: after.seq,
          changed: [],
          removed: [],
          whole: false,
        });
        expect(
          await records.firstChanges([
            { repo: d2.repo, id: d2.id },
            { repo: d1.repo, id: d1.id },
            { repo: "x/y", id: d1.id },
          ]),
        ).toEqual([
          { repo: d1.repo, id: d1.id, seq: whole.seq + 1 },
          { repo: d2.repo, id: d2.id, seq: whole.seq + 2 },
        ]);
        expect(await records.forgetRepo("acme/app")).toBe(1);
        expect(await records.count()).toBe(0);
      } finally {
        await store.close();
        await db.sql(`DROP SCHEMA ${schema.name} CASCADE`);
      }
    });
  });
}
