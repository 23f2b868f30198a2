/**
 * The zod schemas of the REST API's answers (`/api/v1`), which also produce its OpenAPI
 * document (`GET /api/v1/openapi.json`).
 */
import { z } from "@hono/zod-openapi";
import { entryRecordShape } from "../core/entry/entry-record-schema.js";

/** The refusal shape of every error answer. */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "repo_not_found" }),
      message: z.string().openapi({ example: "no repository acme/app" }),
      data: z
        .record(z.string(), z.unknown())
        .optional()
        .openapi({ description: "Structured details, e.g. `diagnostics` of a refused entry" }),
    }),
  })
  .openapi("Error");

/** `GET /api/v1/user`. */
export const UserSchema = z
  .object({
    name: z.string().openapi({ example: "anna" }),
    site_admin: z.boolean(),
    scopes: z.array(z.string()).openapi({ example: ["knowledge:read", "repo:read"] }),
  })
  .openapi("User");

/** One item of `GET /api/v1/repos`. */
export const RepoSchema = z
  .object({
    full_name: z.string().openapi({ example: "acme/app" }),
    public: z.boolean(),
    default_branch: z.string().openapi({ example: "main" }),
    permission: z.enum(["read", "write", "admin"]),
  })
  .openapi("Repo");

/** `GET /api/v1/repos`. */
export const RepoListSchema = z.array(RepoSchema);

/**
 * One record of a repository's index (no body): the record fields of the MCP tool
 * `knowledge_open` (`core/entry/entry-record-schema.ts`, one source) plus the blob's sha.
 */
export const KnowledgeItemSchema = z
  .object({
    id: entryRecordShape.id,
    path: entryRecordShape.path,
    blob_sha: z.string(),
    origin: entryRecordShape.origin,
    summary: entryRecordShape.summary,
    links: entryRecordShape.links,
    contract: entryRecordShape.contract,
    reachable: entryRecordShape.reachable,
    unmet_mechanisms: entryRecordShape.unmet_mechanisms,
    diagnostics: z
      .array(
        z.object({
          code: z.string().openapi({ example: "unknown_mechanism" }),
          severity: z.enum(["error", "warning", "info"]),
          line: z.number().int().optional(),
          message: z.string(),
          message_ru: z.string(),
        }),
      )
      .openapi({
        description:
          "The diagnostics of the file's last parse (warnings and notes; a file with an error is skipped and has no record).",
      }),
    draft: entryRecordShape.draft,
    branch: entryRecordShape.branch,
  })
  .openapi("KnowledgeItem");

/** `GET /api/v1/repos/{owner}/{name}/knowledge`. */
export const KnowledgeListSchema = z
  .object({
    items: z.array(KnowledgeItemSchema),
    partial: z
      .literal("truncated")
      .optional()
      .openapi({ description: "Present only when the 1,000-record cap cut the listing." }),
  })
  .openapi("KnowledgeList");

/** The `{owner}` and `{name}` of a repository path. */
export const RepoParamsSchema = z.object({
  owner: z.string().openapi({ param: { name: "owner", in: "path" }, example: "acme" }),
  name: z.string().openapi({ param: { name: "name", in: "path" }, example: "app" }),
});

/** The error answers every authenticated route may give. */
export const ERROR_RESPONSES = {
  400: {
    description: "Bad input (`invalid_input`, `token_in_url`)",
    content: { "application/json": { schema: ErrorSchema } },
  },
  401: {
    description: "`token_required`, `token_invalid`, `token_expired`",
    content: { "application/json": { schema: ErrorSchema } },
  },
  403: {
    description: "`forbidden`: the token's scopes or the user's level do not allow it",
    content: { "application/json": { schema: ErrorSchema } },
  },
  404: {
    description:
      "`repo_not_found` (also for a repository the caller may not read), `path_not_found`",
    content: { "application/json": { schema: ErrorSchema } },
  },
} as const;

/**
 * The extra refusal of a route that takes a request body: a body over 1 MiB
 * (`MAX_API_BODY_BYTES`, `api-body-limit.ts`) is 413 `request_too_large`, read no further.
 */
export const BODY_TOO_LARGE = {
  413: {
    description: "`request_too_large`: the body is over 1 MiB; it was read no further",
    content: { "application/json": { schema: ErrorSchema } },
  },
} as const;
