/**
 * The contract of the {@link ServerStore} port (seed 004, team server; scale-out: one store,
 * two engines): every case an implementation must pass, registered for one engine by
 * {@link describeServerStoreContract}. SQLite's test (`sqlite-server-store.test.ts`) and
 * PostgreSQL's (`pg-server-store.test.ts`) both run it, so neither engine can drift; only
 * what is the engine's own (files, pragmas, schemas, connection errors) stays in those files.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { LoreError } from "../../src/core/errors/lore-error.js";
import type { ServerStore } from "../../src/ports/server-store.js";
import { type StoreHarness, useCaseStores } from "./store-harness.js";

/** How the contract reaches one engine. */
export type ServerStoreHarness = StoreHarness<ServerStore>;

/** Awaits a promise that must be refused; answers the refusal. */
export async function refusal(promise: Promise<unknown>): Promise<LoreError> {
  try {
    await promise;
  } catch (error) {
    return error as LoreError;
  }
  throw new Error("expected a refusal");
}

/**
 * Registers the contract's cases for one engine.
 *
 * @param engine - the name in the suite's title (`SQLite`, `PostgreSQL`).
 * @param harness - see {@link ServerStoreHarness}.
 */
export function describeServerStoreContract(engine: string, harness: ServerStoreHarness): void {
  describe(`server store contract: ${engine}`, () => {
    const stores = useCaseStores(harness);
    const another = () => stores.another();
    let store: ServerStore;
    beforeEach(() => {
      store = stores.store;
    });

    it("maps duplicate names to user_exists, group_exists, repo_exists and key_exists", async () => {
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      expect(
        (await refusal(store.addUser({ name: "anna", siteAdmin: true, createdAt: 2 }))).code,
      ).toBe("user_exists");
      await store.addGroup({ name: "leads", createdAt: 1 });
      const group = await refusal(store.addGroup({ name: "leads", createdAt: 2 }));
      expect(group.code).toBe("group_exists");
      expect(group.message).toBe("the group leads already exists");
      await store.addRepo({
        owner: "acme",
        name: "app",
        public: false,
        defaultBranch: "main",
        createdAt: 1,
      });
      const repo = await refusal(
        store.addRepo({
          owner: "acme",
          name: "app",
          public: true,
          defaultBranch: "x",
          createdAt: 2,
        }),
      );
      expect(repo.code).toBe("repo_exists");
      expect(repo.message).toBe("the repository acme/app already exists");
      const key = {
        userId: anna.id,
        algorithm: "ssh-ed25519",
        publicKey: "AAAA",
        fingerprint: "SHA256:abc",
        comment: "",
        createdAt: 1,
      };
      await store.addKey(key);
      expect((await refusal(store.addKey(key))).code).toBe("key_exists");
    });

    it("removing a user removes their tokens, keys, grants and memberships", async () => {
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      const boris = await store.addUser({ name: "boris", siteAdmin: false, createdAt: 1 });
      const group = await store.addGroup({ name: "leads", createdAt: 1 });
      const repo = await store.addRepo({
        owner: "acme",
        name: "app",
        public: false,
        defaultBranch: "main",
        createdAt: 1,
      });
      await store.addMember(group.id, anna.id);
      await store.addMember(group.id, anna.id); // twice: a no-op
      await store.addMember(group.id, boris.id);
      await store.addToken({
        userId: anna.id,
        hash: "h1",
        prefix: "lore_abc",
        scopes: ["repo:read", "knowledge:read"],
        label: "laptop",
        createdAt: 1,
        expiresAt: null,
      });
      await store.addKey({
        userId: anna.id,
        algorithm: "ssh-ed25519",
        publicKey: "AAAA",
        fingerprint: "SHA256:abc",
        comment: "anna@laptop",
        createdAt: 1,
      });
      await store.grant({
        repoId: repo.id,
        subject: { kind: "user", id: anna.id },
        level: "write",
      });
      await store.protectBranch({
        repoId: repo.id,
        pattern: "main",
        pushUserIds: [anna.id, boris.id],
        pushGroupIds: [group.id],
        allowForcePush: false,
      });
      expect((await store.listMembers(group.id)).map((u) => u.name)).toEqual(["anna", "boris"]);
      expect(await store.groupsOf(anna.id)).toEqual([group.id]);

      expect(await store.removeUser("anna")).toBe(true);
      expect(await store.removeUser("anna")).toBe(false);
      expect(await store.listTokens()).toEqual([]);
      expect(await store.listKeys()).toEqual([]);
      expect(await store.listGrants(repo.id)).toEqual([]);
      expect((await store.listMembers(group.id)).map((u) => u.name)).toEqual(["boris"]);
      expect((await store.listBranchRules(repo.id))[0]?.pushUserIds).toEqual([boris.id]);
    });

    it("stores tokens by hash, finds, touches and revokes them", async () => {
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      const token = await store.addToken({
        userId: anna.id,
        hash: "f00d",
        prefix: "lore_f00",
        scopes: ["knowledge:read", "repo:write"],
        label: "ci",
        createdAt: 10,
        expiresAt: 1000,
      });
      expect(token).toEqual({
        id: 1,
        userId: anna.id,
        hash: "f00d",
        prefix: "lore_f00",
        scopes: ["knowledge:read", "repo:write"],
        label: "ci",
        createdAt: 10,
        expiresAt: 1000,
        lastUsedAt: null,
      });
      await store.touchToken(token.id, 500);
      expect((await store.findTokenByHash("f00d"))?.lastUsedAt).toBe(500);
      expect(await store.findTokenByHash("beef")).toBeUndefined();
      expect((await store.listTokens(anna.id)).length).toBe(1);
      expect((await store.listTokens(anna.id + 1)).length).toBe(0);
      expect(await store.revokeToken(token.id)).toBe(true);
      expect(await store.revokeToken(token.id)).toBe(false);
      expect(await store.findTokenByHash("f00d")).toBeUndefined();
      // An id is never given again: logs that name "token 1" keep meaning the revoked one.
      const next = await store.addToken({
        userId: anna.id,
        hash: "f00e",
        prefix: "lore_f00",
        scopes: ["knowledge:read"],
        label: "ci",
        createdAt: 11,
        expiresAt: null,
      });
      expect(next.id).toBeGreaterThan(token.id);
      expect(await store.removeUser("anna")).toBe(true);
      const again = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 2 });
      expect(again.id).toBeGreaterThan(anna.id);
    });

    it("sets, replaces, lists and revokes grants of users and groups; grantsFor folds groups in", async () => {
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      const leads = await store.addGroup({ name: "leads", createdAt: 1 });
      await store.addMember(leads.id, anna.id);
      const app = await store.addRepo({
        owner: "acme",
        name: "app",
        public: false,
        defaultBranch: "main",
        createdAt: 1,
      });
      const web = await store.addRepo({
        owner: "acme",
        name: "web",
        public: true,
        defaultBranch: "main",
        createdAt: 1,
      });
      await store.grant({ repoId: app.id, subject: { kind: "user", id: anna.id }, level: "read" });
      await store.grant({ repoId: app.id, subject: { kind: "user", id: anna.id }, level: "admin" });
      await store.grant({
        repoId: web.id,
        subject: { kind: "group", id: leads.id },
        level: "write",
      });
      expect(await store.listGrants(app.id)).toEqual([
        { repoId: app.id, subject: { kind: "user", id: anna.id }, level: "admin" },
      ]);
      expect(await store.grantsFor(anna.id)).toEqual([
        { repoId: app.id, subject: { kind: "user", id: anna.id }, level: "admin" },
        { repoId: web.id, subject: { kind: "group", id: leads.id }, level: "write" },
      ]);
      expect(await store.revoke({ repoId: web.id, subject: { kind: "group", id: leads.id } })).toBe(
        true,
      );
      expect(await store.revoke({ repoId: web.id, subject: { kind: "group", id: leads.id } })).toBe(
        false,
      );
      expect((await store.getRepo("acme/web"))?.public).toBe(true);
      expect(await store.getRepo("acme/web/x")).toBeUndefined();
      expect((await store.listRepos()).map((r) => r.fullName)).toEqual(["acme/app", "acme/web"]);
      expect(await store.removeRepo("acme/app")).toBe(true);
      expect(await store.grantsFor(anna.id)).toEqual([]);
    });

    it("replaces a branch rule with its pushers and removes it", async () => {
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      const app = await store.addRepo({
        owner: "acme",
        name: "app",
        public: false,
        defaultBranch: "main",
        createdAt: 1,
      });
      await store.protectBranch({
        repoId: app.id,
        pattern: "release/*",
        pushUserIds: [anna.id],
        pushGroupIds: [],
        allowForcePush: false,
      });
      await store.protectBranch({
        repoId: app.id,
        pattern: "release/*",
        pushUserIds: [],
        pushGroupIds: [],
        allowForcePush: true,
      });
      await store.protectBranch({
        repoId: app.id,
        pattern: "main",
        pushUserIds: [anna.id],
        pushGroupIds: [],
        allowForcePush: false,
      });
      expect(await store.listBranchRules(app.id)).toEqual([
        {
          repoId: app.id,
          pattern: "main",
          pushUserIds: [anna.id],
          pushGroupIds: [],
          allowForcePush: false,
          requiredApprovals: 0,
        },
        {
          repoId: app.id,
          pattern: "release/*",
          pushUserIds: [],
          pushGroupIds: [],
          allowForcePush: true,
          requiredApprovals: 0,
        },
      ]);
      expect(await store.unprotectBranch(app.id, "main")).toBe(true);
      expect(await store.unprotectBranch(app.id, "main")).toBe(false);
      expect((await store.listBranchRules(app.id)).map((r) => r.pattern)).toEqual(["release/*"]);
    });

    it("keeps draft limits per user and per group, replaced and removed", async () => {
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      const team = await store.addGroup({ name: "team", createdAt: 1 });
      expect(await store.getDraftLimit({ kind: "user", id: anna.id })).toBeUndefined();
      await store.setDraftLimit({ kind: "user", id: anna.id }, 300);
      await store.setDraftLimit({ kind: "user", id: anna.id }, 400);
      await store.setDraftLimit({ kind: "group", id: team.id }, 250);
      expect(await store.getDraftLimit({ kind: "user", id: anna.id })).toBe(400);
      expect(await store.getDraftLimit({ kind: "group", id: team.id })).toBe(250);
      expect(await store.removeDraftLimit({ kind: "user", id: anna.id })).toBe(true);
      expect(await store.removeDraftLimit({ kind: "user", id: anna.id })).toBe(false);
      expect(await store.getDraftLimit({ kind: "group", id: team.id })).toBe(250);
    });

    it("numbers merge requests per repository, records approvals once and ends an open one once", async () => {
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      const bob = await store.addUser({ name: "bob", siteAdmin: false, createdAt: 1 });
      const app = await store.addRepo({
        owner: "acme",
        name: "app",
        public: false,
        defaultBranch: "main",
        createdAt: 1,
      });
      const lib = await store.addRepo({
        owner: "acme",
        name: "lib",
        public: false,
        defaultBranch: "main",
        createdAt: 1,
      });
      const open = (repoId: number, source: string) =>
        store.addMergeRequest({
          repoId,
          source,
          target: "main",
          title: source,
          body: "",
          origin: "human",
          authorId: anna.id,
          createdAt: 5,
        });
      expect((await open(app.id, "a")).number).toBe(1);
      expect((await open(app.id, "b")).number).toBe(2);
      expect((await open(lib.id, "c")).number).toBe(1);
      await store.approveMergeRequest(app.id, 2, bob.id, 7);
      await store.approveMergeRequest(app.id, 2, bob.id, 9);
      const two = await store.getMergeRequest(app.id, 2);
      expect(two?.approvals).toEqual([{ userId: bob.id, at: 7 }]);
      expect(
        await store.finishMergeRequest(app.id, 2, {
          state: "merged",
          at: 10,
          byId: bob.id,
          mergeCommit: "abc",
        }),
      ).toBe(true);
      expect(
        await store.finishMergeRequest(app.id, 2, { state: "closed", at: 11, byId: bob.id }),
      ).toBe(false);
      expect((await store.getMergeRequest(app.id, 2))?.state).toBe("merged");
      expect(
        (await store.listMergeRequests(app.id, { state: "open" })).map((m) => m.number),
      ).toEqual([1]);
      expect((await store.listMergeRequests(app.id)).map((m) => m.number)).toEqual([2, 1]);
      expect((await store.listMergeRequests(app.id, { source: "a" })).map((m) => m.source)).toEqual(
        ["a"],
      );
    });

    it("takes rate slots per token and route up to the limit of a window, then resets in the next", async () => {
      const take = (tokenId: number, windowStart: number, route = "shown") =>
        store.takeRateSlot({ tokenId, route, windowStart, limit: 3 });
      const first = [await take(1, 60_000), await take(1, 60_000), await take(1, 60_000)];
      expect(first).toEqual([true, true, true]);
      expect(await take(1, 60_000)).toBe(false);
      expect(await take(1, 60_000, "read")).toBe(true);
      expect(await take(2, 60_000)).toBe(true);
      expect(await take(1, 120_000)).toBe(true);
      expect(
        await store.takeRateSlot({ tokenId: 3, route: "shown", windowStart: 0, limit: 0 }),
      ).toBe(false);
    });

    it("keeps a web session until it expires, is signed out, or its token is revoked", async () => {
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      const token = await store.addToken({
        userId: anna.id,
        hash: "t1",
        prefix: "lore_t1",
        scopes: ["repo:read"],
        label: "web",
        createdAt: 1,
        expiresAt: null,
      });
      const session = { hash: "s1", tokenId: token.id, csrf: "c1", createdAt: 10, expiresAt: 100 };
      await store.addWebSession(session);
      await store.addWebSession({ ...session, hash: "s2" });
      expect(await store.findWebSession("s1", 99)).toEqual(session);
      expect(await store.findWebSession("s1", 100)).toBeUndefined();
      expect(await store.findWebSession("nope", 50)).toBeUndefined();
      expect(await store.removeWebSession("s1", 50)).toBe(true);
      expect(await store.removeWebSession("s1", 50)).toBe(false);
      expect(await store.findWebSession("s2", 50)).toBeDefined();
      await store.revokeToken(token.id);
      expect(await store.findWebSession("s2", 50)).toBeUndefined();
    });

    it("reopens a place without migrating again and keeps its records", async () => {
      await store.addUser({ name: "anna", siteAdmin: true, createdAt: 1 });
      await store.close();
      store = await harness.open();
      expect(await store.getUser("anna")).toEqual({
        id: 1,
        name: "anna",
        siteAdmin: true,
        createdAt: 1,
      });
      expect(await store.countUsers()).toBe(1);
      await store.close();
      await store.close(); // idempotent
      store = await harness.open();
    });

    it("two stores on one place see each other's writes (CLI beside lore serve)", async () => {
      const other = await another();
      await other.addUser({ name: "vera", siteAdmin: false, createdAt: 1 });
      expect((await store.getUser("vera"))?.name).toBe("vera");
    });

    it("answers ms times and ids as numbers, past 2^32", async () => {
      const at = 1_764_600_000_123;
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: at });
      const token = await store.addToken({
        userId: anna.id,
        hash: "h",
        prefix: "p",
        scopes: [],
        label: "",
        createdAt: at,
        expiresAt: at + 1,
      });
      const found = await store.findTokenByHash("h");
      expect(found).toEqual({ ...token, scopes: [] });
      expect(typeof found?.id).toBe("number");
      expect(found?.createdAt).toBe(at);
      expect(found?.expiresAt).toBe(at + 1);
      expect(await store.countUsers()).toBe(1);
      expect(typeof (await store.countUsers())).toBe("number");
      expect((await store.getUserById(anna.id))?.createdAt).toBe(at);
    });

    it("never gives an id again after a deletion: users, groups, tokens, keys, repos, merge requests", async () => {
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      const boris = await store.addUser({ name: "boris", siteAdmin: false, createdAt: 1 });
      await store.removeUser("boris");
      expect((await store.addUser({ name: "boris", siteAdmin: false, createdAt: 2 })).id).toBe(
        boris.id + 1,
      );
      const group = await store.addGroup({ name: "g", createdAt: 1 });
      await store.removeGroup("g");
      expect((await store.addGroup({ name: "g", createdAt: 1 })).id).toBeGreaterThan(group.id);
      const key = {
        userId: anna.id,
        algorithm: "ssh-ed25519",
        publicKey: "AAAA",
        fingerprint: "SHA256:k",
        comment: "",
        createdAt: 1,
      };
      const first = await store.addKey(key);
      await store.removeKey(first.id);
      expect((await store.addKey(key)).id).toBeGreaterThan(first.id);
      const repo = {
        owner: "acme",
        name: "app",
        public: false,
        defaultBranch: "main",
        createdAt: 1,
      };
      const app = await store.addRepo(repo);
      const mr = await store.addMergeRequest({
        repoId: app.id,
        source: "a",
        target: "main",
        title: "a",
        body: "",
        origin: "machine",
        authorId: anna.id,
        createdAt: 1,
      });
      await store.removeRepo("acme/app");
      const again = await store.addRepo(repo);
      expect(again.id).toBeGreaterThan(app.id);
      const next = await store.addMergeRequest({
        repoId: again.id,
        source: "a",
        target: "main",
        title: "a",
        body: "",
        origin: "human",
        authorId: anna.id,
        createdAt: 2,
      });
      expect(next.id).toBeGreaterThan(mr.id);
      expect(next.number).toBe(1); // numbers are per repository, and this is a new one
      expect(await store.getMergeRequest(app.id, 1)).toBeUndefined();
      expect(
        (
          await refusal(
            store.addMergeRequest({ ...next, repoId: app.id, origin: "human", createdAt: 3 }),
          )
        ).code,
      ).toBe("repo_not_found");
    });

    it("takes exactly `limit` rate slots of a window from two stores calling at once", async () => {
      const other = await another();
      const limit = 25;
      const calls = Array.from({ length: 120 }, (_, i) =>
        (i % 2 === 0 ? store : other).takeRateSlot({
          tokenId: 7,
          route: "shown",
          windowStart: 60_000,
          limit,
        }),
      );
      const taken = (await Promise.all(calls)).filter(Boolean).length;
      expect(taken).toBe(limit);
      expect(
        await store.takeRateSlot({ tokenId: 7, route: "shown", windowStart: 60_000, limit }),
      ).toBe(false);
      expect(
        await other.takeRateSlot({ tokenId: 7, route: "shown", windowStart: 120_000, limit }),
      ).toBe(true);
    });

    it("numbers merge requests opened at once from two stores 1…N, none twice", async () => {
      const other = await another();
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      const app = await store.addRepo({
        owner: "acme",
        name: "app",
        public: false,
        defaultBranch: "main",
        createdAt: 1,
      });
      const opened = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 === 0 ? store : other).addMergeRequest({
            repoId: app.id,
            source: `s${i}`,
            target: "main",
            title: `t${i}`,
            body: "",
            origin: "human",
            authorId: anna.id,
            createdAt: i,
          }),
        ),
      );
      expect(opened.map((m) => m.number).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
      expect((await other.listMergeRequests(app.id)).length).toBe(30);
    });

    it("keeps one grant and one draft limit when two stores set them at once", async () => {
      const other = await another();
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
      const app = await store.addRepo({
        owner: "acme",
        name: "app",
        public: false,
        defaultBranch: "main",
        createdAt: 1,
      });
      const subject = { kind: "user", id: anna.id } as const;
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? store : other).grant({
            repoId: app.id,
            subject,
            level: i % 2 === 0 ? "read" : "write",
          }),
        ),
      );
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? store : other).setDraftLimit(subject, i),
        ),
      );
      expect((await store.listGrants(app.id)).length).toBe(1);
      expect(await other.getDraftLimit(subject)).toBeGreaterThanOrEqual(0);
      expect(await store.removeDraftLimit(subject)).toBe(true);
      expect(await store.getDraftLimit(subject)).toBeUndefined();
    });

    it("sorts names byte-wise as SQLite does, whatever the locale", async () => {
      for (const name of ["b", "a-b", "ab", "a_b", "a.b", "a1"])
        await store.addUser({ name, siteAdmin: false, createdAt: 1 });
      expect((await store.listUsers()).map((u) => u.name)).toEqual(
        ["b", "a-b", "ab", "a_b", "a.b", "a1"].sort(),
      );
    });
  });
}
