import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import { openServerStore } from "../../src/main/open-server.js";
import { createRepo } from "../../src/services/access/hosted-repos.js";
import { type CurlAnswer, readmeCurlLines, runReadmeCurl } from "./readme-curl-lines.js";
import { isolatedEnv } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// The README's web-view curl examples ("Web view"), run in order with real curl against a
// real `lore serve`: sign in into a cookie jar, read the session and the repositories with
// the cookie, sign out with the session's csrf; then the same cookie is dead.

let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let jar: string;

beforeAll(async () => {
  sandbox = isolatedEnv();
  const data = join(sandbox.dir, "data", "lore", "server");
  const store = await openServerStore(data);
  await createRepo(
    { store, dataDir: data, initBare: initBareRepo },
    { fullName: "acme/app", now: Date.now() },
  );
  await store.close();
  served = await startServe(["--port", "0"], { cwd: sandbox.dir, env: sandbox.env });
  jar = mkdtempSync(join(tmpdir(), "lore-jar-"));
});

afterAll(async () => {
  await served?.stop();
  sandbox?.cleanup();
  rmSync(jar, { recursive: true, force: true });
});

function curl(line: string, csrf = ""): Promise<CurlAnswer> {
  return runReadmeCurl(line, served.url.port, { LORE_TOKEN: served.token, LORE_CSRF: csrf }, jar);
}

describe("the README's web-view curl examples against a real lore serve", () => {
  it("has the sign-in, the session, a read with the cookie and the sign-out", () => {
    const lines = readmeCurlLines("curl-examples-web");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain("-c lore-cookies");
    for (const line of lines.slice(1)) expect(line).toContain("-b lore-cookies");
    expect(lines[3]).toContain("X-Lore-CSRF: $LORE_CSRF");
  });

  it("run in order: signed in, the same body again, the repositories by cookie, signed out", async () => {
    const [signIn, session, repos, signOut] = readmeCurlLines("curl-examples-web") as string[];
    const opened = await curl(signIn as string);
    expect(opened.status).toBe(200);
    const body = opened.body as { user: string; site_admin: boolean; csrf: string };
    expect(body).toMatchObject({ site_admin: true });
    expect(body.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookies = readFileSync(join(jar, "lore-cookies"), "utf8");
    expect(cookies).toMatch(/#HttpOnly_127\.0\.0\.1\tFALSE\t\/\tFALSE\t\d+\tlore_session\t/);
    expect(await curl(session as string)).toMatchObject({ status: 200, body: opened.body });
    const listed = await curl(repos as string);
    expect(listed.status).toBe(200);
    expect((listed.body as { full_name: string }[]).map((r) => r.full_name)).toEqual(["acme/app"]);
    // Without the csrf the sign-out is refused; with it, 204 and the session is gone.
    expect(await curl(signOut as string, "wrong")).toMatchObject({
      status: 403,
      body: { error: { code: "csrf_failed" } },
    });
    const out = await curl(signOut as string, body.csrf);
    expect(out.status).toBe(204);
    // The jar still holds the cookie (the sign-out line does not write it): a dead one.
    expect(await curl(repos as string)).toMatchObject({
      status: 401,
      body: { error: { code: "session_expired" } },
    });
  });

  it("serves the web view's page at / without a token, with its headers", async () => {
    const page = await fetch(new URL("/", served.url));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(await page.text()).toMatch(/<html/);
  });
});
