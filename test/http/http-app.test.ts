/**
 * The team server's HTTP application: the error shape and status mapping in English and
 * Russian, every 401, a token in the URL, Basic auth for git clients, dot segments in a
 * path, the DNS-rebinding checks, the knowledge cap (1,000 → complete, 1,001 → partial
 * truncated), the OpenAPI document — over real HTTP on 127.0.0.1 and through
 * `app.request()`.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoreError } from "../../src/core/errors/lore-error.js";
import { createToken } from "../../src/services/access/tokens.js";
import { entryFile, IDS, startTeamFixture, type TeamFixture } from "./team-fixture.js";

let team: TeamFixture;

/** 1,001 entry files for acme/public besides its one entry: 1,001 entries with `entry.md`'s. */
function manyEntries(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const n = i.toString(16).padStart(12, "0");
    files[`.gitriver/knowledge/bulk/e${String(i).padStart(4, "0")}.md`] = entryFile(
      `0193b000-0000-7000-8000-${n}`,
      ["массовая"],
      `Bulk entry ${i}`,
    );
  }
  return files;
}

beforeAll(async () => {
  team = await startTeamFixture({
    extra: { "acme/public": manyEntries(1_000) },
    extraRoutes: (app) => {
      app.get("/test/throws", () => {
        throw new Error("a secret detail of the failure");
      });
      app.get("/test/lore-error", () => {
        throw new LoreError("repo_exists", { repo: "acme/x" });
      });
    },
  });
});
afterAll(async () => {
  await team?.close();
});

const bearer = (who: "anna" | "boris" | "vera") => ({
  authorization: `Bearer ${team.tokens[who]}`,
});

/** A raw HTTP request: the path goes out exactly as given (no client-side folding of `..`). */
function raw(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port: team.port, path, method: "GET", headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            headers: res.headers,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("the error shape", () => {
  it("is {error: {code, message}} with the message in English by default and in Russian by Accept-Language", async () => {
    const en = await team.app.request("/api/v1/repos/acme/secret/knowledge", {
      headers: bearer("vera"),
    });
    expect(en.status).toBe(404);
    expect(en.headers.get("content-type")).toContain("application/json");
    expect(await en.json()).toEqual({
      error: { code: "repo_not_found", message: "no repository acme/secret" },
    });
    const ru = await team.app.request("/api/v1/repos/acme/secret/knowledge", {
      headers: { ...bearer("vera"), "accept-language": "en;q=0.4, ru-RU;q=0.9" },
    });
    expect(await ru.json()).toEqual({
      error: { code: "repo_not_found", message: "нет репозитория acme/secret" },
    });
  });

  it("maps kinds to statuses: conflict 409, not_found 404 for an unknown path", async () => {
    const conflict = await team.app.request("/test/lore-error", { headers: bearer("anna") });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({
      error: { code: "repo_exists", message: "the repository acme/x already exists" },
    });
    const unknown = await team.app.request("/api/v1/nope", { headers: bearer("anna") });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe(
      "route_not_found",
    );
  });

  it("an unexpected throw is 500 internal without its text", async () => {
    for (const lang of ["en", "ru"]) {
      const answer = await team.app.request("/test/throws", {
        headers: { ...bearer("anna"), "accept-language": lang },
      });
      expect(answer.status).toBe(500);
      const text = await answer.text();
      expect(text).not.toContain("secret detail");
      expect(JSON.parse(text)).toEqual({
        error: {
          code: "internal",
          message:
            lang === "ru"
              ? "внутренняя ошибка: сбой сервера; см. его журнал"
              : "internal error: the server failed; see its log",
        },
      });
    }
  });
});

describe("tokens", () => {
  const CHALLENGE = 'Bearer realm="lore"';

  it("no token: 401 token_required with a Bearer challenge, on the API and on /mcp", async () => {
    for (const [path, method] of [
      ["/api/v1/user", "GET"],
      ["/api/v1/repos", "GET"],
      ["/api/v1/repos/acme/public/knowledge", "GET"],
      ["/api/v1/openapi.json", "GET"],
      ["/mcp", "POST"],
    ] as const) {
      const answer = await team.app.request(path, { method });
      expect([path, answer.status]).toEqual([path, 401]);
      expect(answer.headers.get("www-authenticate")).toBe(CHALLENGE);
      expect(await answer.json()).toEqual({
        error: {
          code: "token_required",
          message:
            "a token is required: send Authorization: Bearer <token> (git: the token as the password)",
        },
      });
    }
  });

  it("a git path's 401 carries a Basic challenge", async () => {
    const answer = await team.app.request("/acme/public.git/info/refs?service=git-upload-pack");
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe('Basic realm="lore"');
  });

  it("an unknown token: 401 token_invalid; an expired one: 401 token_expired (ru too)", async () => {
    const invalid = await team.app.request("/api/v1/user", {
      headers: { authorization: "Bearer lore_notatokenatall" },
    });
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get("www-authenticate")).toBe(CHALLENGE);
    expect(((await invalid.json()) as { error: { code: string } }).error.code).toBe(
      "token_invalid",
    );
    const expired = await createToken(team.store, {
      user: "anna",
      scopes: ["knowledge:read"],
      expiresInMs: 1_000,
      now: Date.now() - 60_000,
    });
    const answer = await team.app.request("/api/v1/user", {
      headers: { authorization: `Bearer ${expired.secret}`, "accept-language": "ru" },
    });
    expect(answer.status).toBe(401);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("token_expired");
    expect(body.error.message).toMatch(/^срок токена истёк /);
  });

  it("a token in the URL: 400 token_in_url, even with a valid header", async () => {
    for (const query of [
      `token=${team.tokens.anna}`,
      `access_token=${team.tokens.anna}`,
      `private_token=${team.tokens.anna}`,
      `q=${team.tokens.anna}`,
    ]) {
      const answer = await team.app.request(`/api/v1/user?${query}`, { headers: bearer("anna") });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        error: {
          code: "token_in_url",
          message:
            "a token in the URL is refused (URLs end up in logs); send it in the Authorization header",
        },
      });
    }
  });

  it("Basic auth: any user, the token as the password; malformed Basic is a clear 400", async () => {
    const basic = Buffer.from(`whoever:${team.tokens.boris}`).toString("base64");
    const answer = await team.app.request("/api/v1/user", {
      headers: { authorization: `Basic ${basic}` },
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { name: string }).name).toBe("boris");
    const malformed = await team.app.request("/api/v1/user", {
      headers: { authorization: "Basic %%%not-base64%%%" },
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe(
      "invalid_input",
    );
    const noColon = await team.app.request("/api/v1/user", {
      headers: { authorization: `Basic ${Buffer.from("justtext").toString("base64")}` },
    });
    expect(noColon.status).toBe(400);
  });

  it("GET /healthz is the one route without a token", async () => {
    const answer = await team.app.request("/healthz");
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: "ok" });
  });
});

describe("paths with dot segments, over real HTTP", () => {
  it("`..`, `%2e%2e` and an encoded slash are 400 invalid_input, never a file outside", async () => {
    for (const path of [
      "/api/v1/repos/acme/public/raw/../../../../etc/passwd",
      "/api/v1/repos/acme/public/raw/%2e%2e/%2e%2e/etc/passwd",
      "/api/v1/repos/acme/public/raw/docs/%2E%2E/docs/readme.txt",
      "/api/v1/repos/acme/public/raw/..%2f..%2fetc%2fpasswd",
    ]) {
      const answer = await raw(path, bearer("boris"));
      expect([path, answer.status]).toEqual([path, 400]);
      expect(JSON.parse(answer.body).error.code).toBe("invalid_input");
    }
  });

  it("an absolute path (an encoded leading slash) is 400 invalid_input", async () => {
    const answer = await raw("/api/v1/repos/acme/public/raw/%2Fetc%2Fpasswd", bearer("boris"));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.message).toContain("absolute");
  });
});

describe("DNS rebinding, over real HTTP", () => {
  it("a non-loopback Host or Origin is 403; loopback names in any case pass", async () => {
    const host = await raw("/healthz", { host: "evil.example" });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).error.message).toBe("Forbidden: Host is not a loopback name");
    expect((await raw("/healthz", { host: "localhost.evil.example" })).status).toBe(403);
    expect((await raw("/healthz", { host: "127.0.0.1.evil.example" })).status).toBe(403);
    expect((await raw("/healthz", { host: `LOCALHOST:${team.port}` })).status).toBe(200);
    const origin = await raw("/healthz", { origin: "http://evil.example" });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body).error.message).toBe("Forbidden: Origin is not allowed");
    expect((await raw("/healthz", { origin: "http://localhost:5173" })).status).toBe(200);
  });
});

describe("the knowledge cap", () => {
  it("1,001 entries: the first 1,000 and partial truncated; 1,000: all and no partial", async () => {
    const full = await team.app.request("/api/v1/repos/acme/public/knowledge", {
      headers: bearer("vera"),
    });
    const cut = (await full.json()) as { items: { id: string }[]; partial?: string };
    expect(cut.items).toHaveLength(1_000);
    expect(cut.partial).toBe("truncated");
    // Paths in order: the bulk files, then `entry.md` (the one past the cap).
    expect(cut.items.map((item) => item.id)).not.toContain(IDS["acme/public"]);
    // Remove one entry on main: 1,000 left, the index heals on the next read.
    await team.push("acme/public", { ".gitriver/knowledge/entry.md": "not an entry any more\n" });
    const exact = await team.app.request("/api/v1/repos/acme/public/knowledge", {
      headers: bearer("vera"),
    });
    const whole = (await exact.json()) as { items: unknown[]; partial?: string };
    expect(whole.items).toHaveLength(1_000);
    expect(whole).not.toHaveProperty("partial");
  });
});

describe("GET /api/v1/openapi.json", () => {
  it("documents every endpoint from the routes' schemas", async () => {
    const answer = await team.app.request("/api/v1/openapi.json", { headers: bearer("vera") });
    expect(answer.status).toBe(200);
    const doc = (await answer.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/api/v1/admin/groups",
      "/api/v1/admin/groups/{group}",
      "/api/v1/admin/groups/{group}/members",
      "/api/v1/admin/groups/{group}/members/{user}",
      "/api/v1/admin/keys",
      "/api/v1/admin/keys/{key}",
      "/api/v1/admin/knowledge/limits/{kind}/{id}",
      "/api/v1/admin/repos",
      "/api/v1/admin/repos/{owner}/{name}",
      "/api/v1/admin/repos/{owner}/{name}/access",
      "/api/v1/admin/repos/{owner}/{name}/access/{subject}",
      "/api/v1/admin/repos/{owner}/{name}/protected-branches",
      "/api/v1/admin/repos/{owner}/{name}/protected-branches/{pattern}",
      "/api/v1/admin/tokens",
      "/api/v1/admin/tokens/{id}",
      "/api/v1/admin/users",
      "/api/v1/admin/users/{user}",
      "/api/v1/repos",
      "/api/v1/repos/{owner}/{name}/knowledge",
      "/api/v1/repos/{owner}/{name}/knowledge/drafts",
      "/api/v1/repos/{owner}/{name}/knowledge/drafts/deliver",
      "/api/v1/repos/{owner}/{name}/knowledge/drafts/{id}",
      "/api/v1/repos/{owner}/{name}/knowledge/entries/{id}/read",
      "/api/v1/repos/{owner}/{name}/knowledge/shown",
      "/api/v1/repos/{owner}/{name}/knowledge/stats/daily",
      "/api/v1/repos/{owner}/{name}/knowledge/stats/dead",
      "/api/v1/repos/{owner}/{name}/knowledge/stats/me",
      "/api/v1/repos/{owner}/{name}/knowledge/stats/team",
      "/api/v1/repos/{owner}/{name}/pulls",
      "/api/v1/repos/{owner}/{name}/pulls/{number}",
      "/api/v1/repos/{owner}/{name}/pulls/{number}/approve",
      "/api/v1/repos/{owner}/{name}/pulls/{number}/close",
      "/api/v1/repos/{owner}/{name}/pulls/{number}/merge",
      "/api/v1/repos/{owner}/{name}/raw/{path}",
      "/api/v1/user",
    ]);
  });
});
