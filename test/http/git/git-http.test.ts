import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToken } from "../../../src/services/access/tokens.js";
import {
  type GitTestServer,
  rawRequest,
  startGitServer,
  type TestUser,
} from "../../helpers/git-server.js";

/**
 * Git smart HTTP at the door (seed 004, team server; git over HTTP): tokens as the Basic
 * password or Bearer, 401 that makes git ask, malformed credentials, a token in the URL,
 * `..` / `%2e%2e`, a name with a leading `-`, dumb HTTP, scopes, languages, gzip bodies,
 * a client that goes away, the time limit and the bound on git processes.
 */
let server: GitTestServer;
let anna: TestUser;
let boris: TestUser;

const INFO_REFS = "/acme/app.git/info/refs?service=git-upload-pack";
const bearer = (user: TestUser) => ({ Authorization: `Bearer ${user.token}` });
const basic = (text: string) => ({
  Authorization: `Basic ${Buffer.from(text).toString("base64")}`,
});

/** Waits until no git process runs (the server let go of it), up to 20 s. */
async function settled(target: GitTestServer): Promise<{ running: number; queued: number }> {
  const until = Date.now() + 20_000;
  while (target.services.load().running > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return target.services.load();
}

beforeAll(async () => {
  server = await startGitServer({ ssh: false });
  anna = await server.addUser("anna");
  boris = await server.addUser("boris");
  await server.createRepo("acme/app");
  await server.grant("anna", "acme/app", "write");
  const seed = join(server.work, "seed");
  await server.git(["init", "-q", "-b", "main", seed], {});
  await server.git(["-C", seed, "commit", "-q", "--allow-empty", "-m", "first"], {});
  const pushed = await server.git(
    ["-C", seed, "push", "-q", server.url("acme/app", "http"), "main"],
    {
      user: anna,
    },
  );
  expect(pushed.code, pushed.stderr).toBe(0);
});
afterAll(() => server.close());

describe("tokens", () => {
  it("a Bearer token through http.extraHeader clones, fetches and pushes", async () => {
    const header = `http.extraHeader=Authorization: Bearer ${anna.token}`;
    const dir = join(server.work, "bearer");
    const clone = await server.git(
      ["-c", header, "clone", "-q", server.url("acme/app", "http"), dir],
      {},
    );
    expect(clone.code, clone.stderr).toBe(0);
    await server.git(["-C", dir, "commit", "-q", "--allow-empty", "-m", "bearer"], {});
    const push = await server.git(["-C", dir, "-c", header, "push", "-q", "origin", "main"], {});
    expect(push.code, push.stderr).toBe(0);
    const fetch = await server.git(["-C", dir, "-c", header, "fetch", "-q", "origin"], {});
    expect(fetch.code, fetch.stderr).toBe(0);
  });

  it("no token: 401 with WWW-Authenticate Basic realm=lore, so git asks for credentials", async () => {
    const answer = await rawRequest(server.httpPort, "GET", INFO_REFS);
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe('Basic realm="lore"');
    expect(JSON.parse(answer.body).error.code).toBe("token_required");
    // git got the 401, asked for a user name, and had no terminal to ask on.
    const run = await server.git(["ls-remote", server.url("acme/app", "http")], {});
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("could not read Username");
  });

  it("a wrong token: 401 token_invalid, git says authentication failed", async () => {
    const answer = await rawRequest(server.httpPort, "GET", INFO_REFS, basic("anna:lore_wrong"));
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe("token_invalid");
    const run = await server.git(["ls-remote", server.url("acme/app", "http")], {
      user: { ...anna, token: `lore_${"x".repeat(43)}` },
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("Authentication failed");
  });

  it("an expired token: 401 token_expired", async () => {
    const expired = await createToken(server.store, {
      user: "anna",
      scopes: ["repo:read"],
      expiresInMs: 1000,
      now: Date.now() - 60_000,
    });
    const answer = await rawRequest(
      server.httpPort,
      "GET",
      INFO_REFS,
      basic(`x:${expired.secret}`),
    );
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe("token_expired");
  });

  it("malformed Basic auth: 401 token_invalid, never a crash", async () => {
    for (const authorization of [
      "Basic",
      "Basic !!!!",
      "Basic abc",
      `Basic ${Buffer.from("no-colon").toString("base64")}`,
      `Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe, 0x00]).toString("base64")}`,
      "Digest username=anna",
      `Basic ${"A".repeat(6000)}`,
    ]) {
      const answer = await rawRequest(server.httpPort, "GET", INFO_REFS, {
        Authorization: authorization,
      });
      expect({
        authorization,
        status: answer.status,
        code: JSON.parse(answer.body).error.code,
      }).toEqual({
        authorization,
        status: 401,
        code: "token_invalid",
      });
    }
    expect((await rawRequest(server.httpPort, "GET", INFO_REFS, bearer(anna))).status).toBe(200);
  });

  it("a token in the URL: 400 token_in_url, also when it is a good one", async () => {
    for (const query of [`token=${anna.token}`, `access_token=${anna.token}`, `x=${anna.token}`]) {
      const answer = await rawRequest(
        server.httpPort,
        "GET",
        `/acme/app.git/info/refs?service=git-upload-pack&${query}`,
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error.code).toBe("token_in_url");
    }
  });

  it("a token without repo:write cannot push where the user may write: 403 naming the scope", async () => {
    const readOnly = await createToken(server.store, {
      user: "anna",
      scopes: ["repo:read"],
      now: Date.now(),
    });
    const answer = await rawRequest(
      server.httpPort,
      "GET",
      "/acme/app.git/info/refs?service=git-receive-pack",
      basic(`anna:${readOnly.secret}`),
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error).toEqual({
      code: "forbidden",
      message: "not allowed: this call needs scope repo:write",
    });
    const run = await server.git(["ls-remote", server.url("acme/app", "http")], {
      user: { ...anna, token: readOnly.secret },
    });
    expect(run.code, run.stderr).toBe(0);
  });

  it("a user with read only pushing: git shows Lore's message as remote: lines", async () => {
    await server.grant("boris", "acme/app", "read");
    const dir = join(server.work, "boris-clone");
    expect(
      (await server.git(["clone", "-q", server.url("acme/app", "http"), dir], { user: boris }))
        .code,
    ).toBe(0);
    await server.git(["-C", dir, "commit", "-q", "--allow-empty", "-m", "boris"], {});
    const push = await server.git(["-C", dir, "push", "origin", "main"], { user: boris });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain(
      "remote: not allowed: this call needs write access to acme/app [forbidden]",
    );
  });

  it("answers in Russian for Accept-Language: ru", async () => {
    const answer = await rawRequest(server.httpPort, "GET", INFO_REFS, {
      "Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5",
    });
    expect(JSON.parse(answer.body).error.message).toBe(
      "нужен токен: передайте Authorization: Bearer <токен> (git: токен как пароль)",
    );
  });
});

describe("paths", () => {
  it("`..` and `%2e%2e` are refused with 400 before git runs, even with a good token", async () => {
    await server.createRepo("acme/other");
    for (const path of [
      "/acme/x/../app.git/info/refs?service=git-upload-pack",
      "/acme/%2e%2e/acme/app.git/info/refs?service=git-upload-pack",
      "/acme/%2E%2E/acme/app.git/info/refs?service=git-upload-pack",
      "/acme/app.git/../../acme/other.git/info/refs?service=git-upload-pack",
      "/acme/..%2fother.git/info/refs?service=git-upload-pack",
      "/acme/app.git/%2e%2e/%2e%2e/other.git/info/refs?service=git-upload-pack",
    ]) {
      const answer = await rawRequest(server.httpPort, "GET", path, bearer(anna));
      expect({ path, status: answer.status }).toEqual({ path, status: expect.any(Number) });
      expect([400, 404], path).toContain(answer.status);
      expect(answer.body).not.toContain("# service=");
    }
    const direct = await rawRequest(
      server.httpPort,
      "GET",
      "/acme/x/../app.git/info/refs?service=git-upload-pack",
      bearer(anna),
    );
    expect(direct.status).toBe(400);
    expect(JSON.parse(direct.body).error.code).toBe("invalid_input");
  });

  it("a NUL (%00) in the path is 400 invalid_input naming the NUL, not a dot segment", async () => {
    const answer = await rawRequest(
      server.httpPort,
      "GET",
      "/acme/app%00.git/info/refs?service=git-upload-pack",
      bearer(anna),
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toMatchObject({
      code: "invalid_input",
      message:
        "invalid input: a git URL holds no NUL or other control character; the path has U+0000 (NUL)",
    });
  });

  it("a repository name with a leading - is 400 invalid_repo_name", async () => {
    for (const path of [
      "/acme/-app.git/info/refs?service=git-upload-pack",
      "/-acme/app.git/info/refs?service=git-upload-pack",
      "/acme/--upload-pack=touch%20x.git/info/refs?service=git-upload-pack",
    ]) {
      const answer = await rawRequest(server.httpPort, "GET", path, bearer(anna));
      expect({ path, status: answer.status, code: JSON.parse(answer.body).error.code }).toEqual({
        path,
        status: 400,
        code: "invalid_repo_name",
      });
    }
    const run = await server.git(["ls-remote", `${server.httpBase}/acme/-app.git`], { user: anna });
    expect(run.code).not.toBe(0);
  });

  it("dumb HTTP and other paths under a repository are 404 route_not_found", async () => {
    for (const [method, path] of [
      ["GET", "/acme/app.git/info/refs"],
      ["GET", "/acme/app.git/HEAD"],
      ["GET", "/acme/app.git/objects/info/packs"],
      ["GET", "/acme/app.git/config"],
      ["GET", "/acme/app.git/git-upload-pack"],
      ["DELETE", "/acme/app.git/git-receive-pack"],
      ["GET", "/acme/app.git"],
    ] as const) {
      const answer = await rawRequest(server.httpPort, method, path, bearer(anna));
      expect({ path, status: answer.status, code: JSON.parse(answer.body).error.code }).toEqual({
        path,
        status: 404,
        code: "route_not_found",
      });
    }
  });
  it("passes Git-Protocol on: version=2 gets the v2 capability advertisement", async () => {
    const v2 = await rawRequest(server.httpPort, "GET", INFO_REFS, {
      ...bearer(anna),
      "Git-Protocol": "version=2",
    });
    expect(v2.status).toBe(200);
    expect(v2.headers["content-type"]).toBe("application/x-git-upload-pack-advertisement");
    expect(v2.body).toMatch(/^000eversion 2\n/);
    const v0 = await rawRequest(server.httpPort, "GET", INFO_REFS, bearer(anna));
    expect(v0.body).not.toContain("version 2");
  });
});

describe("bodies", () => {
  it("a fetch whose request git gzips (many refs) is served", async () => {
    const many = join(server.work, "many");
    await server.git(["init", "-q", "-b", "main", many], {});
    for (let at = 0; at < 60; at += 1) {
      await server.git(["-C", many, "commit", "-q", "--allow-empty", "-m", `c${at}`], {});
      await server.git(["-C", many, "branch", `b${at}`], {});
    }
    await server.createRepo("acme/many");
    await server.grant("anna", "acme/many", "write");
    const push = await server.git(
      ["-C", many, "push", "-q", server.url("acme/many", "http"), "--all"],
      {
        user: anna,
      },
    );
    expect(push.code, push.stderr).toBe(0);
    const clone = await server.git(
      [
        "-c",
        "protocol.version=0",
        "clone",
        "-q",
        server.url("acme/many", "http"),
        join(server.work, "many-clone"),
      ],
      { user: anna, env: { GIT_TRACE_CURL: "1", GIT_TRACE_CURL_NO_DATA: "1" } },
    );
    expect(clone.code, clone.stderr.slice(-2000)).toBe(0);
    expect(clone.stderr).toMatch(/Send header: Content-Encoding: gzip/);
    const branches = await server.git(["-C", join(server.work, "many-clone"), "branch", "-r"], {});
    expect(branches.stdout.trim().split("\n").length).toBe(62);
  });

  it("a client that goes away mid-push stops git; the server goes on", async () => {
    const socket = connect(server.httpPort, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(
      "POST /acme/app.git/git-receive-pack HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
        `Authorization: Bearer ${anna.token}\r\n` +
        "Content-Type: application/x-git-receive-pack-request\r\nContent-Length: 100000\r\n\r\n" +
        // The start of a pkt-line (0x00a4 bytes announced, a few sent): git waits for the rest.
        "00a40000000000000000000000000000000000000000 ",
    );
    const until = Date.now() + 20_000;
    while (server.services.load().running === 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(server.services.load().running).toBe(1);
    socket.destroy();
    expect(await settled(server)).toEqual({ running: 0, queued: 0 });
    expect((await rawRequest(server.httpPort, "GET", INFO_REFS, bearer(anna))).status).toBe(200);
  });
});

describe("limits", () => {
  it("the time limit kills a git process that waits too long; the answer still comes", async () => {
    const slow = await startGitServer({ ssh: false, limits: { timeoutMs: 1500 } });
    try {
      const user = await slow.addUser("anna");
      await slow.createRepo("acme/app");
      await slow.grant("anna", "acme/app", "write");
      // A body announced but never sent: git waits for it until the limit.
      const socket = connect(slow.httpPort, "127.0.0.1");
      const answer = new Promise<string>((resolve) => {
        let text = "";
        socket.on("data", (chunk) => {
          text += chunk.toString("latin1");
        });
        socket.on("close", () => resolve(text));
        socket.on("error", () => resolve(text));
      });
      socket.write(
        "POST /acme/app.git/git-receive-pack HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
          `Authorization: Bearer ${user.token}\r\n` +
          "Content-Type: application/x-git-receive-pack-request\r\nContent-Length: 100\r\n\r\n",
      );
      const text = await answer;
      // git http-backend answers its head at once; the cut comes as a transfer that never
      // ends (no last chunk), so the client sees a failure, not a complete answer.
      expect(text).toMatch(/^HTTP\/1\.1 200/);
      expect(text).not.toMatch(/\r\n0\r\n\r\n$/);
      expect(await settled(slow)).toEqual({ running: 0, queued: 0 });
    } finally {
      await slow.close();
    }
  });

  it("all git processes busy and the queue full: 503 server_busy with Retry-After", async () => {
    const busy = await startGitServer({ ssh: false, limits: { maxProcesses: 1, maxQueue: 0 } });
    try {
      const user = await busy.addUser("anna");
      await busy.createRepo("acme/app");
      await busy.grant("anna", "acme/app", "write");
      const socket = connect(busy.httpPort, "127.0.0.1");
      socket.on("error", () => {});
      socket.write(
        "POST /acme/app.git/git-receive-pack HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
          `Authorization: Bearer ${user.token}\r\n` +
          "Content-Type: application/x-git-receive-pack-request\r\nContent-Length: 100\r\n\r\n",
      );
      const until = Date.now() + 20_000;
      while (busy.services.load().running === 0 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const answer = await rawRequest(busy.httpPort, "GET", INFO_REFS, {
        ...bearer(user),
        "User-Agent": "git/2.39.5",
      });
      expect(answer.status).toBe(503);
      expect(answer.headers["retry-after"]).toBe("5");
      expect(answer.body).toBe(
        "the server is busy: 1 git processes are running and 0 are waiting; try again shortly [server_busy]\n",
      );
      socket.destroy();
      expect(await settled(busy)).toEqual({ running: 0, queued: 0 });
      expect((await rawRequest(busy.httpPort, "GET", INFO_REFS, bearer(user))).status).toBe(200);
    } finally {
      await busy.close();
    }
  });
});
