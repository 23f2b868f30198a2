import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bareRepoPath } from "../../src/services/access/hosted-repos.js";
import { createToken } from "../../src/services/access/tokens.js";
import { addUser } from "../../src/services/access/users.js";
import { callJson, startTeamFixture, type TeamFixture } from "./team-fixture.js";

// The administration endpoints /api/v1/admin/… over real HTTP on a real server database:
// a site admin with an `admin` token does everything `lore user|token|group|access|key|
// repo|branch` do; a site admin without the scope, and every other user, get 403 forbidden
// naming what is missing, the same answer whatever the request names (nothing leaks).

const KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEHPC22CP0SgbgA+KcJ0AbU0L+7hxhEAOnM89niL4v5P anna@laptop\n";
const FINGERPRINT = "SHA256:uEa0sqQitrj+ksh4fbMBOIhSnfHUT0dSvyfbdLgszB8";

let team: TeamFixture;
let root: string;
let rootNoScope: string;

beforeAll(async () => {
  team = await startTeamFixture();
  await addUser(team.store, { name: "root", siteAdmin: true, now: Date.now() });
  root = (await createToken(team.store, { user: "root", scopes: ["admin"], now: Date.now() }))
    .secret;
  rootNoScope = (
    await createToken(team.store, {
      user: "root",
      scopes: ["knowledge:read", "knowledge:write", "repo:read", "repo:write"],
      now: Date.now(),
    })
  ).secret;
});
afterAll(async () => {
  await team.close();
});

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field in the assertions.
type Json = any;

function call(token: string, method: string, path: string, body?: unknown) {
  return callJson(team.base, token, method, `/api/v1/admin${path}`, body);
}

/** Every administration operation, with a body where it takes one. */
const OPERATIONS: [string, string, unknown?][] = [
  ["GET", "/users"],
  ["POST", "/users", { name: "mallory", site_admin: true }],
  ["DELETE", "/users/anna"],
  ["GET", "/tokens"],
  ["POST", "/tokens", { user: "anna", scopes: ["admin"] }],
  ["DELETE", "/tokens/1"],
  ["GET", "/groups"],
  ["POST", "/groups", { name: "leads" }],
  ["DELETE", "/groups/leads"],
  ["GET", "/groups/leads/members"],
  ["PUT", "/groups/leads/members/anna"],
  ["DELETE", "/groups/leads/members/anna"],
  ["GET", "/repos/acme/secret/access"],
  ["PUT", "/repos/acme/secret/access/anna", { level: "admin" }],
  ["DELETE", "/repos/acme/secret/access/anna"],
  ["GET", "/keys"],
  ["POST", "/keys", { user: "anna", key: KEY }],
  ["DELETE", "/keys/1"],
  ["GET", "/repos"],
  ["POST", "/repos", { full_name: "acme/new" }],
  ["DELETE", "/repos/acme/secret"],
  ["GET", "/repos/acme/secret/protected-branches"],
  ["PUT", "/repos/acme/secret/protected-branches/main", { allow_force_push: true }],
  ["DELETE", "/repos/acme/secret/protected-branches/main"],
];

describe("/api/v1/admin rights", () => {
  it("a user who is not a site admin gets 403 forbidden (site_admin) on every operation, the same for a hidden, a missing and a visible name", async () => {
    for (const [method, path, body] of OPERATIONS) {
      const answer = await call(team.tokens.anna, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body, `${method} ${path}`).toEqual({
        error: {
          code: "forbidden",
          message: "not allowed: this call needs site admin rights (lore user add NAME --admin)",
          data: { missing: "site_admin" },
        },
      });
    }
    const hidden = await call(team.tokens.vera, "GET", "/repos/acme/secret/access");
    const missing = await call(team.tokens.vera, "GET", "/repos/acme/none/access");
    expect(hidden.body).toEqual(missing.body);
    // Nothing was done.
    expect(await team.store.getUser("mallory")).toBeUndefined();
    expect(await team.store.getUser("anna")).toBeDefined();
    expect(await team.store.getRepo("acme/secret")).toBeDefined();
    expect(await team.store.getRepo("acme/new")).toBeUndefined();
  });

  it("a site admin whose token lacks the admin scope gets 403 naming scope admin, also before a bad body is read", async () => {
    for (const [method, path, body] of OPERATIONS) {
      const answer = await call(rootNoScope, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.error).toMatchObject({
        code: "forbidden",
        data: { missing: "scope admin" },
      });
    }
    const bad = await call(team.tokens.anna, "POST", "/users", { nmae: "x" });
    expect(bad.status).toBe(403);
  });

  it("no token is 401 token_required; the Russian message follows Accept-Language", async () => {
    const none = await fetch(`${team.base}/api/v1/admin/users`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as Json).error.code).toBe("token_required");
    const ru = await fetch(`${team.base}/api/v1/admin/users`, {
      headers: { authorization: `Bearer ${team.tokens.anna}`, "accept-language": "ru" },
    });
    expect(((await ru.json()) as Json).error.message).toBe(
      "нет прав: для этого вызова нужны права администратора сервера (lore user add ИМЯ --admin)",
    );
  });
});

describe("/api/v1/admin for a site admin with the admin scope", () => {
  it("users: add 201, duplicate 409 user_exists, bad name 400, list, rm 204, rm again 404", async () => {
    const added = await call(root, "POST", "/users", { name: "gleb" });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: "gleb", site_admin: false });
    expect(Date.parse(added.body.created_at)).toBeGreaterThan(0);
    expect((await call(root, "POST", "/users", { name: "gleb" })).body.error.code).toBe(
      "user_exists",
    );
    expect((await call(root, "POST", "/users", { name: "gleb" })).status).toBe(409);
    const bad = await call(root, "POST", "/users", { name: "-rf" });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
    const typo = await call(root, "POST", "/users", { name: "x", siteadmin: true });
    expect(typo).toMatchObject({
      status: 400,
      body: {
        error: { code: "unknown_field", data: { field: "siteadmin", nearest: "site_admin" } },
      },
    });
    const list = await call(root, "GET", "/users");
    expect(list.body.map((u: Json) => [u.name, u.site_admin])).toEqual([
      ["anna", false],
      ["boris", false],
      ["gleb", false],
      ["root", true],
      ["vera", false],
    ]);
    expect((await call(root, "DELETE", "/users/gleb")).status).toBe(204);
    expect(await call(root, "DELETE", "/users/gleb")).toMatchObject({
      status: 404,
      body: { error: { code: "user_not_found", message: "no user gleb" } },
    });
  });

  it("tokens: the secret is in the create answer only, it works, list never shows it, revoke stops it", async () => {
    const created = await call(root, "POST", "/tokens", {
      user: "boris",
      scopes: ["repo:read", "knowledge:read"],
      expires: "30d",
      label: "ci",
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const { secret, token } = created.body;
    expect(secret).toMatch(/^lore_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({
      user: "boris",
      scopes: ["knowledge:read", "repo:read"],
      label: "ci",
      prefix: secret.slice(0, 12),
      last_used_at: null,
    });
    expect(Date.parse(token.expires_at) - Date.parse(token.created_at)).toBe(30 * 86_400_000);
    const who = await fetch(`${team.base}/api/v1/user`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(((await who.json()) as Json).name).toBe("boris");
    const listed = await call(root, "GET", "/tokens?user=boris");
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(JSON.stringify(listed.body)).not.toContain("hash");
    expect(listed.body.map((t: Json) => t.id)).toContain(token.id);
    const typo = await call(root, "POST", "/tokens", { user: "boris", scopes: ["knowlege:read"] });
    expect(typo.status).toBe(400);
    expect(typo.body.error.message).toContain("did you mean knowledge:read?");
    expect(
      (
        await call(root, "POST", "/tokens", {
          user: "boris",
          scopes: ["admin"],
          expires: "30 days",
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(root, "POST", "/tokens", { user: "nobody", scopes: ["admin"] })).status,
    ).toBe(404);
    expect((await call(root, "GET", "/tokens?user=nobody")).status).toBe(404);
    expect((await call(root, "DELETE", `/tokens/${token.id}`)).status).toBe(204);
    const after = await fetch(`${team.base}/api/v1/user`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(after.status).toBe(401);
    expect(await call(root, "DELETE", `/tokens/${token.id}`)).toMatchObject({
      status: 404,
      body: { error: { code: "token_not_found" } },
    });
    expect((await call(root, "DELETE", "/tokens/x1")).body.error.code).toBe("token_not_found");
  });

  it("groups and members, access grants, branch rules, keys, repositories", async () => {
    expect((await call(root, "POST", "/groups", { name: "leads" })).body).toMatchObject({
      name: "leads",
      members: [],
    });
    expect((await call(root, "POST", "/groups", { name: "leads" })).status).toBe(409);
    expect((await call(root, "PUT", "/groups/leads/members/boris")).status).toBe(204);
    expect((await call(root, "GET", "/groups/leads/members")).body).toEqual({
      group: "leads",
      members: ["boris"],
    });
    expect((await call(root, "GET", "/groups")).body).toMatchObject([
      { name: "leads", members: ["boris"] },
    ]);
    expect((await call(root, "PUT", "/groups/leads/members/nobody")).status).toBe(404);

    const grant = await call(root, "PUT", "/repos/acme/secret/access/group:leads", {
      level: "write",
    });
    expect(grant).toMatchObject({ status: 200, body: { subject: "group:leads", level: "write" } });
    expect(
      (await call(root, "PUT", "/repos/acme/secret/access/boris", { level: "owner" })).status,
    ).toBe(400);
    expect((await call(root, "GET", "/repos/acme/secret/access")).body).toEqual({
      repo: "acme/secret",
      public: false,
      grants: [{ subject: "group:leads", level: "write" }],
    });
    // boris, a member, now reads the repository he could not see.
    const seen = await fetch(`${team.base}/api/v1/repos`, {
      headers: { authorization: `Bearer ${team.tokens.boris}` },
    });
    expect(((await seen.json()) as Json).map((r: Json) => r.full_name)).toContain("acme/secret");

    const rule = await call(
      root,
      "PUT",
      `/repos/acme/secret/protected-branches/${encodeURIComponent("release/*")}`,
      {
        push: ["boris", "group:leads"],
        required_approvals: 2,
      },
    );
    expect(rule).toMatchObject({
      status: 200,
      body: {
        pattern: "release/*",
        push: ["boris", "group:leads"],
        allow_force_push: false,
        required_approvals: 2,
      },
    });
    expect((await call(root, "GET", "/repos/acme/secret/protected-branches")).body).toEqual([
      rule.body,
    ]);
    expect(
      (
        await call(root, "PUT", "/repos/acme/secret/protected-branches/main", {
          required_approvals: 101,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(
          root,
          "DELETE",
          `/repos/acme/secret/protected-branches/${encodeURIComponent("release/*")}`,
        )
      ).body,
    ).toEqual({ removed: true });
    expect((await call(root, "DELETE", "/repos/acme/secret/protected-branches/main")).body).toEqual(
      {
        removed: false,
      },
    );

    expect((await call(root, "DELETE", "/repos/acme/secret/access/group:leads")).body).toEqual({
      revoked: true,
    });
    expect((await call(root, "DELETE", "/repos/acme/secret/access/group:leads")).body).toEqual({
      revoked: false,
    });
    expect((await call(root, "DELETE", "/groups/leads/members/boris")).body).toEqual({
      removed: true,
    });
    expect((await call(root, "DELETE", "/groups/leads/members/boris")).body).toEqual({
      removed: false,
    });
    expect((await call(root, "DELETE", "/groups/leads")).status).toBe(204);

    const key = await call(root, "POST", "/keys", { user: "anna", key: KEY });
    expect(key).toMatchObject({
      status: 201,
      body: {
        user: "anna",
        fingerprint: FINGERPRINT,
        algorithm: "ssh-ed25519",
        comment: "anna@laptop",
      },
    });
    expect((await call(root, "POST", "/keys", { user: "boris", key: KEY })).body.error.code).toBe(
      "key_exists",
    );
    expect(
      (
        await call(root, "POST", "/keys", {
          user: "anna",
          key: "-----BEGIN OPENSSH PRIVATE KEY-----",
        })
      ).body.error.code,
    ).toBe("key_invalid");
    expect((await call(root, "GET", "/keys?user=anna")).body).toEqual([key.body]);
    // A fingerprint holds “/” and “+”: URL-encoded as one segment.
    expect((await call(root, "DELETE", `/keys/${encodeURIComponent(FINGERPRINT)}`)).body).toEqual(
      key.body,
    );
    expect((await call(root, "DELETE", `/keys/${key.body.id}`)).body.error.code).toBe(
      "key_not_found",
    );

    const repo = await call(root, "POST", "/repos", {
      full_name: "acme/tools",
      public: true,
      default_branch: "trunk",
    });
    const path = bareRepoPath(team.data, "acme/tools");
    expect(repo).toMatchObject({
      status: 201,
      body: {
        full_name: "acme/tools",
        owner: "acme",
        name: "tools",
        public: true,
        default_branch: "trunk",
        path,
      },
    });
    expect(existsSync(path)).toBe(true);
    expect((await call(root, "POST", "/repos", { full_name: "acme/tools" })).status).toBe(409);
    expect((await call(root, "POST", "/repos", { full_name: "Acme/App" })).body.error.code).toBe(
      "invalid_repo_name",
    );
    expect((await call(root, "GET", "/repos")).body.map((r: Json) => r.full_name)).toEqual([
      "acme/private",
      "acme/public",
      "acme/secret",
      "acme/tools",
    ]);
    expect(await call(root, "DELETE", "/repos/acme/tools")).toMatchObject({
      status: 200,
      body: { full_name: "acme/tools", path },
    });
    expect(existsSync(path)).toBe(false);
    expect((await call(root, "DELETE", "/repos/acme/tools")).body.error.code).toBe(
      "repo_not_found",
    );
  });

  it("the OpenAPI document describes every administration operation with its answers", async () => {
    const doc = (await (
      await fetch(`${team.base}/api/v1/openapi.json`, {
        headers: { authorization: `Bearer ${root}` },
      })
    ).json()) as Json;
    for (const [method, path] of OPERATIONS) {
      const template = path
        .replace(/^\/users\/anna$/, "/users/{user}")
        .replace(/^\/tokens\/1$/, "/tokens/{id}")
        .replace(/^\/groups\/leads\/members\/anna$/, "/groups/{group}/members/{user}")
        .replace(/^\/groups\/leads/, "/groups/{group}")
        .replace(/^\/keys\/1$/, "/keys/{key}")
        .replace(/^\/repos\/acme\/secret/, "/repos/{owner}/{name}")
        .replace(/\/access\/anna$/, "/access/{subject}")
        .replace(/\/protected-branches\/main$/, "/protected-branches/{pattern}");
      const operation = doc.paths[`/api/v1/admin${template}`]?.[method.toLowerCase()];
      expect(operation, `${method} ${template}`).toBeDefined();
      for (const status of ["400", "401", "403", "404", "409"]) {
        expect(operation.responses[status], `${method} ${template} ${status}`).toBeDefined();
      }
    }
  });
});
