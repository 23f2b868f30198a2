import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitServices } from "../../src/adapters/git-cli/spawn-git-service.js";
import { SIGN_IN_FAILURES_PER_MINUTE } from "../../src/core/web/sign-in-limit.js";
import { gitHttpRoutes } from "../../src/http/git/git-http-routes.js";
import { createToken } from "../../src/services/access/tokens.js";
import { WEB_SESSION_LIFETIME_MS } from "../../src/services/web/web-session.js";
import { initializeRequest } from "../helpers/mcp-messages.js";
import { callJson, IDS, startTeamFixture, type TeamFixture, writerToken } from "./team-fixture.js";

// The web view's sign-in over real HTTP on 127.0.0.1: the cookie stands for its token on
// the REST API (same user, same scopes), writes need the session's X-Lore-CSRF, /mcp and
// git never take the cookie.

let team: TeamFixture;
let clock = Date.now();
const SESSION = "/web/api/session";
const SHOWN = "/api/v1/repos/acme/private/knowledge/shown";

beforeAll(async () => {
  team = await startTeamFixture({
    now: () => clock,
    extraRoutes: (app, server) => {
      app.route(
        "/",
        gitHttpRoutes({ store: server.store, dataDir: server.dataDir, git: createGitServices() }),
      );
    },
  });
});
afterAll(async () => {
  await team.close();
});

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field.
  body: any;
  headers: Headers;
}

async function send(
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const answer = await fetch(`${team.base}${path}`, {
    method,
    headers: {
      ...(options.cookie === undefined ? {} : { cookie: `lore_session=${options.cookie}` }),
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await answer.text();
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: answer.status, body, headers: answer.headers };
}

/** Signs in with a token: the cookie's secret, the anti-forgery token and the answer. */
async function signIn(token: string, headers: Record<string, string> = {}) {
  const answer = await send("POST", SESSION, { body: { token }, headers });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const cookie = answer.headers.get("set-cookie") ?? "";
  const secret = /lore_session=([^;]+)/.exec(cookie)?.[1] ?? "";
  return { secret, csrf: answer.body.csrf as string, cookie, answer };
}

describe("sign-in", () => {
  it("sets an HttpOnly, SameSite=Strict cookie on / and answers who, the csrf and the end; the store keeps only the hash", async () => {
    const { secret, csrf, cookie, answer } = await signIn(team.tokens.anna);
    expect(cookie).toMatch(/^lore_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).toContain("Path=/");
    expect(cookie).toContain(`Max-Age=${WEB_SESSION_LIFETIME_MS / 1000}`);
    expect(cookie).not.toContain("Secure");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(answer.body).toEqual({
      user: "anna",
      site_admin: false,
      scopes: ["knowledge:read", "repo:read"],
      csrf,
      expires_at: new Date(clock + WEB_SESSION_LIFETIME_MS).toISOString(),
    });
    expect(JSON.stringify(answer.body)).not.toContain(secret);
    const hash = createHash("sha256").update(secret).digest("hex");
    const stored = await team.store.findWebSession(hash, clock);
    expect(stored?.csrf).toBe(csrf);
    expect(await team.store.findWebSession(secret, clock)).toBeUndefined();
    // GET answers the same body for the cookie.
    const again = await send("GET", SESSION, { cookie: secret });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(answer.body);
  });

  it("adds Secure when a proxy says the browser came over https", async () => {
    const { cookie } = await signIn(team.tokens.anna, { "x-forwarded-proto": "https" });
    expect(cookie).toContain("Secure");
  });

  it("refuses a bad token like the API does, and a bad body", async () => {
    const bad = await send("POST", SESSION, { body: { token: `lore_${"x".repeat(43)}` } });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe("token_invalid");
    expect(bad.headers.get("set-cookie")).toBeNull();
    const extra = await send("POST", SESSION, { body: { token: team.tokens.anna, user: "x" } });
    expect(extra.status).toBe(400);
    expect(extra.body.error.code).toBe("unknown_field");
    const notJson = await send("POST", SESSION, { headers: { "content-type": "text/plain" } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe("invalid_input");
    // A plain form's body (text/plain holding JSON) signs nobody in.
    const form = await fetch(`${team.base}${SESSION}`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ token: team.tokens.anna }),
    });
    expect(form.status).toBe(400);
    expect(form.headers.get("set-cookie")).toBeNull();
    // Another site's page cannot sign the browser in (into its own account).
    const forgedHeaders: Record<string, string>[] = [
      { origin: "http://localhost:9999" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of forgedHeaders) {
      const forged = await send("POST", SESSION, { body: { token: team.tokens.anna }, headers });
      expect(forged.status).toBe(403);
      expect(forged.body.error.code).toBe("csrf_failed");
      expect(forged.headers.get("set-cookie")).toBeNull();
    }
  });

  it("a token that ends in an hour gives a session that ends with it; an expired token signs nobody in", async () => {
    const short = await createToken(team.store, {
      user: "boris",
      scopes: ["knowledge:read"],
      now: clock,
      expiresInMs: 3_600_000,
    });
    const { answer } = await signIn(short.secret);
    expect(answer.body.expires_at).toBe(new Date(clock + 3_600_000).toISOString());
    const gone = await createToken(team.store, {
      user: "boris",
      scopes: ["knowledge:read"],
      now: clock - 10_000,
      expiresInMs: 9_999,
    });
    const refused = await send("POST", SESSION, { body: { token: gone.secret } });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("token_expired");
  });
});

describe("the cookie on the API", () => {
  it("authenticates /api/v1 as its token: same user, same repositories", async () => {
    const { secret } = await signIn(team.tokens.anna);
    const user = await send("GET", "/api/v1/user", { cookie: secret });
    expect(user.status).toBe(200);
    expect(user.body.name).toBe("anna");
    const byCookie = await send("GET", "/api/v1/repos", { cookie: secret });
    const byToken = await callJson(team.base, team.tokens.anna, "GET", "/api/v1/repos");
    expect(byCookie.body).toEqual(byToken.body);
    // vera's session sees nothing of anna's private repository.
    const vera = await signIn(team.tokens.vera);
    const hidden = await send("GET", "/api/v1/repos/acme/private/knowledge", {
      cookie: vera.secret,
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe("repo_not_found");
  });

  it("no cookie: 401 token_required; a dead one: 401 session_expired and the cookie cleared", async () => {
    const none = await send("GET", SESSION);
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("token_required");
    const dead = await send("GET", SESSION, { cookie: "A".repeat(43) });
    expect(dead.status).toBe(401);
    expect(dead.body.error.code).toBe("session_expired");
    expect(dead.headers.get("set-cookie")).toMatch(/^lore_session=;.*Max-Age=0/);
    const junk = await send("GET", "/api/v1/user", { cookie: "not a secret" });
    expect(junk.body.error.code).toBe("session_expired");
  });

  it("a session ends after its lifetime", async () => {
    const { secret } = await signIn(team.tokens.anna);
    const start = clock;
    try {
      clock = start + WEB_SESSION_LIFETIME_MS - 1;
      expect((await send("GET", "/api/v1/user", { cookie: secret })).status).toBe(200);
      clock = start + WEB_SESSION_LIFETIME_MS;
      const ended = await send("GET", "/api/v1/user", { cookie: secret });
      expect(ended.status).toBe(401);
      expect(ended.body.error.code).toBe("session_expired");
    } finally {
      clock = start;
    }
  });

  it("revoking the token ends its sessions at once", async () => {
    const made = await createToken(team.store, {
      user: "anna",
      scopes: ["knowledge:read"],
      now: clock,
    });
    const { secret } = await signIn(made.secret);
    expect((await send("GET", SESSION, { cookie: secret })).status).toBe(200);
    await team.store.revokeToken(made.token.id);
    const ended = await send("GET", SESSION, { cookie: secret });
    expect(ended.status).toBe(401);
    expect(ended.body.error.code).toBe("session_expired");
  });

  it("a bearer token on GET /web/api/session has no session to show", async () => {
    const answer = await callJson(team.base, team.tokens.anna, "GET", SESSION);
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe("token_required");
  });
});

describe("anti-forgery", () => {
  it("a cookie write without X-Lore-CSRF, or with a wrong one, is 403 csrf_failed and counts nothing; the right one passes", async () => {
    const { secret, csrf } = await signIn(team.tokens.anna);
    const body = { ids: [IDS["acme/private"]] };
    const before = team.index.counter("anna", "acme/private", IDS["acme/private"])?.shown ?? 0;
    const missing = await send("POST", SHOWN, { cookie: secret, body });
    expect(missing.status).toBe(403);
    expect(missing.body.error.code).toBe("csrf_failed");
    const wrong = await send("POST", SHOWN, {
      cookie: secret,
      body,
      headers: { "x-lore-csrf": `${csrf.slice(0, -1)}${csrf.endsWith("A") ? "B" : "A"}` },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe("csrf_failed");
    expect(team.index.counter("anna", "acme/private", IDS["acme/private"])?.shown ?? 0).toBe(
      before,
    );
    const right = await send("POST", SHOWN, {
      cookie: secret,
      body,
      headers: { "x-lore-csrf": csrf },
    });
    expect(right.status).toBe(200);
    expect(team.index.counter("anna", "acme/private", IDS["acme/private"])?.shown).toBe(before + 1);
  });

  it("another site's Origin (or Sec-Fetch-Site) is refused even with the right csrf", async () => {
    const { secret, csrf } = await signIn(team.tokens.anna);
    const body = { ids: [IDS["acme/private"]] };
    const forged: Record<string, string>[] = [
      { origin: "http://localhost:9999", "x-lore-csrf": csrf },
      { "sec-fetch-site": "same-site", "x-lore-csrf": csrf },
      { "sec-fetch-site": "cross-site", "x-lore-csrf": csrf },
    ];
    for (const headers of forged) {
      const refused = await send("POST", SHOWN, { cookie: secret, body, headers });
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.body.error.code).toBe("csrf_failed");
    }
    const own = await send("POST", SHOWN, {
      cookie: secret,
      body,
      headers: { origin: team.base, "sec-fetch-site": "same-origin", "x-lore-csrf": csrf },
    });
    expect(own.status).toBe(200);
  });

  it("a bearer token needs no csrf", async () => {
    const answer = await callJson(team.base, team.tokens.anna, "POST", SHOWN, {
      ids: [IDS["acme/private"]],
    });
    expect(answer.status).toBe(200);
  });

  it("a draft discard by cookie needs the csrf; the session's scopes are its token's", async () => {
    const writer = await writerToken(team, "boris", "acme/public");
    const drafts = "/api/v1/repos/acme/public/knowledge/drafts";
    const made = await callJson(team.base, writer, "POST", drafts, {
      branch: "main",
      title: "Cookie draft",
      body: "b",
    });
    expect(made.status).toBe(201);
    const session = await signIn(writer);
    const refused = await send("DELETE", `${drafts}/${made.body.id}`, { cookie: session.secret });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("csrf_failed");
    expect((await callJson(team.base, writer, "GET", drafts)).body.items).toHaveLength(1);
    // A read-only token's session: the csrf passes, the scope does not.
    const reader = await signIn(team.tokens.boris);
    const noScope = await send("DELETE", `${drafts}/${made.body.id}`, {
      cookie: reader.secret,
      headers: { "x-lore-csrf": reader.csrf },
    });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error.code).toBe("forbidden");
    const done = await send("DELETE", `${drafts}/${made.body.id}`, {
      cookie: session.secret,
      headers: { "x-lore-csrf": session.csrf },
    });
    expect(done.status).toBe(204);
  });

  it("sign-out needs the csrf, then clears the cookie and ends the session", async () => {
    const { secret, csrf } = await signIn(team.tokens.anna);
    const refused = await send("DELETE", SESSION, { cookie: secret });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("csrf_failed");
    const out = await send("DELETE", SESSION, { cookie: secret, headers: { "x-lore-csrf": csrf } });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/^lore_session=;.*Max-Age=0/);
    const after = await send("GET", SESSION, { cookie: secret });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("session_expired");
  });
});

describe("transports that take tokens only", () => {
  it("/mcp does not take the cookie", async () => {
    const { secret, csrf } = await signIn(team.tokens.anna);
    const answer = await send("POST", "/mcp", {
      cookie: secret,
      headers: {
        "x-lore-csrf": csrf,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      body: initializeRequest(),
    });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe("token_required");
  });

  it("git smart HTTP does not take the cookie (the token does)", async () => {
    const { secret } = await signIn(team.tokens.anna);
    const path = "/acme/private.git/info/refs?service=git-upload-pack";
    const byCookie = await send("GET", path, { cookie: secret });
    expect(byCookie.status).toBe(401);
    const basic = Buffer.from(`x:${team.tokens.anna}`).toString("base64");
    const byToken = await fetch(`${team.base}${path}`, {
      headers: { authorization: `Basic ${basic}` },
    });
    expect(byToken.status).toBe(200);
    await byToken.arrayBuffer();
  });
});

describe("sign-in limit", () => {
  it(`after ${SIGN_IN_FAILURES_PER_MINUTE} failures a minute an address waits: 429 rate_limited with Retry-After`, async () => {
    const start = clock;
    // A minute of its own: the failures of the tests above are in an earlier window.
    clock = start + 120_000;
    const bad = { token: `lore_${"y".repeat(43)}` };
    for (let i = 0; i < SIGN_IN_FAILURES_PER_MINUTE; i++) {
      const answer = await send("POST", SESSION, { body: bad });
      expect(answer.status).toBe(401);
    }
    const limited = await send("POST", SESSION, { body: { token: team.tokens.anna } });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // The next minute it may sign in again.
    try {
      clock = start + 180_000;
      await signIn(team.tokens.anna);
    } finally {
      clock = start;
    }
  });
});
