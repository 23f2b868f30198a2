/**
 * The first read endpoints of the REST API (seed 004 "Интерфейс"): who am I, my repositories,
 * a repository's index whole, a file's bytes at a ref. Every handler gets the caller from
 * the auth middleware; the rights are checked by the {@link ServerApi}.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  ERROR_RESPONSES,
  ErrorSchema,
  KnowledgeListSchema,
  RepoListSchema,
  RepoParamsSchema,
  UserSchema,
} from "../api-schemas.js";
import type { HttpEnv, ServerApi } from "../server-api.js";

const security = [{ bearer: [] }];

const userRoute = createRoute({
  method: "get",
  path: "/api/v1/user",
  summary: "Who am I: the token's user, whether a site admin, the token's scopes",
  security,
  responses: {
    200: { description: "The caller", content: { "application/json": { schema: UserSchema } } },
    ...ERROR_RESPONSES,
  },
});

const reposRoute = createRoute({
  method: "get",
  path: "/api/v1/repos",
  summary: "The hosted repositories the caller can read, with the caller's permission",
  security,
  responses: {
    200: {
      description: "Only repositories the caller can read",
      content: { "application/json": { schema: RepoListSchema } },
    },
    ...ERROR_RESPONSES,
  },
});

const knowledgeRoute = createRoute({
  method: "get",
  path: "/api/v1/repos/{owner}/{name}/knowledge",
  summary:
    "The repository's index whole: every record with its contract and reachability, no bodies; capped at 1,000 (partial: truncated)",
  security,
  request: { params: RepoParamsSchema },
  responses: {
    200: {
      description: "`{items, partial?}`; no `partial` field = complete",
      content: { "application/json": { schema: KnowledgeListSchema } },
    },
    ...ERROR_RESPONSES,
  },
});

/**
 * Registers `GET /api/v1/user`, `/api/v1/repos`, `/api/v1/repos/{owner}/{name}/knowledge`
 * and `/api/v1/repos/{owner}/{name}/raw/{path}` (documented in the OpenAPI registry by hand:
 * its path holds slashes).
 *
 * @param app - the application.
 * @param api - what the routes call.
 */
export function registerApiRoutes(app: OpenAPIHono<HttpEnv>, api: ServerApi): void {
  app.openapi(userRoute, async (c) => c.json(await api.user(c.get("principal")), 200));
  app.openapi(reposRoute, async (c) => c.json(await api.repos(c.get("principal")), 200));
  app.openapi(knowledgeRoute, async (c) => {
    const { owner, name } = c.req.valid("param");
    return c.json(await api.knowledge(c.get("principal"), `${owner}/${name}`), 200);
  });
  app.get("/api/v1/repos/:owner/:name/raw/:path{.+}", async (c) => {
    const { owner, name, path } = c.req.param();
    const ref = c.req.query("ref");
    const bytes = await api.raw(c.get("principal"), `${owner}/${name}`, path, ref);
    return c.body(bytes.slice().buffer as ArrayBuffer, 200, {
      "content-type": "application/octet-stream",
      "x-content-type-options": "nosniff",
    });
  });
  app.openAPIRegistry.registerPath({
    method: "get",
    path: "/api/v1/repos/{owner}/{name}/raw/{path}",
    summary:
      "A file's bytes at a ref (default: the default branch): how a file entry's body is read by its path",
    security,
    request: {
      params: RepoParamsSchema.extend({
        path: z.string().openapi({
          param: { name: "path", in: "path" },
          example: ".gitriver/knowledge/rollback.md",
        }),
      }),
      query: z.object({ ref: z.string().optional().openapi({ example: "main" }) }),
    },
    responses: {
      200: {
        description: "The file's bytes",
        content: { "application/octet-stream": { schema: z.string() } },
      },
      ...ERROR_RESPONSES,
      404: {
        description: "`repo_not_found`, `path_not_found`",
        content: { "application/json": { schema: ErrorSchema } },
      },
    },
  });
}
