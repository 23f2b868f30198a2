/**
 * The administration endpoints (seed 004, team server: users, groups, API tokens, access
 * levels, SSH keys, hosted repositories, branch protection) under `/api/v1/admin/…`: what
 * `lore user|token|group|access|key|repo|branch` do on the database, over HTTP. Site admins
 * only, with a token carrying the `admin` scope: anyone else gets 403 `forbidden` naming
 * what is missing, decided before any name in the request is looked at (nothing leaks).
 * A created token's secret is in the answer once; the server keeps only its hash.
 */
import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import {
  toWireCreatedToken,
  toWireGroup,
  toWireKey,
  toWireRepo,
  toWireRule,
  toWireToken,
  toWireUser,
  wireAccessList,
} from "../../core/access/admin-wire.js";
import { parseScopes } from "../../core/access/parse-scopes.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { AdminPort } from "../../ports/admin-port.js";
import {
  AccessParamsSchema,
  ADMIN_ERROR_RESPONSES,
  AdminAccessListSchema,
  AdminBranchRuleBodySchema,
  AdminBranchRuleSchema,
  AdminCreatedTokenSchema,
  AdminGrantBodySchema,
  AdminGrantSchema,
  AdminGroupBodySchema,
  AdminGroupSchema,
  AdminKeyBodySchema,
  AdminKeySchema,
  AdminMembersSchema,
  AdminRemovedRepoSchema,
  AdminRemovedSchema,
  AdminRepoBodySchema,
  AdminRepoParamsSchema,
  AdminRepoSchema,
  AdminRevokedSchema,
  AdminTokenBodySchema,
  AdminTokenSchema,
  AdminUserBodySchema,
  AdminUserSchema,
  GroupParamsSchema,
  KeyParamsSchema,
  MemberParamsSchema,
  PatternParamsSchema,
  TokenParamsSchema,
  UserParamsSchema,
  UserQuerySchema,
} from "../admin-schemas.js";
import { strictHook } from "../body-refusal.js";
import type { HttpEnv, ServerApi } from "../server-api.js";

const security = [{ bearer: [] }];
const BASE = "/api/v1/admin";
const tags = ["admin"];

/** A JSON answer of one status. */
function json<S extends z.ZodType>(status: 200 | 201, description: string, schema: S) {
  return { [status]: { description, content: { "application/json": { schema } } } } as {
    [K in typeof status]: { description: string; content: { "application/json": { schema: S } } };
  };
}

const noContent = { 204: { description: "Done, no body" } } as const;
const jsonBody = <S extends z.ZodType>(schema: S) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

const routes = {
  listUsers: createRoute({
    method: "get",
    path: `${BASE}/users`,
    summary: "Every user of the server, by name (lore user list)",
    tags,
    security,
    responses: { ...json(200, "The users", AdminUserSchema.array()), ...ADMIN_ERROR_RESPONSES },
  }),
  addUser: createRoute({
    method: "post",
    path: `${BASE}/users`,
    summary: "Add a user (lore user add NAME [--admin])",
    tags,
    security,
    request: jsonBody(AdminUserBodySchema),
    responses: { ...json(201, "The new user", AdminUserSchema), ...ADMIN_ERROR_RESPONSES },
  }),
  removeUser: createRoute({
    method: "delete",
    path: `${BASE}/users/{user}`,
    summary: "Remove a user with their tokens, keys, grants and memberships (lore user rm)",
    tags,
    security,
    request: { params: UserParamsSchema },
    responses: { ...noContent, ...ADMIN_ERROR_RESPONSES },
  }),
  listTokens: createRoute({
    method: "get",
    path: `${BASE}/tokens`,
    summary: "The tokens of one user (?user=) or of all, never a secret (lore token list)",
    tags,
    security,
    request: { query: UserQuerySchema },
    responses: { ...json(200, "The tokens", AdminTokenSchema.array()), ...ADMIN_ERROR_RESPONSES },
  }),
  createToken: createRoute({
    method: "post",
    path: `${BASE}/tokens`,
    summary: "Create a token; its secret is in this answer only (lore token create)",
    tags,
    security,
    request: jsonBody(AdminTokenBodySchema),
    responses: {
      ...json(201, "The secret, shown once, and the token", AdminCreatedTokenSchema),
      ...ADMIN_ERROR_RESPONSES,
    },
  }),
  revokeToken: createRoute({
    method: "delete",
    path: `${BASE}/tokens/{id}`,
    summary: "Revoke a token: it stops working at once (lore token revoke)",
    tags,
    security,
    request: { params: TokenParamsSchema },
    responses: { ...noContent, ...ADMIN_ERROR_RESPONSES },
  }),
  listGroups: createRoute({
    method: "get",
    path: `${BASE}/groups`,
    summary: "Every group with its members (lore group list)",
    tags,
    security,
    responses: { ...json(200, "The groups", AdminGroupSchema.array()), ...ADMIN_ERROR_RESPONSES },
  }),
  addGroup: createRoute({
    method: "post",
    path: `${BASE}/groups`,
    summary: "Add a group (lore group add)",
    tags,
    security,
    request: jsonBody(AdminGroupBodySchema),
    responses: { ...json(201, "The new group", AdminGroupSchema), ...ADMIN_ERROR_RESPONSES },
  }),
  removeGroup: createRoute({
    method: "delete",
    path: `${BASE}/groups/{group}`,
    summary: "Remove a group with its memberships and grants (lore group rm)",
    tags,
    security,
    request: { params: GroupParamsSchema },
    responses: { ...noContent, ...ADMIN_ERROR_RESPONSES },
  }),
  listMembers: createRoute({
    method: "get",
    path: `${BASE}/groups/{group}/members`,
    summary: "A group's members, by name (lore group member list)",
    tags,
    security,
    request: { params: GroupParamsSchema },
    responses: { ...json(200, "The members", AdminMembersSchema), ...ADMIN_ERROR_RESPONSES },
  }),
  addMember: createRoute({
    method: "put",
    path: `${BASE}/groups/{group}/members/{user}`,
    summary:
      "Make a user a member of a group; already one: nothing changes (lore group member add)",
    tags,
    security,
    request: { params: MemberParamsSchema },
    responses: { ...noContent, ...ADMIN_ERROR_RESPONSES },
  }),
  removeMember: createRoute({
    method: "delete",
    path: `${BASE}/groups/{group}/members/{user}`,
    summary: "Take a user out of a group; removed: false when they were not a member",
    tags,
    security,
    request: { params: MemberParamsSchema },
    responses: {
      ...json(200, "Whether they were a member", AdminRemovedSchema),
      ...ADMIN_ERROR_RESPONSES,
    },
  }),
  listAccess: createRoute({
    method: "get",
    path: `${BASE}/repos/{owner}/{name}/access`,
    summary: "The grants on a repository, users first (lore access list)",
    tags,
    security,
    request: { params: AdminRepoParamsSchema },
    responses: { ...json(200, "The grants", AdminAccessListSchema), ...ADMIN_ERROR_RESPONSES },
  }),
  grantAccess: createRoute({
    method: "put",
    path: `${BASE}/repos/{owner}/{name}/access/{subject}`,
    summary: "Set (replace) the level of a user or group:NAME on a repository (lore access grant)",
    tags,
    security,
    request: { params: AccessParamsSchema, ...jsonBody(AdminGrantBodySchema) },
    responses: { ...json(200, "The grant", AdminGrantSchema), ...ADMIN_ERROR_RESPONSES },
  }),
  revokeAccess: createRoute({
    method: "delete",
    path: `${BASE}/repos/{owner}/{name}/access/{subject}`,
    summary: "Take a grant away; revoked: false when there was none (lore access revoke)",
    tags,
    security,
    request: { params: AccessParamsSchema },
    responses: {
      ...json(200, "Whether there was a grant", AdminRevokedSchema),
      ...ADMIN_ERROR_RESPONSES,
    },
  }),
  listKeys: createRoute({
    method: "get",
    path: `${BASE}/keys`,
    summary: "The SSH keys of one user (?user=) or of all (lore key list)",
    tags,
    security,
    request: { query: UserQuerySchema },
    responses: { ...json(200, "The keys", AdminKeySchema.array()), ...ADMIN_ERROR_RESPONSES },
  }),
  addKey: createRoute({
    method: "post",
    path: `${BASE}/keys`,
    summary: "Register a user's OpenSSH public key for git over SSH (lore key add)",
    tags,
    security,
    request: jsonBody(AdminKeyBodySchema),
    responses: { ...json(201, "The key", AdminKeySchema), ...ADMIN_ERROR_RESPONSES },
  }),
  removeKey: createRoute({
    method: "delete",
    path: `${BASE}/keys/{key}`,
    summary: "Remove a key by id or URL-encoded fingerprint (lore key rm)",
    tags,
    security,
    request: { params: KeyParamsSchema },
    responses: { ...json(200, "The removed key", AdminKeySchema), ...ADMIN_ERROR_RESPONSES },
  }),
  listRepos: createRoute({
    method: "get",
    path: `${BASE}/repos`,
    summary: "Every hosted repository with its bare folder (lore repo list)",
    tags,
    security,
    responses: {
      ...json(200, "The repositories", AdminRepoSchema.array()),
      ...ADMIN_ERROR_RESPONSES,
    },
  }),
  createRepo: createRoute({
    method: "post",
    path: `${BASE}/repos`,
    summary: "Create a hosted repository: record, bare repository, push hooks (lore repo create)",
    tags,
    security,
    request: jsonBody(AdminRepoBodySchema),
    responses: { ...json(201, "The repository", AdminRepoSchema), ...ADMIN_ERROR_RESPONSES },
  }),
  removeRepo: createRoute({
    method: "delete",
    path: `${BASE}/repos/{owner}/{name}`,
    summary:
      "Remove a repository: its record, grants, rules AND the bare repository with its history (lore repo rm)",
    tags,
    security,
    request: { params: AdminRepoParamsSchema },
    responses: {
      ...json(200, "The removed repository's folder", AdminRemovedRepoSchema),
      ...ADMIN_ERROR_RESPONSES,
    },
  }),
  listRules: createRoute({
    method: "get",
    path: `${BASE}/repos/{owner}/{name}/protected-branches`,
    summary: "The branch protection rules of a repository, by pattern (lore branch rules)",
    tags,
    security,
    request: { params: AdminRepoParamsSchema },
    responses: {
      ...json(200, "The rules", AdminBranchRuleSchema.array()),
      ...ADMIN_ERROR_RESPONSES,
    },
  }),
  protect: createRoute({
    method: "put",
    path: `${BASE}/repos/{owner}/{name}/protected-branches/{pattern}`,
    summary: "Protect the branches matching a pattern, replacing its rule (lore branch protect)",
    tags,
    security,
    request: { params: PatternParamsSchema, ...jsonBody(AdminBranchRuleBodySchema) },
    responses: { ...json(200, "The rule", AdminBranchRuleSchema), ...ADMIN_ERROR_RESPONSES },
  }),
  unprotect: createRoute({
    method: "delete",
    path: `${BASE}/repos/{owner}/{name}/protected-branches/{pattern}`,
    summary: "Remove a pattern's rule; removed: false when there was none (lore branch unprotect)",
    tags,
    security,
    request: { params: PatternParamsSchema },
    responses: {
      ...json(200, "Whether there was a rule", AdminRemovedSchema),
      ...ADMIN_ERROR_RESPONSES,
    },
  }),
};

/** A token id of the path: a positive whole number, else no such token. */
function tokenId(text: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) throw new LoreError("token_not_found", { token: text });
  return Number(text);
}

/**
 * Registers the administration endpoints.
 *
 * @param app - the application.
 * @param api - `admin(principal)`: the administration for a site admin with the `admin`
 *   scope; throws `forbidden` for anyone else.
 */
export function registerAdminRoutes(
  app: OpenAPIHono<HttpEnv>,
  api: Pick<ServerApi, "admin">,
): void {
  const admin = (c: { get(key: "principal"): HttpEnv["Variables"]["principal"] }): AdminPort =>
    api.admin(c.get("principal"));
  const none = strictHook([]);
  // The caller is checked before the request's body, query or names are (a 400 for a
  // malformed body would tell a non-admin nothing, but 403 is the one answer they get).
  for (const prefix of ["users", "tokens", "groups", "keys", "repos"]) {
    app.use(`${BASE}/${prefix}`, async (c, next) => {
      admin(c);
      await next();
    });
    app.use(`${BASE}/${prefix}/*`, async (c, next) => {
      admin(c);
      await next();
    });
  }

  app.openapi(
    routes.listUsers,
    async (c) => c.json((await admin(c).listUsers()).map(toWireUser), 200),
    none,
  );
  app.openapi(
    routes.addUser,
    async (c) => {
      const port = admin(c);
      const body = c.req.valid("json");
      return c.json(
        toWireUser(await port.addUser({ name: body.name, siteAdmin: body.site_admin ?? false })),
        201,
      );
    },
    strictHook(["name", "site_admin"]),
  );
  app.openapi(
    routes.removeUser,
    async (c) => {
      await admin(c).removeUser(c.req.valid("param").user);
      return c.body(null, 204);
    },
    none,
  );

  app.openapi(
    routes.listTokens,
    async (c) =>
      c.json((await admin(c).listTokens(c.req.valid("query").user)).map(toWireToken), 200),
    none,
  );
  app.openapi(
    routes.createToken,
    async (c) => {
      const port = admin(c);
      const body = c.req.valid("json");
      const created = await port.createToken({
        user: body.user,
        scopes: parseScopes(body.scopes.join(",")),
        ...(body.expires === undefined ? {} : { expires: body.expires }),
        ...(body.label === undefined ? {} : { label: body.label }),
      });
      // The secret leaves the server this once; no cache may keep it.
      c.header("cache-control", "no-store");
      return c.json(toWireCreatedToken(created), 201);
    },
    strictHook(["user", "scopes", "expires", "label"]),
  );
  app.openapi(
    routes.revokeToken,
    async (c) => {
      const port = admin(c);
      await port.revokeToken(tokenId(c.req.valid("param").id));
      return c.body(null, 204);
    },
    none,
  );

  app.openapi(
    routes.listGroups,
    async (c) => c.json((await admin(c).listGroups()).map(toWireGroup), 200),
    none,
  );
  app.openapi(
    routes.addGroup,
    async (c) => {
      const port = admin(c);
      return c.json(toWireGroup(await port.addGroup(c.req.valid("json").name)), 201);
    },
    strictHook(["name"]),
  );
  app.openapi(
    routes.removeGroup,
    async (c) => {
      await admin(c).removeGroup(c.req.valid("param").group);
      return c.body(null, 204);
    },
    none,
  );
  app.openapi(
    routes.listMembers,
    async (c) => {
      const port = admin(c);
      const { group } = c.req.valid("param");
      return c.json({ group, members: await port.listMembers(group) }, 200);
    },
    none,
  );
  app.openapi(
    routes.addMember,
    async (c) => {
      const port = admin(c);
      const { group, user } = c.req.valid("param");
      await port.addMember(group, user);
      return c.body(null, 204);
    },
    none,
  );
  app.openapi(
    routes.removeMember,
    async (c) => {
      const port = admin(c);
      const { group, user } = c.req.valid("param");
      return c.json({ removed: await port.removeMember(group, user) }, 200);
    },
    none,
  );

  app.openapi(
    routes.listAccess,
    async (c) => {
      const port = admin(c);
      const { owner, name } = c.req.valid("param");
      return c.json(wireAccessList(await port.listAccess(`${owner}/${name}`)), 200);
    },
    none,
  );
  app.openapi(
    routes.grantAccess,
    async (c) => {
      const port = admin(c);
      const { owner, name, subject } = c.req.valid("param");
      const { level } = c.req.valid("json");
      await port.grantAccess({ subject, repo: `${owner}/${name}`, level });
      return c.json({ subject, level }, 200);
    },
    strictHook(["level"]),
  );
  app.openapi(
    routes.revokeAccess,
    async (c) => {
      const port = admin(c);
      const { owner, name, subject } = c.req.valid("param");
      return c.json(
        { revoked: await port.revokeAccess({ subject, repo: `${owner}/${name}` }) },
        200,
      );
    },
    none,
  );

  app.openapi(
    routes.listKeys,
    async (c) => c.json((await admin(c).listKeys(c.req.valid("query").user)).map(toWireKey), 200),
    none,
  );
  app.openapi(
    routes.addKey,
    async (c) => {
      const port = admin(c);
      const body = c.req.valid("json");
      return c.json(toWireKey(await port.addKey({ user: body.user, text: body.key })), 201);
    },
    strictHook(["user", "key"]),
  );
  app.openapi(
    routes.removeKey,
    async (c) => {
      const port = admin(c);
      return c.json(toWireKey(await port.removeKey(c.req.valid("param").key)), 200);
    },
    none,
  );

  app.openapi(
    routes.listRepos,
    async (c) => c.json((await admin(c).listRepos()).map(toWireRepo), 200),
    none,
  );
  app.openapi(
    routes.createRepo,
    async (c) => {
      const port = admin(c);
      const body = c.req.valid("json");
      const repo = await port.createRepo({
        fullName: body.full_name,
        public: body.public ?? false,
        ...(body.default_branch === undefined ? {} : { defaultBranch: body.default_branch }),
      });
      return c.json(toWireRepo(repo), 201);
    },
    strictHook(["full_name", "public", "default_branch"]),
  );
  app.openapi(
    routes.removeRepo,
    async (c) => {
      const port = admin(c);
      const { owner, name } = c.req.valid("param");
      const fullName = `${owner}/${name}`;
      return c.json({ full_name: fullName, path: await port.removeRepo(fullName) }, 200);
    },
    none,
  );

  app.openapi(
    routes.listRules,
    async (c) => {
      const port = admin(c);
      const { owner, name } = c.req.valid("param");
      return c.json((await port.listBranchRules(`${owner}/${name}`)).map(toWireRule), 200);
    },
    none,
  );
  app.openapi(
    routes.protect,
    async (c) => {
      const port = admin(c);
      const { owner, name, pattern } = c.req.valid("param");
      const body = c.req.valid("json");
      const rule = await port.protectBranch({
        repo: `${owner}/${name}`,
        pattern,
        push: body.push ?? [],
        allowForcePush: body.allow_force_push ?? false,
        requiredApprovals: body.required_approvals ?? 0,
      });
      return c.json(toWireRule(rule), 200);
    },
    strictHook(["push", "allow_force_push", "required_approvals"]),
  );
  app.openapi(
    routes.unprotect,
    async (c) => {
      const port = admin(c);
      const { owner, name, pattern } = c.req.valid("param");
      return c.json(
        { removed: await port.unprotectBranch({ repo: `${owner}/${name}`, pattern }) },
        200,
      );
    },
    none,
  );
}
