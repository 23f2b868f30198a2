/**
 * The draft endpoints of the REST API (seed 004 "Интерфейс"): list a repository's drafts,
 * write one, remove one, deliver a branch's drafts. Rights are checked by the
 * {@link DraftsApi}; bodies are strict (`unknown_field`).
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { DRAFTS_PER_PAGE } from "../../core/drafts/draft.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { BODY_TOO_LARGE, ERROR_RESPONSES, ErrorSchema, RepoParamsSchema } from "../api-schemas.js";
import { strictHook } from "../body-refusal.js";
import {
  DELIVER_BODY_FIELDS,
  DeliverAnswerSchema,
  DeliverBodySchema,
  DRAFT_BODY_FIELDS,
  DraftBodySchema,
  DraftPageQuerySchema,
  DraftPageSchema,
  DraftParamsSchema,
  DraftSchema,
  draftInputOf,
} from "../draft-schemas.js";
import type { DraftsApi } from "../drafts-api.js";
import type { HttpEnv } from "../server-api.js";

const security = [{ bearer: [] }];
const base = "/api/v1/repos/{owner}/{name}/knowledge/drafts";
const conflict = {
  409: {
    description: "`draft_limit_reached`, `draft_id_taken`, `branch_exists`",
    content: { "application/json": { schema: ErrorSchema } },
  },
};

const listRoute = createRoute({
  method: "get",
  path: base,
  summary:
    "Every draft of the repository (not only the caller's) with its body, oldest first; pages of per_page (default 50, max 100) after a cursor",
  security,
  request: { params: RepoParamsSchema, query: DraftPageQuerySchema },
  responses: {
    200: {
      description: "`{items, next_cursor}`",
      content: { "application/json": { schema: DraftPageSchema } },
    },
    ...ERROR_RESPONSES,
  },
});

const writeRoute = createRoute({
  method: "post",
  path: base,
  summary:
    "Write a draft for a branch: the whole entry file, or its fields; visible at once to every reader, marked unverified",
  security,
  request: {
    params: RepoParamsSchema,
    body: { content: { "application/json": { schema: DraftBodySchema } }, required: true },
  },
  responses: {
    201: { description: "The draft", content: { "application/json": { schema: DraftSchema } } },
    ...ERROR_RESPONSES,
    ...conflict,
    ...BODY_TOO_LARGE,
  },
});

const discardRoute = createRoute({
  method: "delete",
  path: `${base}/{id}`,
  summary: "Remove a draft (its author or a writer of the repository)",
  security,
  request: { params: DraftParamsSchema },
  responses: { 204: { description: "Removed" }, ...ERROR_RESPONSES },
});

const deliverRoute = createRoute({
  method: "post",
  path: `${base}/deliver`,
  summary:
    "Deliver the drafts of a branch as files .gitriver/knowledge/<id>.md in one commit: into the branch (same) or into knowledge/<branch>-<label> with a merge request (separate)",
  security,
  request: {
    params: RepoParamsSchema,
    body: { content: { "application/json": { schema: DeliverBodySchema } }, required: true },
  },
  responses: {
    200: {
      description: "`{commits, branch, merge_request?, delivered}`; no commits: nothing to deliver",
      content: { "application/json": { schema: DeliverAnswerSchema } },
    },
    ...ERROR_RESPONSES,
    ...conflict,
    ...BODY_TOO_LARGE,
  },
});

/** `per_page` as a number. @throws LoreError `invalid_limit`. */
function perPageOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < 1 || value > DRAFTS_PER_PAGE.max) {
    throw new LoreError("invalid_limit", { max: DRAFTS_PER_PAGE.max });
  }
  return value;
}

/**
 * Registers `GET·POST /api/v1/repos/{owner}/{name}/knowledge/drafts`, `DELETE
 * …/drafts/{id}` and `POST …/drafts/deliver`.
 *
 * @param app - the application.
 * @param drafts - what the routes call.
 */
export function registerDraftRoutes(app: OpenAPIHono<HttpEnv>, drafts: DraftsApi): void {
  app.openapi(
    listRoute,
    async (c) => {
      const { owner, name } = c.req.valid("param");
      const { per_page, after, branch } = c.req.valid("query");
      const perPage = perPageOf(per_page);
      const page = await drafts.list(c.get("principal"), `${owner}/${name}`, {
        ...(perPage === undefined ? {} : { perPage }),
        ...(after === undefined ? {} : { after }),
        ...(branch === undefined ? {} : { branch }),
      });
      return c.json(page, 200);
    },
    strictHook([]),
  );
  // The deliver route first: `deliver` is not a draft id.
  app.openapi(
    deliverRoute,
    async (c) => {
      const { owner, name } = c.req.valid("param");
      const body = c.req.valid("json");
      const answer = await drafts.deliver(c.get("principal"), `${owner}/${name}`, {
        branch: body.branch,
        mode: body.mode,
        ...(body.label === undefined ? {} : { label: body.label }),
      });
      return c.json(answer, 200);
    },
    strictHook(DELIVER_BODY_FIELDS),
  );
  app.openapi(
    writeRoute,
    async (c) => {
      const { owner, name } = c.req.valid("param");
      const input = draftInputOf(c.req.valid("json"));
      return c.json(await drafts.write(c.get("principal"), `${owner}/${name}`, input), 201);
    },
    strictHook(DRAFT_BODY_FIELDS),
  );
  app.openapi(
    discardRoute,
    async (c) => {
      const { owner, name, id } = c.req.valid("param");
      await drafts.discard(c.get("principal"), `${owner}/${name}`, id);
      return c.body(null, 204);
    },
    strictHook([]),
  );
}
