/**
 * The zod schemas of the administration endpoints `/api/v1/admin/…` (users, tokens,
 * groups, access, SSH keys, hosted repositories, branch protection), which also produce
 * their part of the OpenAPI document. Request bodies are strict: an unknown field is
 * refused (`unknown_field`, see `body-refusal.ts`). The answers' shapes are
 * `core/access/admin-wire.ts`'.
 */
import { z } from "@hono/zod-openapi";
import { ACCESS_LEVELS, SCOPES } from "../core/access/rights.js";
import { BODY_TOO_LARGE, ErrorSchema } from "./api-schemas.js";

const time = z
  .string()
  .openapi({ description: "ISO 8601, UTC", example: "2026-12-01T10:00:00.000Z" });

/** A user. */
export const AdminUserSchema = z
  .object({
    id: z.number().int(),
    name: z.string().openapi({ example: "anna" }),
    site_admin: z.boolean(),
    created_at: time,
  })
  .openapi("AdminUser");

/** `POST /api/v1/admin/users`. */
export const AdminUserBodySchema = z
  .object({
    name: z.string().openapi({ example: "anna" }),
    site_admin: z.boolean().optional().openapi({ description: "Default false" }),
  })
  .strict()
  .openapi("AdminUserBody");

/** A token, never its secret. */
export const AdminTokenSchema = z
  .object({
    id: z.number().int(),
    user_id: z.number().int(),
    user: z.string(),
    prefix: z.string().openapi({ example: "lore_AbC1234" }),
    scopes: z.array(z.enum(SCOPES)),
    label: z.string(),
    created_at: time,
    expires_at: time.nullable(),
    last_used_at: time.nullable(),
  })
  .openapi("AdminToken");

/** `POST /api/v1/admin/tokens`' answer: the secret, shown this once. */
export const AdminCreatedTokenSchema = z
  .object({
    secret: z.string().openapi({
      description: "The token: shown this once, the server keeps only its SHA-256",
      example: "lore_…",
    }),
    token: AdminTokenSchema,
  })
  .openapi("AdminCreatedToken");

/** `POST /api/v1/admin/tokens`. */
export const AdminTokenBodySchema = z
  .object({
    user: z.string().openapi({ example: "anna" }),
    scopes: z
      .array(z.string())
      .openapi({ example: ["knowledge:read", "repo:read"], description: SCOPES.join(", ") }),
    expires: z.string().optional().openapi({
      description: "Lifetime: 90m, 12h, 30d (at most 3650d); default never",
      example: "30d",
    }),
    label: z.string().optional().openapi({ example: "laptop" }),
  })
  .strict()
  .openapi("AdminTokenBody");

/** A group with its members. */
export const AdminGroupSchema = z
  .object({
    id: z.number().int(),
    name: z.string().openapi({ example: "leads" }),
    created_at: time,
    members: z.array(z.string()),
  })
  .openapi("AdminGroup");

/** `POST /api/v1/admin/groups`. */
export const AdminGroupBodySchema = z
  .object({ name: z.string().openapi({ example: "leads" }) })
  .strict()
  .openapi("AdminGroupBody");

/** `GET /api/v1/admin/groups/{group}/members`. */
export const AdminMembersSchema = z
  .object({ group: z.string(), members: z.array(z.string()) })
  .openapi("AdminMembers");

/** The grants on a repository. */
export const AdminAccessListSchema = z
  .object({
    repo: z.string().openapi({ example: "acme/app" }),
    public: z.boolean(),
    grants: z.array(z.object({ subject: z.string(), level: z.enum(ACCESS_LEVELS) })),
  })
  .openapi("AdminAccessList");

/** `PUT …/access/{subject}`. */
export const AdminGrantBodySchema = z
  .object({ level: z.enum(ACCESS_LEVELS) })
  .strict()
  .openapi("AdminGrantBody");

/** One grant as set. */
export const AdminGrantSchema = z
  .object({ subject: z.string(), level: z.enum(ACCESS_LEVELS) })
  .openapi("AdminGrant");

/** An SSH public key. */
export const AdminKeySchema = z
  .object({
    id: z.number().int(),
    user_id: z.number().int(),
    user: z.string(),
    algorithm: z.string().openapi({ example: "ssh-ed25519" }),
    public_key: z.string(),
    fingerprint: z
      .string()
      .openapi({ example: "SHA256:uEa0sqQitrj+ksh4fbMBOIhSnfHUT0dSvyfbdLgszB8" }),
    comment: z.string(),
    created_at: time,
  })
  .openapi("AdminKey");

/** `POST /api/v1/admin/keys`. */
export const AdminKeyBodySchema = z
  .object({
    user: z.string().openapi({ example: "anna" }),
    key: z.string().openapi({ description: "The .pub file's text (one OpenSSH public key)" }),
  })
  .strict()
  .openapi("AdminKeyBody");

/** A hosted repository. */
export const AdminRepoSchema = z
  .object({
    id: z.number().int(),
    owner: z.string(),
    name: z.string(),
    full_name: z.string().openapi({ example: "acme/app" }),
    public: z.boolean(),
    default_branch: z.string().openapi({ example: "main" }),
    created_at: time,
    path: z.string().openapi({ description: "The bare repository's folder on the server" }),
  })
  .openapi("AdminRepo");

/** `POST /api/v1/admin/repos`. */
export const AdminRepoBodySchema = z
  .object({
    full_name: z.string().openapi({ example: "acme/app" }),
    public: z.boolean().optional().openapi({ description: "Default false" }),
    default_branch: z.string().optional().openapi({ example: "main", description: "Default main" }),
  })
  .strict()
  .openapi("AdminRepoBody");

/** `DELETE /api/v1/admin/repos/{owner}/{name}`. */
export const AdminRemovedRepoSchema = z
  .object({ full_name: z.string(), path: z.string() })
  .openapi("AdminRemovedRepo");

/** A branch protection rule. */
export const AdminBranchRuleSchema = z
  .object({
    pattern: z.string().openapi({ example: "release/*" }),
    push: z.array(z.string()).openapi({ example: ["anna", "group:leads"] }),
    allow_force_push: z.boolean(),
    required_approvals: z.number().int(),
  })
  .openapi("AdminBranchRule");

/** `PUT …/protected-branches/{pattern}`. */
export const AdminBranchRuleBodySchema = z
  .object({
    push: z.array(z.string()).optional().openapi({
      description: "Users and group:NAME who may push; none = anyone with write access",
    }),
    allow_force_push: z.boolean().optional().openapi({ description: "Default false" }),
    required_approvals: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .openapi({ description: "0-100, default 0" }),
  })
  .strict()
  .openapi("AdminBranchRuleBody");

/** `{removed}` / `{revoked}`: whether there was something to take away. */
export const AdminRemovedSchema = z.object({ removed: z.boolean() }).openapi("AdminRemoved");
export const AdminRevokedSchema = z.object({ revoked: z.boolean() }).openapi("AdminRevoked");

const param = (name: string, example: string) =>
  z.string().openapi({ param: { name, in: "path" }, example });

/** `{user}`. */
export const UserParamsSchema = z.object({ user: param("user", "anna") });
/** `{id}` of a token. */
export const TokenParamsSchema = z.object({ id: param("id", "3") });
/** `{group}`. */
export const GroupParamsSchema = z.object({ group: param("group", "leads") });
/** `{group}/members/{user}`. */
export const MemberParamsSchema = GroupParamsSchema.extend({ user: param("user", "anna") });
/** `{key}`: an id or a URL-encoded fingerprint. */
export const KeyParamsSchema = z.object({ key: param("key", "1") });
/** `{owner}/{name}`. */
export const AdminRepoParamsSchema = z.object({
  owner: param("owner", "acme"),
  name: param("name", "app"),
});
/** `{owner}/{name}/access/{subject}`. */
export const AccessParamsSchema = AdminRepoParamsSchema.extend({
  subject: param("subject", "group:leads"),
});
/** `{owner}/{name}/protected-branches/{pattern}` (the pattern URL-encoded: `release%2F*`). */
export const PatternParamsSchema = AdminRepoParamsSchema.extend({
  pattern: param("pattern", "main"),
});
/** `?user=`: only this user's tokens or keys. */
export const UserQuerySchema = z.object({
  user: z
    .string()
    .optional()
    .openapi({ param: { name: "user", in: "query" }, example: "anna" }),
});

/** The error answers of the administration endpoints (403: not a site admin with `admin`). */
export const ADMIN_ERROR_RESPONSES = {
  400: {
    description: "Bad input (`invalid_input`, `unknown_field`, `invalid_repo_name`, `key_invalid`)",
    content: { "application/json": { schema: ErrorSchema } },
  },
  401: {
    description: "`token_required`, `token_invalid`, `token_expired`",
    content: { "application/json": { schema: ErrorSchema } },
  },
  403: {
    description:
      "`forbidden`: the caller is not a site admin (`data.missing`: `site_admin`) or the token lacks the `admin` scope (`scope admin`)",
    content: { "application/json": { schema: ErrorSchema } },
  },
  404: {
    description:
      "`user_not_found`, `group_not_found`, `token_not_found`, `key_not_found`, `repo_not_found`",
    content: { "application/json": { schema: ErrorSchema } },
  },
  409: {
    description: "`user_exists`, `group_exists`, `key_exists`, `repo_exists`",
    content: { "application/json": { schema: ErrorSchema } },
  },
  // A body over 1 MiB is refused unread on every /api/v1 route (api-body-limit.ts).
  ...BODY_TOO_LARGE,
} as const;
