import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draftOf } from "../../../test/helpers/draft-store-contract.js";
import {
  createTestDatabase,
  PG_SKIP_REASON,
  TEST_PG_URL,
  type TestDatabase,
} from "../../../test/helpers/pg-test-database.js";
import { refusal } from "../../../test/helpers/server-store-contract.js";
import type { NewReceipt, ReceiptHit } from "../../core/receipts/receipt.js";
import type { SharedDraftRecords } from "../../ports/draft-store.js";
import type { ServerStore } from "../../ports/server-store.js";
import { MirroredDraftStore } from "../../services/drafts/mirrored-draft-store.js";
import { sqliteDraftStore } from "../../services/drafts/sqlite-draft-store.js";
import { openIndex } from "../entry-index.js";
import { PG_INDEX_TABLES } from "../index-store/pg-index-migrations.js";
import { openPgIndexStore } from "../index-store/pg-index-store.js";
import { copyServerStoreToPg } from "./copy-to-pg.js";
import { SERVER_TABLES } from "./pg-migrations.js";
import { openPgServerStore } from "./pg-server-store.js";
import { openSqliteServerStore, SERVER_DB_FILE } from "./sqlite-server-store.js";

const ID1 = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const ID2 = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";

/** A SQLite store with a row in every table, and a deleted user whose id must stay taken. */
async function fill(store: ServerStore) {
  const anna = await store.addUser({ name: "anna", siteAdmin: true, createdAt: 1_764_600_000_001 });
  const bob = await store.addUser({ name: "bob", siteAdmin: false, createdAt: 2 });
  const gone = await store.addUser({ name: "zed", siteAdmin: false, createdAt: 3 });
  await store.removeUser("zed");
  const leads = await store.addGroup({ name: "leads", createdAt: 4 });
  await store.addMember(leads.id, bob.id);
  const token = await store.addToken({
    userId: anna.id,
    hash: "hash-anna",
    prefix: "lore_ann",
    scopes: ["repo:read", "knowledge:write", "admin"],
    label: "laptop",
    createdAt: 5,
    expiresAt: 9_999_999_999_999,
  });
  await store.touchToken(token.id, 6);
  await store.addKey({
    userId: bob.id,
    algorithm: "ssh-ed25519",
    publicKey: "AAAAC3Nza",
    fingerprint: "SHA256:bob",
    comment: "bob@box",
    createdAt: 7,
  });
  const app = await store.addRepo({
    owner: "acme",
    name: "app",
    public: true,
    defaultBranch: "main",
    createdAt: 8,
  });
  await store.grant({ repoId: app.id, subject: { kind: "user", id: bob.id }, level: "write" });
  await store.grant({ repoId: app.id, subject: { kind: "group", id: leads.id }, level: "admin" });
  await store.protectBranch({
    repoId: app.id,
    pattern: "main",
    pushUserIds: [anna.id],
    pushGroupIds: [leads.id],
    allowForcePush: true,
    requiredApprovals: 2,
  });
  await store.setDraftLimit({ kind: "group", id: leads.id }, 40);
  const open = (source: string) =>
    store.addMergeRequest({
      repoId: app.id,
      source,
      target: "main",
      title: `from ${source}`,
      body: "why",
      origin: "machine",
      authorId: bob.id,
      createdAt: 9,
    });
  await open("drafts/bob");
  await open("feature");
  await store.approveMergeRequest(app.id, 1, anna.id, 10);
  await store.finishMergeRequest(app.id, 1, {
    state: "merged",
    at: 11,
    byId: anna.id,
    mergeCommit: "c0ffee",
  });
  await store.takeRateSlot({ tokenId: token.id, route: "shown", windowStart: 60_000, limit: 5 });
  await store.addWebSession({
    hash: "session",
    tokenId: token.id,
    csrf: "csrf",
    createdAt: 12,
    expiresAt: 9_999_999_999_999,
  });
  return { anna, bob, gone, leads, app, token };
}

/** What a store answers, for comparing two engines. */
async function snapshot(store: ServerStore, repoId: number, userId: number) {
  return {
    users: await store.listUsers(),
    groups: await store.listGroups(),
    members: await store.listMembers((await store.getGroup("leads"))?.id ?? 0),
    tokens: await store.listTokens(),
    token: await store.findTokenByHash("hash-anna"),
    keys: await store.listKeys(),
    key: await store.findKeyByFingerprint("SHA256:bob"),
    repos: await store.listRepos(),
    grants: await store.listGrants(repoId),
    grantsFor: await store.grantsFor(userId),
    rules: await store.listBranchRules(repoId),
    limit: await store.getDraftLimit({ kind: "group", id: 1 }),
    requests: await store.listMergeRequests(repoId),
    session: await store.findWebSession("session", 13),
  };
}

if (TEST_PG_URL === undefined) {
  describe.skip(PG_SKIP_REASON, () => {
    it("copies a SQLite server store into PostgreSQL", () => undefined);
  });
} else {
  describe("copying the SQLite server store into PostgreSQL", () => {
    let db: TestDatabase;
    let dir: string;
    let file: string;
    let ids: Awaited<ReturnType<typeof fill>>;
    let before: Awaited<ReturnType<typeof snapshot>>;
    beforeAll(async () => {
      db = await createTestDatabase("copy");
      dir = mkdtempSync(join(tmpdir(), "lore-copy-to-pg-"));
      file = join(dir, SERVER_DB_FILE);
      const sqlite = openSqliteServerStore(file);
      ids = await fill(sqlite);
      before = await snapshot(sqlite, ids.app.id, ids.bob.id);
      await sqlite.close();
    });
    afterAll(async () => {
      await db?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("copies every table, answers the same on PostgreSQL, and refuses a second copy", async () => {
      const target = await db.schema();
      const counts = await copyServerStoreToPg(file, target.url);
      expect(counts.map((c) => c.table)).toEqual([...SERVER_TABLES]);
      expect(Object.fromEntries(counts.map((c) => [c.table, c.rows]))).toEqual({
        users: 2,
        groups: 1,
        members: 1,
        tokens: 1,
        ssh_keys: 1,
        repos: 1,
        grants: 2,
        branch_rules: 1,
        branch_rule_pushers: 2,
        draft_limits: 1,
        merge_requests: 2,
        mr_approvals: 1,
        rate_windows: 1,
        web_sessions: 1,
      });
      const pg = await openPgServerStore(target.url);
      try {
        expect(await snapshot(pg, ids.app.id, ids.bob.id)).toEqual(before);
        expect(before.requests.length).toBe(2);
        expect(before.token?.lastUsedAt).toBe(6);
        // The rate window came along: the token has taken one of its five.
        const slot = { tokenId: ids.token.id, route: "shown", windowStart: 60_000, limit: 2 };
        expect(await pg.takeRateSlot(slot)).toBe(true);
        expect(await pg.takeRateSlot(slot)).toBe(false);
        // Ids continue after the largest ever given: the deleted user's id stays taken.
        const next = await pg.addUser({ name: "zed", siteAdmin: false, createdAt: 20 });
        expect(next.id).toBe(ids.gone.id + 1);
        expect((await pg.addGroup({ name: "new", createdAt: 20 })).id).toBe(ids.leads.id + 1);
        const mr = await pg.addMergeRequest({
          repoId: ids.app.id,
          source: "x",
          target: "main",
          title: "x",
          body: "",
          origin: "human",
          authorId: ids.anna.id,
          createdAt: 21,
        });
        expect([mr.id, mr.number]).toEqual([3, 3]);
      } finally {
        await pg.close();
      }
      const again = await refusal(copyServerStoreToPg(file, target.url));
      expect(again.code).toBe("migration_target_not_empty");
      expect(again.data.table).toBe("users");
    });

    it("keeps nothing when a table's count differs after the copy", async () => {
      const target = await db.schema();
      await (await openPgServerStore(target.url)).close();
      // A trigger that swallows the members' rows: the copy must notice, not commit.
      await db.sql(`CREATE FUNCTION ${target.name}.swallow() RETURNS trigger LANGUAGE plpgsql AS
        'BEGIN RETURN NULL; END'`);
      await db.sql(`CREATE TRIGGER swallow BEFORE INSERT ON ${target.name}.members
        FOR EACH ROW EXECUTE FUNCTION ${target.name}.swallow()`);
      const error = await refusal(copyServerStoreToPg(file, target.url));
      expect(error.code).toBe("migration_mismatch");
      expect(error.data).toMatchObject({ table: "members", source: 1, target: 0 });
      const left = await db.sql(`SELECT count(*)::int AS n FROM ${target.name}.users`);
      expect(left.rows).toEqual([{ n: 0 }]);
    });

    it("copies the index's counters and days with the store, verified; a second copy is refused by them too", async () => {
      const indexFile = join(dir, "index.db");
      const index = openIndex(indexFile);
      const day = Date.UTC(2026, 2, 1, 9);
      index.recordShown(
        "anna",
        [
          { repo: "acme/app", id: ID1 },
          { repo: "acme/app", id: ID1 },
          { repo: "draft:acme/app", id: ID2 },
        ],
        day,
      );
      index.recordRead("bob", { repo: "acme/app", id: ID1 }, day + 86_400_000);
      index.countShown("émile", [{ repo: "acme/lib", id: ID2 }], day);
      const rows = index.stats();
      const days = index.usageDays("acme/app", "2026-03-01", "2026-03-31");
      index.close();
      const target = await db.schema();
      const counts = await copyServerStoreToPg(file, target.url, indexFile);
      expect(counts.map((c) => c.table)).toEqual([...SERVER_TABLES, ...PG_INDEX_TABLES]);
      expect(counts.slice(-6)).toEqual([
        { table: "counters", rows: 4 },
        { table: "usage_days", rows: 4 },
        { table: "receipts", rows: 0 },
        { table: "receipt_hits", rows: 0 },
        { table: "drafts", rows: 0 },
        { table: "draft_changes", rows: 0 },
      ]);
      const pg = await openPgIndexStore(target.url, { poolSize: 1 });
      try {
        expect(await pg.counters.list()).toEqual(rows);
        expect(await pg.counters.days("acme/app", "2026-03-01", "2026-03-31")).toEqual(days);
        expect(days).toEqual([
          { day: "2026-03-01", shown: 3, read: 0 },
          { day: "2026-03-02", shown: 0, read: 1 },
        ]);
      } finally {
        await pg.close();
      }
      // The store's tables emptied by hand: the counters' still refuse a second copy.
      for (const table of [...SERVER_TABLES].reverse())
        await db.sql(`DELETE FROM ${target.name}.${table}`);
      const again = await refusal(copyServerStoreToPg(file, target.url, indexFile));
      expect(again.code).toBe("migration_target_not_empty");
      expect(again.data.table).toBe("counters");
      // No index file yet (nothing counted): both tables are there, empty.
      const none = await copyServerStoreToPg(
        file,
        (await db.schema()).url,
        join(dir, "no-index.db"),
      );
      expect(none.slice(-PG_INDEX_TABLES.length)).toEqual(
        PG_INDEX_TABLES.map((table) => ({ table, rows: 0 })),
      );
    });

    it("copies the index's load receipts with the store: ids, order and hits kept, verified", async () => {
      const indexFile = join(dir, "index-receipts.db");
      const index = openIndex(indexFile);
      const at = Date.UTC(2026, 2, 1, 9);
      const receipt = (user: string, n: number, hits: ReceiptHit[]): NewReceipt => ({
        at: at + n,
        user,
        client: "claude-code",
        session: n % 2 === 0 ? "s-1" : null,
        query: n === 1 ? null : `откат ${n}`,
        tool: n === 1 ? "Bash" : null,
        offset: 0,
        limit: 10,
        total: hits.length + n,
        hits,
      });
      const hit = (rank: number, id: string, draft = false): ReceiptHit => ({
        rank,
        repo: "acme/app",
        id,
        revision: "a".repeat(40),
        draft,
        score: 1.25 / rank,
        why: [{ kind: "on_query", word: "rollback" }, { kind: "text" }],
      });
      index.receipts.write(receipt("anna", 0, [hit(1, ID1), hit(2, ID2, true)]));
      index.receipts.write(receipt("bob", 1, []));
      index.receipts.write(receipt("anna", 2, [hit(1, ID2)]));
      // A queued one too: written by the index's close, copied with the rest.
      index.receipts.add(receipt("bob", 3, [hit(1, ID1)]));
      index.close();
      const source = openIndex(indexFile);
      const listed = source.receipts.list({ limit: 10 });
      source.close();
      expect(listed.length).toBe(4);
      const target = await db.schema();
      const counts = await copyServerStoreToPg(file, target.url, indexFile);
      expect(counts.slice(-4, -2)).toEqual([
        { table: "receipts", rows: 4 },
        { table: "receipt_hits", rows: 4 },
      ]);
      const pg = await openPgIndexStore(target.url, { poolSize: 1 });
      try {
        // The same receipts under the same ids and order: a cursor given before still pages.
        expect(await pg.receipts.list({ limit: 10 })).toEqual(listed);
        expect(await pg.receipts.list({ before: listed[1]?.id as string, limit: 10 })).toEqual(
          listed.slice(2),
        );
        // A receipt recorded after the copy comes after every copied one.
        const next = await pg.receipts.record(receipt("anna", 9, [hit(1, ID1)]));
        const after = await pg.receipts.list({ limit: 10 });
        expect(after.map((r) => r.id)).toEqual([next, ...listed.map((r) => r.id)]);
        expect((after[0]?.seq as number) > (listed[0]?.seq as number)).toBe(true);
      } finally {
        await pg.close();
      }
      // The store's and the counters' tables emptied by hand: the receipts' still refuse.
      for (const table of [...SERVER_TABLES].reverse())
        await db.sql(`DELETE FROM ${target.name}.${table}`);
      const again = await refusal(copyServerStoreToPg(file, target.url, indexFile));
      expect(again.code).toBe("migration_target_not_empty");
      expect(again.data.table).toBe("receipts");
    });

    it("copies the index's drafts with the store, verified: a server over the copy lists them all", async () => {
      const indexFile = join(dir, "index-drafts.db");
      const index = openIndex(indexFile);
      const local = sqliteDraftStore(index);
      const made = [1, 2, 3].map((n) => draftOf(n, n === 3 ? "bob" : "anna"));
      const other = draftOf(4, "anna", "acme/lib", "main");
      for (const d of [...made, other]) await local.insert(d.draft, d.entry, 200);
      const delivery = { branch: "feature/x", commit: "e".repeat(40), at: 7, mergeRequest: 2 };
      await local.markDelivered("acme/app", [made[1]?.draft.id as string], delivery);
      const drafts = index.drafts.all();
      index.close();
      const target = await db.schema();
      const counts = await copyServerStoreToPg(file, target.url, indexFile);
      expect(counts.slice(-2)).toEqual([
        { table: "drafts", rows: 4 },
        { table: "draft_changes", rows: 4 },
      ]);
      const pg = await openPgIndexStore(target.url, { poolSize: 1 });
      const fresh = openIndex(join(dir, "index-drafts-fresh.db"));
      try {
        const records = pg.drafts as SharedDraftRecords;
        expect(await records.list(["acme/app", "acme/lib"], { limit: 10 })).toEqual(
          [...drafts].sort((a, b) => (a.id < b.id ? -1 : 1)),
        );
        expect(await records.countByAuthor("anna")).toBe(3);
        // A server on another machine (an empty index) mirrors every copied draft at once.
        const mirror = new MirroredDraftStore({
          records,
          index: fresh,
          hostedRepos: async () => ["acme/app", "acme/lib"],
        });
        await mirror.refresh();
        expect(fresh.drafts.all()).toEqual(drafts);
        expect(fresh.getEntry(other.draft.id, "draft:acme/lib")?.id).toBe(other.draft.id);
      } finally {
        fresh.close();
        await pg.close();
      }
      for (const table of [...SERVER_TABLES].reverse())
        await db.sql(`DELETE FROM ${target.name}.${table}`);
      const again = await refusal(copyServerStoreToPg(file, target.url, indexFile));
      expect(again.code).toBe("migration_target_not_empty");
      expect(again.data.table).toBe("drafts");
    });

    it("keeps nothing when the drafts differ after the copy", async () => {
      const indexFile = join(dir, "index-drafts-skew.db");
      const index = openIndex(indexFile);
      const d = draftOf(1, "anna");
      await sqliteDraftStore(index).insert(d.draft, d.entry, 200);
      index.close();
      const target = await db.schema();
      await (await openPgIndexStore(target.url, { poolSize: 1 })).close();
      await db.sql(`CREATE FUNCTION ${target.name}.cut() RETURNS trigger LANGUAGE plpgsql AS
        'BEGIN NEW.text := left(NEW.text, 10); RETURN NEW; END'`);
      await db.sql(`CREATE TRIGGER cut BEFORE INSERT ON ${target.name}.drafts
        FOR EACH ROW EXECUTE FUNCTION ${target.name}.cut()`);
      const error = await refusal(copyServerStoreToPg(file, target.url, indexFile));
      expect(error.code).toBe("migration_mismatch");
      expect(error.data).toMatchObject({ table: "drafts", source: d.draft.size, target: 10 });
      for (const table of ["users", "drafts", "draft_changes"]) {
        const left = await db.sql(`SELECT count(*)::int AS n FROM ${target.name}.${table}`);
        expect(left.rows).toEqual([{ n: 0 }]);
      }
    });

    it("keeps nothing when the receipts' hits differ after the copy", async () => {
      const indexFile = join(dir, "index-hits.db");
      const index = openIndex(indexFile);
      index.recordShown("anna", [{ repo: "acme/app", id: ID1 }], 1_000);
      index.receipts.write({
        at: 1_000,
        user: "anna",
        client: "cli",
        session: null,
        query: "rollback",
        tool: null,
        offset: 0,
        limit: 10,
        total: 1,
        hits: [
          {
            rank: 1,
            repo: "acme/app",
            id: ID1,
            revision: "b".repeat(40),
            draft: false,
            score: 1,
            why: [{ kind: "text" }],
          },
        ],
      });
      index.close();
      const target = await db.schema();
      await (await openPgIndexStore(target.url, { poolSize: 1 })).close();
      await db.sql(`CREATE FUNCTION ${target.name}.swallow() RETURNS trigger LANGUAGE plpgsql AS
        'BEGIN RETURN NULL; END'`);
      await db.sql(`CREATE TRIGGER swallow BEFORE INSERT ON ${target.name}.receipt_hits
        FOR EACH ROW EXECUTE FUNCTION ${target.name}.swallow()`);
      const error = await refusal(copyServerStoreToPg(file, target.url, indexFile));
      expect(error.code).toBe("migration_mismatch");
      expect(error.data).toMatchObject({ table: "receipt_hits", source: 1, target: 0 });
      for (const table of ["users", "counters", "receipts"]) {
        const left = await db.sql(`SELECT count(*)::int AS n FROM ${target.name}.${table}`);
        expect(left.rows).toEqual([{ n: 0 }]);
      }
    });

    it("keeps nothing when the counters' totals differ after the copy", async () => {
      const indexFile = join(dir, "index-totals.db");
      const index = openIndex(indexFile);
      index.recordShown("anna", [{ repo: "acme/app", id: ID1 }], 1_000);
      index.close();
      const target = await db.schema();
      await (await openPgIndexStore(target.url, { poolSize: 1 })).close();
      // A trigger that adds one showing to each row: the rows agree, the totals do not.
      await db.sql(`CREATE FUNCTION ${target.name}.skew() RETURNS trigger LANGUAGE plpgsql AS
        'BEGIN NEW.shown := NEW.shown + 1; RETURN NEW; END'`);
      await db.sql(`CREATE TRIGGER skew BEFORE INSERT ON ${target.name}.counters
        FOR EACH ROW EXECUTE FUNCTION ${target.name}.skew()`);
      const error = await refusal(copyServerStoreToPg(file, target.url, indexFile));
      expect(error.code).toBe("migration_mismatch");
      expect(error.data).toMatchObject({ table: "counters", source: 1, target: 2 });
      const left = await db.sql(`SELECT count(*)::int AS n FROM ${target.name}.users`);
      expect(left.rows).toEqual([{ n: 0 }]);
    });

    it("refuses a source that is not there, and an unreachable target", async () => {
      expect((await refusal(copyServerStoreToPg(join(dir, "none.db"), db.url))).code).toBe(
        "path_not_found",
      );
      const error = await refusal(
        copyServerStoreToPg(file, "postgres://u:pw-secret@127.0.0.1:1/x"),
      );
      expect(error.code).toBe("database_unavailable");
      expect(error.message).not.toContain("pw-secret");
    });
  });
}
