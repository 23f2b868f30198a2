import { join } from "node:path";
import { Hono } from "hono";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Principal } from "../../../src/core/access/rights.js";
import { gitHttpRoutes } from "../../../src/http/git/git-http-routes.js";
import { authenticateToken } from "../../../src/services/access/authenticate.js";
import { type GitTestServer, startGitServer, type TestUser } from "../../helpers/git-server.js";

/**
 * The git routes mounted behind the server's own auth middleware (which sets `principal`),
 * called through `app.request()`: the principal is used as it is, and a request body that
 * comes as a web stream (no Node request under it) still reaches git.
 */
let server: GitTestServer;
let anna: TestUser;

beforeAll(async () => {
  server = await startGitServer({ ssh: false });
  anna = await server.addUser("anna");
  await server.createRepo("acme/app");
  await server.grant("anna", "acme/app", "read");
  const seed = join(server.work, "seed");
  await server.git(["init", "-q", "-b", "main", seed], {});
  await server.git(["-C", seed, "commit", "-q", "--allow-empty", "-m", "first"], {});
  const root = await server.addUser("root", { siteAdmin: true });
  const pushed = await server.git(
    ["-C", seed, "push", "-q", server.url("acme/app", "http"), "main"],
    {
      user: root,
    },
  );
  expect(pushed.code, pushed.stderr).toBe(0);
});
afterAll(() => server.close());

it("uses the principal an outer middleware set, and streams a web-stream body to git", async () => {
  const principal = await authenticateToken(server.store, anna.token, Date.now());
  const app = new Hono<{ Variables: { principal: Principal } }>();
  app.use("*", async (c, next) => {
    c.set("principal", principal);
    await next();
  });
  app.route(
    "/",
    gitHttpRoutes({ store: server.store, dataDir: server.dataDir, git: server.services }),
  );
  const refs = await app.request("/acme/app.git/info/refs?service=git-upload-pack");
  expect(refs.status).toBe(200);
  expect(await refs.text()).toContain("refs/heads/main");
  const lsRefs = await app.request("/acme/app.git/git-upload-pack", {
    method: "POST",
    headers: {
      "Content-Type": "application/x-git-upload-pack-request",
      "Git-Protocol": "version=2",
    },
    body: "0014command=ls-refs\n00010000",
  });
  expect(lsRefs.status).toBe(200);
  expect(lsRefs.headers.get("content-type")).toBe("application/x-git-upload-pack-result");
  const listed = await lsRefs.text();
  expect(listed).toMatch(/[0-9a-f]{40} refs\/heads\/main\n0000$/);
  // anna may read, not write: the outer principal is held to its rights too.
  const push = await app.request("/acme/app.git/info/refs?service=git-receive-pack");
  expect(push.status).toBe(403);
});
