import { expect, it } from "vitest";

it("loads when the shared stats schemas were imported before @hono/zod-openapi (as the MCP tool does)", async () => {
  // A zod 4 schema made before the OpenAPI extension has no `.openapi()`: the routes must not need it.
  await import("../../core/stats/usage-stats-schema.js");
  const routes = await import("./stats-routes.js");
  expect(routes.registerStatsRoutes).toBeTypeOf("function");
});
