/**
 * The Gitea adapter's refusals before and around a request: URL segments checked before any
 * URL is built, the token never sent to another origin on a redirect, read limits, a body
 * that stalls or a cancelled request given their own codes. Real HTTP on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeGitea, startFakeGitea } from "../../../test/helpers/fake-gitea.js";
import { WIKI_LIMITS } from "../../core/wiki/wiki-limits.js";
import { GiteaForge } from "./gitea-forge.js";

const servers: Server[] = [];
let gitea: FakeGitea | undefined;
afterEach(async () => {
  await gitea?.close();
  gitea = undefined;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
});

/** A plain HTTP server on 127.0.0.1; returns its address. */
async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("GiteaForge: names checked before any URL is built", () => {
  it("`.` and `..` as owner, repository, path or branch segment are refused; no request is sent", async () => {
    gitea = await startFakeGitea();
    await gitea.addRepo("proj", { "a.md": "a" });
    const forge = new GiteaForge({ url: gitea.url, token: gitea.token });
    const refused = { code: "invalid_input" };
    for (const [owner, repo] of [
      ["..", "proj"],
      [".", "proj"],
      [gitea.user, ".."],
      [gitea.user, "."],
      [gitea.user, ""],
      [gitea.user, "a/b"],
      ["..%2f", "x\u0000"],
    ] as const) {
      await expect(forge.getRawFile(owner, repo, "a.md")).rejects.toMatchObject(refused);
      await expect(forge.getFileWithSha(owner, repo, "a.md")).rejects.toMatchObject(refused);
      await expect(
        forge.commitFile({ owner, repo, path: "a.md", content: "x", message: "m" }),
      ).rejects.toMatchObject(refused);
    }
    await expect(forge.getRawFile(gitea.user, "proj", "../user/repos")).rejects.toMatchObject(
      refused,
    );
    await expect(
      forge.commitFile({
        owner: gitea.user,
        repo: "proj",
        path: "a.md",
        content: "x",
        message: "m",
        branch: "kb/../main",
      }),
    ).rejects.toMatchObject(refused);
    expect(gitea.requests).toEqual([]);
    // Good names still work.
    expect(await forge.getRawFile(gitea.user, "proj", "a.md")).toBe("a");
  });
});

describe("GiteaForge: redirects", () => {
  it("a redirect to another origin never carries the token; one to the same origin does", async () => {
    const seen: { where: string; auth: string | undefined }[] = [];
    const other = await serve((req, res) => {
      seen.push({ where: "other", auth: req.headers.authorization });
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("from the other origin");
    });
    const home = await serve((req, res) => {
      seen.push({ where: `home ${req.url}`, auth: req.headers.authorization });
      if (req.url?.includes("/raw/away")) {
        res.writeHead(302, { Location: `${other}/elsewhere` });
        res.end();
      } else if (req.url?.includes("/raw/near")) {
        res.writeHead(302, { Location: "/api/v1/repos/u/r/raw/final" });
        res.end();
      } else {
        res.writeHead(200, { "Content-Type": "text/plain" });
        res.end("final");
      }
    });
    const forge = new GiteaForge({ url: home, token: "secret-token" });
    expect(await forge.getRawFile("u", "r", "away")).toBe("from the other origin");
    expect(await forge.getRawFile("u", "r", "near")).toBe("final");
    expect(seen).toEqual([
      { where: "home /api/v1/repos/u/r/raw/away", auth: "token secret-token" },
      { where: "other", auth: undefined },
      { where: "home /api/v1/repos/u/r/raw/near", auth: "token secret-token" },
      { where: "home /api/v1/repos/u/r/raw/final", auth: "token secret-token" },
    ]);
  });
});

describe("GiteaForge: limits, stalled bodies, cancels", () => {
  it("a raw file over its limit is refused with remote_file_too_large, by length or while reading", async () => {
    const big = "x".repeat(WIKI_LIMITS.wikiIndexBytes + 10);
    const url = await serve((req, res) => {
      if (req.url?.includes("chunked")) {
        res.writeHead(200, { "Content-Type": "text/plain" }); // no Content-Length: counted
        res.write(big.slice(0, 1_000_000));
        res.end(big.slice(1_000_000));
      } else {
        res.writeHead(200, { "Content-Type": "text/plain", "Content-Length": big.length });
        res.end(big);
      }
    });
    const forge = new GiteaForge({ url, token: "t" });
    await expect(
      forge.getRawFile("u", "r", ".wiki/index.md", undefined, { limit: "wikiIndexBytes" }),
    ).rejects.toMatchObject({ code: "remote_file_too_large", data: { size: big.length } });
    await expect(
      forge.getRawFile("u", "r", "chunked/index.md", undefined, { limit: "wikiIndexBytes" }),
    ).rejects.toMatchObject({ code: "remote_file_too_large" });
    expect((await forge.getRawFile("u", "r", ".wiki/index.md"))?.length).toBe(big.length);
  });

  it("a body that stalls past the time limit is forge_unavailable, not “not JSON”", async () => {
    const url = await serve((req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write(req.url?.includes("/user/repos") ? '[{"name":' : "partial");
      // …and nothing more: the body never ends.
    });
    const forge = new GiteaForge({ url, token: "t", timeoutMs: 300 });
    await expect(forge.listUserRepos()).rejects.toMatchObject({
      code: "forge_unavailable",
      message: expect.stringContaining("did not arrive in time"),
    });
    await expect(forge.getRawFile("u", "r", "a.md")).rejects.toMatchObject({
      code: "forge_unavailable",
    });
  });

  it("an aborted signal starts no request and stops one in flight with `cancelled`", async () => {
    let requests = 0;
    const url = await serve((_req, res) => {
      requests++;
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.write("slow");
    });
    const forge = new GiteaForge({ url, token: "t" });
    const done = new AbortController();
    done.abort();
    await expect(
      forge.getRawFile("u", "r", "a.md", undefined, { signal: done.signal }),
    ).rejects.toMatchObject({ code: "cancelled" });
    expect(requests).toBe(0);
    const later = new AbortController();
    const read = forge.getRawFile("u", "r", "a.md", undefined, { signal: later.signal });
    setTimeout(() => later.abort(), 100);
    await expect(read).rejects.toMatchObject({ code: "cancelled" });
    expect(requests).toBe(1);
  });
});
