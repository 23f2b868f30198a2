/**
 * The zod schemas of the draft and limit endpoints (seed 004 "Интерфейс"), which also
 * produce their part of the OpenAPI document. Request bodies are strict: an unknown field
 * is refused (`unknown_field`, see `body-refusal.ts`).
 */
import { z } from "@hono/zod-openapi";
import { DRAFTS_PER_PAGE, type DraftInput } from "../core/drafts/draft.js";
import { draftViewSchema } from "../core/drafts/draft-view-schema.js";
import { LoreError } from "../core/errors/lore-error.js";

/** A draft as the API answers it: the schema the MCP tools answer with too. */
export const DraftSchema = draftViewSchema.openapi("Draft");

/** `GET …/knowledge/drafts`. */
export const DraftPageSchema = z
  .object({ items: z.array(DraftSchema), next_cursor: z.string().nullable() })
  .openapi("DraftPage");

/** The fields a draft body may hold. */
export const DRAFT_BODY_FIELDS = ["branch", "text", "title", "body", "words", "tool", "links"];

/** `POST …/knowledge/drafts`: `{branch, text}` or `{branch, title, body, words?, tool?, links?}`. */
export const DraftBodySchema = z
  .object({
    branch: z.string().min(1).openapi({ example: "feature/login" }),
    text: z
      .string()
      .optional()
      .openapi({ description: "The whole entry file; `id` may be absent" }),
    title: z.string().optional().openapi({ example: "Run sqlx migrations as the schema owner" }),
    body: z.string().optional(),
    words: z
      .array(z.string())
      .optional()
      .openapi({ example: ["sqlx", "migration"] }),
    tool: z.string().optional(),
    links: z.array(z.string()).optional(),
  })
  .strict()
  .openapi("DraftBody");

/**
 * A validated body as the service's input.
 *
 * @throws LoreError `invalid_input` when neither `text` nor `title`+`body` is given, or both.
 */
export function draftInputOf(body: z.infer<typeof DraftBodySchema>): DraftInput {
  const fields = body.title !== undefined || body.body !== undefined;
  const extras = body.words !== undefined || body.tool !== undefined || body.links !== undefined;
  if (body.text !== undefined) {
    if (fields || extras) throw bothForms();
    return { branch: body.branch, text: body.text };
  }
  if (body.title === undefined || body.body === undefined) throw bothForms();
  return {
    branch: body.branch,
    title: body.title,
    body: body.body,
    ...(body.words === undefined ? {} : { words: body.words }),
    ...(body.tool === undefined ? {} : { tool: body.tool }),
    ...(body.links === undefined ? {} : { links: body.links }),
  };
}

function bothForms(): LoreError {
  return new LoreError(
    "invalid_input",
    {
      reason:
        "a draft is {branch, text} (the whole entry file) or {branch, title, body, words?, tool?, links?}, not both",
      reason_ru:
        "черновик — это {branch, text} (весь файл записи) или {branch, title, body, words?, tool?, links?}, но не оба сразу",
    },
    { data: { field: "text" } },
  );
}

/** The fields of a deliver body. */
export const DELIVER_BODY_FIELDS = ["branch", "mode", "label"];

/** `POST …/knowledge/drafts/deliver`. */
export const DeliverBodySchema = z
  .object({
    branch: z.string().min(1).openapi({ example: "feature/login" }),
    mode: z.enum(["same", "separate"]).openapi({
      description: "`same`: into the branch itself; `separate`: into knowledge/<branch>-<label>",
    }),
    label: z.string().min(1).optional().openapi({ example: "sqlx" }),
  })
  .strict()
  .openapi("DeliverBody");

/** A delivery's answer. */
export const DeliverAnswerSchema = z
  .object({
    commits: z.array(z.string()),
    branch: z.string(),
    merge_request: z.number().int().optional(),
    delivered: z.array(z.string()),
  })
  .openapi("DeliverAnswer");

/** `?per_page=&after=` of the drafts listing. */
export const DraftPageQuerySchema = z.object({
  per_page: z
    .string()
    .optional()
    .openapi({ example: String(DRAFTS_PER_PAGE.default), description: "1–100, default 50" }),
  after: z.string().optional().openapi({ description: "`next_cursor` of the previous page" }),
  branch: z
    .string()
    .optional()
    .openapi({ description: "Only the drafts of this branch (default: every branch)" }),
});

/** The `{owner}`, `{name}` and `{id}` of a draft's path. */
export const DraftParamsSchema = z.object({
  owner: z.string().openapi({ param: { name: "owner", in: "path" }, example: "acme" }),
  name: z.string().openapi({ param: { name: "name", in: "path" }, example: "app" }),
  id: z.string().openapi({ param: { name: "id", in: "path" } }),
});

/** A draft limit. */
export const LimitSchema = z
  .object({
    kind: z.enum(["user", "group"]),
    name: z.string().openapi({ example: "anna" }),
    limit: z.number().int(),
  })
  .openapi("DraftLimit");

/** `PUT /admin/knowledge/limits/…`. */
export const LimitBodySchema = z
  .object({ limit: z.number().int().min(0).max(1_000_000).openapi({ example: 500 }) })
  .strict()
  .openapi("DraftLimitBody");

/** `{users|groups}/{id}`. */
export const LimitParamsSchema = z.object({
  kind: z
    .enum(["users", "groups"])
    .openapi({ param: { name: "kind", in: "path" }, example: "users" }),
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "anna" }),
});
