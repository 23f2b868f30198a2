/**
 * Merge requests of hosted repositories over the REST API (seed 004, "Как знание выходит
 * наружу", "Происхождение запроса ставит сервер"): `GET|POST /api/v1/repos/{owner}/{name}/
 * pulls`, `GET …/pulls/{number}`, `POST …/pulls/{number}/approve|close|merge`. The create
 * body is strict and has no `origin`: a body that carries one (or any field not listed) is
 * 400 `unknown_field` naming it. Rights are checked by the {@link PullsApi}.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { BODY_TOO_LARGE, ERROR_RESPONSES, ErrorSchema, RepoParamsSchema } from "../api-schemas.js";
import type { PullsApi } from "../pulls-api.js";
import type { HttpEnv } from "../server-api.js";

const security = [{ bearer: [] }];

const DiffStatSchema = z
  .object({
    files: z.number().int(),
    insertions: z.number().int(),
    deletions: z.number().int(),
  })
  .openapi("DiffStat");

/** One merge request as answered. */
export const PullSchema = z
  .object({
    number: z.number().int().openapi({ example: 1 }),
    title: z.string().openapi({ example: "Retry the deploy on a 502" }),
    body: z.string(),
    source: z.string().openapi({ example: "feature/retry" }),
    target: z.string().openapi({ example: "main" }),
    state: z.enum(["open", "closed", "merged"]),
    origin: z.enum(["human", "machine"]).openapi({
      description: "`machine` only for a request the server opened (delivery of drafts)",
    }),
    author: z.string().openapi({ example: "anna" }),
    created_at: z.string().openapi({ example: "2026-12-01T12:00:00.000Z" }),
    ended_at: z.string().optional(),
    merge_commit: z.string().optional(),
    approvals: z.array(z.object({ user: z.string(), at: z.string() })),
    diff_stat: DiffStatSchema.optional().openapi({
      description: "`GET …/pulls/{number}` only: from the merge base to the source",
    }),
  })
  .openapi("Pull");

/** `POST …/pulls`: strict, no `origin` (the server sets it). */
export const OpenPullSchema = z
  .strictObject({
    source: z.string().openapi({ example: "feature/retry" }),
    target: z
      .string()
      .optional()
      .openapi({ description: "Default: the repository's default branch" }),
    title: z.string().openapi({ example: "Retry the deploy on a 502" }),
    body: z.string().optional(),
  })
  .openapi("OpenPull");

const PullParamsSchema = RepoParamsSchema.extend({
  number: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, "a merge request number: 1, 2, …")
    .openapi({ param: { name: "number", in: "path" }, example: "1" }),
});

const refusals = {
  ...ERROR_RESPONSES,
  404: {
    description: "`repo_not_found` (also hidden), `mr_not_found`, `branch_not_found`",
    content: { "application/json": { schema: ErrorSchema } },
  },
  409: {
    description: "`mr_not_open`, `merge_conflict`",
    content: { "application/json": { schema: ErrorSchema } },
  },
} as const;

const pullAnswer = (description: string) => ({
  200: { description, content: { "application/json": { schema: PullSchema } } },
  ...refusals,
});

const listRoute = createRoute({
  method: "get",
  path: "/api/v1/repos/{owner}/{name}/pulls",
  summary: "The repository's merge requests, newest first (state: open by default)",
  security,
  request: {
    params: RepoParamsSchema,
    query: z.object({ state: z.enum(["open", "closed", "merged", "all"]).optional() }),
  },
  responses: {
    200: {
      description: "The requests",
      content: { "application/json": { schema: z.array(PullSchema) } },
    },
    ...refusals,
  },
});

const openRoute = createRoute({
  method: "post",
  path: "/api/v1/repos/{owner}/{name}/pulls",
  summary: "Open a merge request source → target (write access); origin is always human",
  security,
  request: {
    params: RepoParamsSchema,
    body: { required: true, content: { "application/json": { schema: OpenPullSchema } } },
  },
  responses: {
    201: {
      description: "The new request",
      content: { "application/json": { schema: PullSchema } },
    },
    ...refusals,
    ...BODY_TOO_LARGE,
  },
});

const showRoute = createRoute({
  method: "get",
  path: "/api/v1/repos/{owner}/{name}/pulls/{number}",
  summary: "One merge request with its diff stat and approvals",
  security,
  request: { params: PullParamsSchema },
  responses: pullAnswer("The request, with `diff_stat`"),
});

const actionRoute = (action: "approve" | "close" | "merge", summary: string) =>
  createRoute({
    method: "post",
    path: `/api/v1/repos/{owner}/{name}/pulls/{number}/${action}`,
    summary,
    security,
    request: { params: PullParamsSchema },
    responses: pullAnswer("The request after the change"),
  });

/**
 * Registers the merge-request routes.
 *
 * @param app - the application.
 * @param pulls - what the routes call.
 */
export function registerPullRoutes(app: OpenAPIHono<HttpEnv>, pulls: PullsApi): void {
  const repoOf = (param: { owner: string; name: string }) => `${param.owner}/${param.name}`;
  app.openapi(listRoute, async (c) => {
    const param = c.req.valid("param");
    const { state } = c.req.valid("query");
    return c.json(await pulls.list(c.get("principal"), repoOf(param), state), 200);
  });
  app.openapi(openRoute, async (c) => {
    const param = c.req.valid("param");
    const body = c.req.valid("json");
    const opened = await pulls.open(c.get("principal"), repoOf(param), {
      source: body.source,
      title: body.title,
      ...(body.target === undefined ? {} : { target: body.target }),
      ...(body.body === undefined ? {} : { body: body.body }),
    });
    return c.json(opened, 201);
  });
  app.openapi(showRoute, async (c) => {
    const param = c.req.valid("param");
    return c.json(await pulls.show(c.get("principal"), repoOf(param), Number(param.number)), 200);
  });
  const actions = [
    ["approve", "Approve an open merge request (write access; not your own)"],
    ["close", "Close an open merge request without merging (its author or a writer)"],
    [
      "merge",
      "Merge by a writer: a merge commit with two parents (also when a fast-forward would do), subject to the target's branch protection and required approvals",
    ],
  ] as const;
  for (const [action, summary] of actions) {
    app.openapi(actionRoute(action, summary), async (c) => {
      const param = c.req.valid("param");
      const principal = c.get("principal");
      const number = Number(param.number);
      const fullName = repoOf(param);
      const answer =
        action === "approve"
          ? await pulls.approve(principal, fullName, number)
          : action === "close"
            ? await pulls.close(principal, fullName, number)
            : await pulls.merge(principal, fullName, number);
      return c.json(answer, 200);
    });
  }
}
