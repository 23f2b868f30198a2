/**
 * The draft-limit endpoints (seed 004 "Интерфейс", "Пределы"): `GET·PUT·DELETE
 * /api/v1/admin/knowledge/limits/{users|groups}/{id}` — a user's or a group's limit of
 * drafts held at once. Site admins only; GET and DELETE in every edition, PUT in Max only
 * (402 `license_required` below it, seed 004 editions).
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { BODY_TOO_LARGE, ERROR_RESPONSES, ErrorSchema } from "../api-schemas.js";
import { strictHook } from "../body-refusal.js";
import { LimitBodySchema, LimitParamsSchema, LimitSchema } from "../draft-schemas.js";
import type { LimitSubject, LimitsApi } from "../drafts-api.js";
import type { HttpEnv } from "../server-api.js";

const security = [{ bearer: [] }];
const path = "/api/v1/admin/knowledge/limits/{kind}/{id}";
const answer = {
  200: { description: "The limit", content: { "application/json": { schema: LimitSchema } } },
};

const getRoute = createRoute({
  method: "get",
  path,
  summary: "A user's or group's draft limit (404 limit_not_found: the default 200 applies)",
  security,
  request: { params: LimitParamsSchema },
  responses: { ...answer, ...ERROR_RESPONSES },
});

const putRoute = createRoute({
  method: "put",
  path,
  summary: "Set a user's or group's draft limit (site admin; Max edition)",
  security,
  request: {
    params: LimitParamsSchema,
    body: { content: { "application/json": { schema: LimitBodySchema } }, required: true },
  },
  responses: {
    ...answer,
    ...ERROR_RESPONSES,
    ...BODY_TOO_LARGE,
    402: {
      description:
        "`license_required`: the server's edition is not Max (data: feature `set_draft_limit`, edition, edition_needed)",
      content: { "application/json": { schema: ErrorSchema } },
    },
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path,
  summary: "Remove a user's or group's draft limit: the default applies again (site admin)",
  security,
  request: { params: LimitParamsSchema },
  responses: { 204: { description: "Removed" }, ...ERROR_RESPONSES },
});

function subjectOf(params: { kind: "users" | "groups"; id: string }): LimitSubject {
  return { kind: params.kind === "users" ? "user" : "group", name: params.id };
}

/**
 * Registers the limits endpoints.
 *
 * @param app - the application.
 * @param limits - what the routes call.
 */
export function registerLimitRoutes(app: OpenAPIHono<HttpEnv>, limits: LimitsApi): void {
  app.openapi(
    getRoute,
    async (c) => c.json(await limits.get(c.get("principal"), subjectOf(c.req.valid("param"))), 200),
    strictHook([]),
  );
  app.openapi(
    putRoute,
    async (c) => {
      const subject = subjectOf(c.req.valid("param"));
      const { limit } = c.req.valid("json");
      return c.json(await limits.set(c.get("principal"), subject, limit), 200);
    },
    strictHook(["limit"]),
  );
  app.openapi(
    deleteRoute,
    async (c) => {
      await limits.remove(c.get("principal"), subjectOf(c.req.valid("param")));
      return c.body(null, 204);
    },
    strictHook([]),
  );
}
