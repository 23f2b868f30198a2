import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeEngines } from "../../../test/helpers/store-engines.js";
import { type Need, type Principal, SCOPES, type Scope } from "../../core/access/rights.js";
import type { LoreError } from "../../core/errors/lore-error.js";
import type { ServerStore } from "../../ports/server-store.js";
import { authenticateToken, TOUCH_INTERVAL_MS } from "./authenticate.js";
import { authorizeRepo, readableRepos } from "./authorize.js";
import { createToken, hashToken, listTokens, revokeToken, TOKEN_PATTERN } from "./tokens.js";
import { addUser } from "./users.js";

const NEEDS: readonly Need[] = ["knowledge:read", "knowledge:write", "repo:read", "repo:write"];
const NOW = Date.UTC(2026, 11, 1, 10, 0, 0);

async function refusal(promise: Promise<unknown>): Promise<LoreError> {
  try {
    await promise;
  } catch (error) {
    return error as LoreError;
  }
  throw new Error("expected a refusal");
}

/** What a call answers, as comparable data: allowed, or the error's code, messages, data. */
async function outcome(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
    return "allowed";
  } catch (error) {
    const e = error as LoreError;
    return { code: e.code, en: e.text.en, ru: e.text.ru, data: e.data };
  }
}

describe.each(storeEngines("access"))(
  "tokens, authentication and rights on a real store ($name)",
  (engine) => {
    let dir: string;
    let store: ServerStore;

    async function login(user: string, scopes: readonly Scope[] = SCOPES): Promise<Principal> {
      const { secret } = await createToken(store, { user, scopes, now: NOW });
      return authenticateToken(store, secret, NOW);
    }

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), "lore-access-"));
      store = await engine.open(join(dir, "data"));
      for (const name of ["anna", "boris", "vera"]) await addUser(store, { name, now: NOW });
      await addUser(store, { name: "root", siteAdmin: true, now: NOW });
      const add = (name: string, isPublic: boolean) =>
        store.addRepo({
          owner: "acme",
          name,
          public: isPublic,
          defaultBranch: "main",
          createdAt: NOW,
        });
      await add("public", true);
      const priv = await add("private", false);
      await add("secret", false);
      const anna = await store.getUser("anna");
      await store.grant({
        repoId: priv.id,
        subject: { kind: "user", id: anna?.id ?? 0 },
        level: "read",
      });
    });
    afterEach(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("creates a token shown once: lore_ + 43 base64url characters, only its hash stored", async () => {
      const { secret, token } = await createToken(store, {
        user: "anna",
        scopes: ["knowledge:read"],
        label: "laptop",
        expiresInMs: 30 * 86_400_000,
        now: NOW,
      });
      expect(secret).toMatch(TOKEN_PATTERN);
      expect(secret.length).toBe(48);
      expect(token.hash).toBe(hashToken(secret));
      expect(token.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(token.prefix).toBe(secret.slice(0, 12));
      expect(token.expiresAt).toBe(NOW + 30 * 86_400_000);
      const listed = await listTokens(store, "anna");
      expect(listed.map((t) => [t.user, t.label, t.scopes])).toEqual([
        ["anna", "laptop", ["knowledge:read"]],
      ]);
      expect(JSON.stringify(await store.listTokens())).not.toContain(secret);
      const other = await createToken(store, {
        user: "anna",
        scopes: ["knowledge:read"],
        now: NOW,
      });
      expect(other.secret).not.toBe(secret);
      expect(
        (await refusal(createToken(store, { user: "nobody", scopes: ["admin"], now: NOW }))).code,
      ).toBe("user_not_found");
    });

    it("authenticates a token to its user and scopes and records its last use", async () => {
      const { secret, token } = await createToken(store, {
        user: "boris",
        scopes: ["repo:read"],
        now: NOW,
      });
      const principal = await authenticateToken(store, secret, NOW + 5);
      expect(principal).toEqual({
        userId: token.userId,
        user: "boris",
        siteAdmin: false,
        scopes: ["repo:read"],
        tokenId: token.id,
      });
      expect((await store.findTokenByHash(token.hash))?.lastUsedAt).toBe(NOW + 5);
      await authenticateToken(store, secret, NOW + 10);
      expect((await store.findTokenByHash(token.hash))?.lastUsedAt).toBe(NOW + 5);
      await authenticateToken(store, secret, NOW + 5 + TOUCH_INTERVAL_MS);
      expect((await store.findTokenByHash(token.hash))?.lastUsedAt).toBe(
        NOW + 5 + TOUCH_INTERVAL_MS,
      );
    });

    it("refuses malformed, unknown and revoked tokens alike with token_invalid", async () => {
      const { secret, token } = await createToken(store, {
        user: "anna",
        scopes: ["repo:read"],
        now: NOW,
      });
      const unknown = `lore_${"A".repeat(43)}`;
      const answers = [
        await outcome(authenticateToken(store, "", NOW)),
        await outcome(authenticateToken(store, "lore_short", NOW)),
        await outcome(authenticateToken(store, `${secret}x`, NOW)),
        await outcome(authenticateToken(store, unknown, NOW)),
      ];
      await revokeToken(store, token.id);
      answers.push(await outcome(authenticateToken(store, secret, NOW)));
      for (const answer of answers) {
        expect(answer).toEqual({
          code: "token_invalid",
          en: "the token is not valid (unknown or revoked); create one with lore token create",
          ru: "токен недействителен (неизвестен или отозван); создайте новый: lore token create",
          data: {},
        });
      }
      expect((await refusal(revokeToken(store, token.id))).code).toBe("token_not_found");
    });

    it("refuses an expired token with token_expired and the ISO time it expired", async () => {
      const { secret } = await createToken(store, {
        user: "anna",
        scopes: ["repo:read"],
        expiresInMs: 12 * 3_600_000,
        now: NOW,
      });
      await authenticateToken(store, secret, NOW + 12 * 3_600_000 - 1);
      const error = await refusal(authenticateToken(store, secret, NOW + 12 * 3_600_000));
      expect(error.code).toBe("token_expired");
      expect(error.kind).toBe("unauthenticated");
      expect(error.data).toEqual({ expired_at: "2026-12-01T22:00:00.000Z" });
      expect(error.message).toBe(
        "the token expired at 2026-12-01T22:00:00.000Z; create a new one with lore token create",
      );
    });

    it("three users × three repositories × every need: public read, private for anna, secret hidden", async () => {
      const got: Record<string, Record<string, unknown>> = {};
      for (const user of ["anna", "boris", "vera"]) {
        const principal = await login(user);
        for (const repo of ["acme/public", "acme/private", "acme/secret"]) {
          for (const need of NEEDS) {
            const answer = await outcome(authorizeRepo(store, principal, repo, need));
            got[user] ??= {};
            (got[user] as Record<string, unknown>)[`${repo} ${need}`] =
              answer === "allowed"
                ? "allowed"
                : (answer as { code: string; data: unknown }).code === "forbidden"
                  ? `forbidden: ${(answer as { data: { missing: string } }).data.missing}`
                  : (answer as { code: string }).code;
          }
        }
      }
      const publicRow = {
        "acme/public knowledge:read": "allowed",
        "acme/public knowledge:write": "forbidden: write access to acme/public",
        "acme/public repo:read": "allowed",
        "acme/public repo:write": "forbidden: write access to acme/public",
      };
      const hidden = (repo: string) =>
        Object.fromEntries(NEEDS.map((need) => [`${repo} ${need}`, "repo_not_found"]));
      expect(got.anna).toEqual({
        ...publicRow,
        "acme/private knowledge:read": "allowed",
        "acme/private knowledge:write": "forbidden: write access to acme/private",
        "acme/private repo:read": "allowed",
        "acme/private repo:write": "forbidden: write access to acme/private",
        ...hidden("acme/secret"),
      });
      for (const user of ["boris", "vera"]) {
        expect(got[user]).toEqual({
          ...publicRow,
          ...hidden("acme/private"),
          ...hidden("acme/secret"),
        });
      }
    });

    it("a hidden repository answers exactly as a missing one: same code, message, data", async () => {
      const vera = await login("vera");
      const anna = await login("anna");
      const before: unknown[] = [];
      for (const principal of [vera, anna]) {
        for (const need of NEEDS)
          before.push(await outcome(authorizeRepo(store, principal, "acme/secret", need)));
      }
      expect(await store.removeRepo("acme/secret")).toBe(true);
      const after: unknown[] = [];
      for (const principal of [vera, anna]) {
        for (const need of NEEDS)
          after.push(await outcome(authorizeRepo(store, principal, "acme/secret", need)));
      }
      expect(before).toEqual(after);
      expect(after[0]).toEqual({
        code: "repo_not_found",
        en: "no repository acme/secret",
        ru: "нет репозитория acme/secret",
        data: {},
      });
      // boris on private (hidden) vs a name that never existed: the same shape.
      const boris = await login("boris");
      const hiddenPrivate = (await outcome(
        authorizeRepo(store, boris, "acme/private", "repo:read"),
      )) as {
        en: string;
      };
      const missing = (await outcome(authorizeRepo(store, boris, "acme/nothing", "repo:read"))) as {
        en: string;
      };
      expect(hiddenPrivate.en.replace("acme/private", "X")).toBe(
        missing.en.replace("acme/nothing", "X"),
      );
    });

    it("readableRepos: what each user may read, nothing of the secret one; write needs a write level", async () => {
      const names = async (user: string, need?: Need) =>
        (await readableRepos(store, await login(user), need)).map((r) => r.fullName);
      expect(await names("anna")).toEqual(["acme/private", "acme/public"]);
      expect(await names("boris")).toEqual(["acme/public"]);
      expect(await names("vera")).toEqual(["acme/public"]);
      expect(await names("anna", "repo:read")).toEqual(["acme/private", "acme/public"]);
      expect(await names("anna", "knowledge:write")).toEqual([]);
      expect(await names("root")).toEqual(["acme/private", "acme/public", "acme/secret"]);
      expect(await names("root", "repo:write")).toEqual([
        "acme/private",
        "acme/public",
        "acme/secret",
      ]);
    });

    it("a token narrower than the level is forbidden naming the missing scope; still hidden where unreadable", async () => {
      const anna = await login("anna", ["knowledge:read"]);
      await expect(
        authorizeRepo(store, anna, "acme/private", "knowledge:read"),
      ).resolves.toMatchObject({
        fullName: "acme/private",
      });
      const error = await refusal(authorizeRepo(store, anna, "acme/private", "repo:read"));
      expect(error.code).toBe("forbidden");
      expect(error.data).toEqual({ missing: "scope repo:read" });
      expect(error.message).toBe("not allowed: this call needs scope repo:read");
      expect(error.text.ru).toBe("нет прав: для этого вызова нужно scope repo:read");
      expect((await refusal(authorizeRepo(store, anna, "acme/secret", "repo:read"))).code).toBe(
        "repo_not_found",
      );
      expect((await readableRepos(store, anna, "repo:read")).length).toBe(0);
      // A site admin's token still carries only its scopes.
      const root = await login("root", ["repo:read"]);
      expect(
        (await refusal(authorizeRepo(store, root, "acme/secret", "knowledge:read"))).data,
      ).toEqual({
        missing: "scope knowledge:read",
      });
    });

    it("group grants: the effective level is the highest of the user's own and their groups'", async () => {
      const team = await store.addRepo({
        owner: "acme",
        name: "team",
        public: false,
        defaultBranch: "main",
        createdAt: NOW,
      });
      const devs = await store.addGroup({ name: "devs", createdAt: NOW });
      const boris = await store.getUser("boris");
      const vera = await store.getUser("vera");
      await store.addMember(devs.id, boris?.id ?? 0);
      await store.addMember(devs.id, vera?.id ?? 0);
      await store.grant({
        repoId: team.id,
        subject: { kind: "group", id: devs.id },
        level: "write",
      });
      await store.grant({
        repoId: team.id,
        subject: { kind: "user", id: boris?.id ?? 0 },
        level: "read",
      });
      const b = await login("boris");
      await expect(authorizeRepo(store, b, "acme/team", "repo:write")).resolves.toMatchObject({
        id: team.id,
      });
      await expect(authorizeRepo(store, b, "acme/team", "knowledge:write")).resolves.toMatchObject({
        id: team.id,
      });
      const anna = await login("anna");
      expect((await refusal(authorizeRepo(store, anna, "acme/team", "repo:read"))).code).toBe(
        "repo_not_found",
      );
      // Leaving the group drops to the own grant.
      await store.removeMember(devs.id, boris?.id ?? 0);
      expect((await refusal(authorizeRepo(store, b, "acme/team", "repo:write"))).data).toEqual({
        missing: "write access to acme/team",
      });
      // vera reads only through the group; a group grant to read makes it read-only.
      await store.grant({
        repoId: team.id,
        subject: { kind: "group", id: devs.id },
        level: "read",
      });
      const v = await login("vera");
      expect((await readableRepos(store, v)).map((r) => r.fullName)).toEqual([
        "acme/public",
        "acme/team",
      ]);
      expect((await refusal(authorizeRepo(store, v, "acme/team", "repo:write"))).code).toBe(
        "forbidden",
      );
      // A public repository with a write grant: write wins over public read.
      const pub = await store.getRepo("acme/public");
      await store.grant({
        repoId: pub?.id ?? 0,
        subject: { kind: "group", id: devs.id },
        level: "write",
      });
      await expect(authorizeRepo(store, v, "acme/public", "repo:write")).resolves.toMatchObject({
        fullName: "acme/public",
      });
    });
  },
);
