import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LoreError } from "../../core/errors/lore-error.js";
import type { ServerStore } from "../../ports/server-store.js";
import { SERVER_MIGRATIONS } from "./migrations.js";
import { openSqliteServerStore, SERVER_DB_FILE } from "./sqlite-server-store.js";

describe("SQLite server store", () => {
  let dir: string;
  let file: string;
  let store: ServerStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lore-server-store-"));
    file = join(dir, SERVER_DB_FILE);
    store = openSqliteServerStore(file);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function refusal(promise: Promise<unknown>): Promise<LoreError> {
    try {
      await promise;
    } catch (error) {
      return error as LoreError;
    }
    throw new Error("expected a refusal");
  }

  it("creates a WAL file with foreign keys, a busy timeout and the latest schema version", () => {
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw.pragma("user_version", { simple: true })).toBe(SERVER_MIGRATIONS.length);
    const tables = (
      raw
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    expect(tables).toEqual([
      "branch_rule_pushers",
      "branch_rules",
      "draft_limits",
      "grants",
      "groups",
      "members",
      "merge_requests",
      "mr_approvals",
      "rate_windows",
      "repos",
      "ssh_keys",
      "tokens",
      "users",
      "web_sessions",
    ]);
    raw.close();
  });

  it("reopens an existing file without migrating again and keeps its records", async () => {
    await store.addUser({ name: "anna", siteAdmin: true, createdAt: 1 });
    await store.close();
    store = openSqliteServerStore(file);
    expect(await store.getUser("anna")).toEqual({
      id: 1,
      name: "anna",
      siteAdmin: true,
      createdAt: 1,
    });
    expect(await store.countUsers()).toBe(1);
  });

  it("refuses a file written by a newer Lore", async () => {
    await store.close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SERVER_MIGRATIONS.length + 1}`);
    raw.close();
    let error: LoreError | undefined;
    try {
      store = openSqliteServerStore(file);
    } catch (caught) {
      error = caught as LoreError;
    }
    expect(error?.code).toBe("index_failed");
    expect(error?.message).toContain(
      `the server database has schema version ${SERVER_MIGRATIONS.length + 1}`,
    );
    store = openSqliteServerStore(":memory:");
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
      store.addRepo({ owner: "acme", name: "app", public: true, defaultBranch: "x", createdAt: 2 }),
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
    await store.grant({ repoId: repo.id, subject: { kind: "user", id: anna.id }, level: "write" });
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
    await store.grant({ repoId: web.id, subject: { kind: "group", id: leads.id }, level: "write" });
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

  it("two connections to one file see each other's writes (CLI beside lore serve)", async () => {
    const other = openSqliteServerStore(file);
    await other.addUser({ name: "vera", siteAdmin: false, createdAt: 1 });
    expect((await store.getUser("vera"))?.name).toBe("vera");
    await other.close();
    await other.close();
  });
});

describe("a damaged server database", () => {
  it("is refused with advice to restore it, never to delete it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lore-server-store-bad-"));
    const file = join(dir, SERVER_DB_FILE);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, "this is not a database, it is a text file of some length".repeat(100));
    const { describeError } = await import("../../cli/print-error.js");
    let caught: unknown;
    try {
      openSqliteServerStore(file);
    } catch (error) {
      caught = error;
    }
    expect((caught as LoreError).code).toBe("index_failed");
    expect(describeError(caught, "en").line).toBe(
      `lore: the index failed: the server database ${file} is damaged or not a database; restore it from a backup (it holds the users, tokens and grants: do not delete it) [index_failed]`,
    );
    expect((caught as LoreError).data.sqlite).toBe("SQLITE_NOTADB");
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("SQLite server store: drafts and merge requests", () => {
  let dir: string;
  let store: ServerStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lore-server-store-"));
    store = openSqliteServerStore(join(dir, SERVER_DB_FILE));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
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
    expect((await store.listMergeRequests(app.id, { state: "open" })).map((m) => m.number)).toEqual(
      [1],
    );
    expect((await store.listMergeRequests(app.id)).map((m) => m.number)).toEqual([2, 1]);
    expect((await store.listMergeRequests(app.id, { source: "a" })).map((m) => m.source)).toEqual([
      "a",
    ]);
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
    expect(await store.takeRateSlot({ tokenId: 3, route: "shown", windowStart: 0, limit: 0 })).toBe(
      false,
    );
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
});
