/**
 * Load receipts over the REST API (README "Load receipts"): `GET /api/v1/receipts` (the
 * caller's own, hits of repositories they can read) and `GET
 * /api/v1/repos/{owner}/{name}/knowledge/receipts` (the repository's writers and admins:
 * every user's receipts that surfaced one of its entries, only its hits). Both answer
 * `{items, next_cursor}`, newest first; rights are the {@link ReceiptsApi}'s checks.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { MAX_RECEIPT_LIMIT } from "../../core/receipts/receipt.js";
import {
  receiptHitSchema,
  receiptPageSchema,
  receiptQuerySchema,
  receiptSchema,
} from "../../core/receipts/receipt-schema.js";
import type { ReceiptsArgs } from "../../services/receipts/list-receipts.js";
import { ERROR_RESPONSES, ErrorSchema, RepoParamsSchema } from "../api-schemas.js";
import { strictHook } from "../body-refusal.js";
import type { ReceiptsApi } from "../receipts-api.js";
import type { HttpEnv } from "../server-api.js";

const security = [{ bearer: [] }];

/**
 * The answer schemas, named in the OpenAPI document, made anew with the OpenAPI-extended
 * `z` (a zod schema built before `@hono/zod-openapi` was imported has no `.openapi()`).
 */
const ReceiptHitSchema = z.object(receiptHitSchema.shape).openapi("ReceiptHit");
const ReceiptSchema = z
  .object({ ...receiptSchema.shape, hits: z.array(ReceiptHitSchema) })
  .openapi("Receipt");
const ReceiptPageSchema = z
  .object({ ...receiptPageSchema.shape, items: z.array(ReceiptSchema) })
  .openapi("ReceiptPage");
const ReceiptQuerySchema = z.strictObject(receiptQuerySchema.shape);

const json = (description: string, schema: z.ZodType) => ({
  description,
  content: { "application/json": { schema } },
});

const badInput = json(
  `Bad input: \`invalid_input\` (a bad \`since\`), \`invalid_limit\` (1 to ${MAX_RECEIPT_LIMIT}), \`invalid_cursor\`, \`unknown_field\``,
  ErrorSchema,
);

const ownRoute = createRoute({
  method: "get",
  path: "/api/v1/receipts",
  summary:
    "The caller's own load receipts, newest first: one per recall (time, client, session, query, tool) with each surfaced entry (id, revision, why it fired); only the hits of repositories the caller can read now, and then no offset, total or rank of the others",
  security,
  request: { query: ReceiptQuerySchema },
  responses: {
    200: json("`{items, next_cursor}`", ReceiptPageSchema),
    ...ERROR_RESPONSES,
    400: badInput,
  },
});

const repoRoute = createRoute({
  method: "get",
  path: "/api/v1/repos/{owner}/{name}/knowledge/receipts",
  summary:
    "For the repository's writers and admins: every user's load receipts that surfaced one of its entries, newest first, with only its hits (offset and total null, ranks among its hits)",
  security,
  request: { params: RepoParamsSchema, query: ReceiptQuerySchema },
  responses: {
    200: json("`{items, next_cursor}`", ReceiptPageSchema),
    ...ERROR_RESPONSES,
    400: badInput,
    403: json(
      "`forbidden`: a reader of the repository (writers and admins only), or a token without `knowledge:write`",
      ErrorSchema,
    ),
    404: json(
      "`repo_not_found` (also for a repository the caller may not read: nothing of it, not even a count)",
      ErrorSchema,
    ),
  },
});

/** The query string's values as the service takes them (`limit` a number; its range is checked there). */
function argsOf(query: z.infer<typeof ReceiptQuerySchema>): ReceiptsArgs {
  const args: ReceiptsArgs = {};
  if (query.session !== undefined) args.session = query.session;
  if (query.since !== undefined) args.since = query.since;
  if (query.limit !== undefined) args.limit = Number(query.limit);
  if (query.cursor !== undefined) args.cursor = query.cursor;
  return args;
}

const KNOWN = ["session", "since", "limit", "cursor"];

/**
 * Registers `GET /api/v1/receipts` and `GET /api/v1/repos/{owner}/{name}/knowledge/receipts`.
 *
 * @param app - the application.
 * @param receipts - what the routes call (rights are its checks).
 */
export function registerReceiptRoutes(app: OpenAPIHono<HttpEnv>, receipts: ReceiptsApi): void {
  app.openapi(
    ownRoute,
    async (c) => c.json(await receipts.own(c.get("principal"), argsOf(c.req.valid("query"))), 200),
    strictHook(KNOWN),
  );
  app.openapi(
    repoRoute,
    async (c) => {
      const { owner, name } = c.req.valid("param");
      return c.json(
        await receipts.ofRepo(c.get("principal"), `${owner}/${name}`, argsOf(c.req.valid("query"))),
        200,
      );
    },
    strictHook(KNOWN),
  );
}
