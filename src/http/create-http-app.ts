/**
 * The team server's one HTTP application (seed 004; `lore serve`): on one port, `GET
 * /healthz` (the only route without a token), the REST API under `/api/v1` with its OpenAPI
 * document, MCP Streamable HTTP at `/mcp`, — mounted by the caller through `extraRoutes` —
 * git smart HTTP, and the web view: its static pages at `/` and `/assets/…` and its
 * sign-in at `/web/api/session` (`http/web/`). Built on Hono (see the README, "Team server"
 * and "Web view").
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Principal } from "../core/access/rights.js";
import { apiBodyLimit } from "./api-body-limit.js";
import { requireToken } from "./auth.js";
import { installErrorHook } from "./error-hook.js";
import { type McpRouteOptions, registerMcpRoute } from "./mcp-route.js";
import { dnsRebindingGuard, dotSegmentGuard } from "./request-guards.js";
import { registerAdminRoutes } from "./routes/admin-routes.js";
import { registerApiRoutes } from "./routes/api-routes.js";
import { registerDraftRoutes } from "./routes/draft-routes.js";
import { registerLimitRoutes } from "./routes/limit-routes.js";
import { registerPullRoutes } from "./routes/pull-routes.js";
import { registerStatsRoutes } from "./routes/stats-routes.js";
import type { HttpEnv, ServerApi } from "./server-api.js";
import { validationHook } from "./validation-hook.js";
import { registerSessionRoutes } from "./web/session-routes.js";
import { registerStaticAssets, webSecurityHeaders } from "./web/static-assets.js";

/** What {@link createHttpApp} needs. */
export interface HttpAppDeps {
  /** The rights-checked reads (see {@link ServerApi}). */
  api: ServerApi;
  /** Makes the MCP server of one request for its caller (see `McpRouteOptions.createServer`). */
  createMcpServer: McpRouteOptions["createServer"];
  /** The server listens on a loopback address: the `Host` header must be loopback too. */
  loopbackOnly: boolean;
  /** Writes a line to the server's log (stderr). Default: none. */
  log?: (line: string) => void;
  /** The largest MCP request body, bytes. Default 4 MiB. */
  maxMcpBodyBytes?: number;
  /**
   * Mounts more routes after the token check and before the unknown-path answer: the git
   * smart-HTTP routes (`app.route("/", gitApp)`). They run behind the guards and the auth
   * middleware: the caller is `c.get("principal")` (the token may come as the Basic
   * password), a 401 on a `/{owner}/{name}.git/…` path carries a Basic challenge.
   */
  extraRoutes?: (app: OpenAPIHono<HttpEnv>) => void;
  /**
   * The built web view's folder (`index.html`, `assets/`). Default: `dist/web` of this
   * installation (`http/web/static-assets.ts`).
   */
  webDir?: string;
}

/** The application's OpenAPI document's path (authenticated like every route but /healthz). */
export const OPENAPI_PATH = "/api/v1/openapi.json";

/**
 * Builds the application: the DNS-rebinding and dot-segment guards, the auth middleware,
 * `GET /healthz`, the REST routes, `/mcp`, the extra routes, the error hook.
 *
 * @param deps - see {@link HttpAppDeps}.
 * @returns the application; serve it with `@hono/node-server` (`main/compose-server.ts`)
 *   or call `app.request()` in tests.
 */
export function createHttpApp(deps: HttpAppDeps): OpenAPIHono<HttpEnv> {
  const log = deps.log ?? (() => {});
  // A body a route's schema refuses is a Lore refusal (unknown_field / invalid_input).
  const app = new OpenAPIHono<HttpEnv>({ defaultHook: validationHook });
  installErrorHook(app, log);
  app.use("*", dnsRebindingGuard(deps.loopbackOnly));
  app.use("*", dotSegmentGuard());
  for (const path of ["/", "/index.html", "/assets/*", "/web/*"]) {
    app.use(path, webSecurityHeaders());
  }
  app.use("*", requireToken(deps.api));
  // Read no further than the limit: 413 request_too_large, the server goes on.
  app.use("/api/v1/*", apiBodyLimit());
  app.use("/web/api/*", apiBodyLimit());
  app.on(["GET", "HEAD"], "/healthz", (c) => c.json({ status: "ok", ...deps.api.health() }));
  registerApiRoutes(app, deps.api);
  registerDraftRoutes(app, deps.api.drafts);
  registerLimitRoutes(app, deps.api.limits);
  registerPullRoutes(app, deps.api.pulls);
  registerAdminRoutes(app, deps.api);
  registerStatsRoutes(app, deps.api.stats);
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
  });
  app.doc31(OPENAPI_PATH, {
    openapi: "3.1.0",
    info: { title: "Lore team server", version: "1" },
  });
  registerMcpRoute(app, {
    createServer: deps.createMcpServer,
    log,
    ...(deps.maxMcpBodyBytes === undefined ? {} : { maxBodyBytes: deps.maxMcpBodyBytes }),
  });
  registerSessionRoutes(app, deps.api.sessions);
  deps.extraRoutes?.(app);
  // After the git routes: a hosted repository of an owner named `assets` keeps its git.
  registerStaticAssets(app, deps.webDir);
  return app;
}

/**
 * The caller of a request behind the auth middleware (for the routes `extraRoutes` mounts).
 *
 * @param c - the request's context.
 */
export function principalOf(c: { get(key: "principal"): Principal }): Principal {
  return c.get("principal");
}
