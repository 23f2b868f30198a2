import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ASSET_CACHE,
  assetPathOf,
  COMPRESS_MIN_BYTES,
  defaultWebDir,
  pickEncoding,
  WEB_CSP,
} from "../../src/http/web/static-assets.js";
import { startTeamFixture, type TeamFixture } from "./team-fixture.js";

// The web view's static files over real HTTP on 127.0.0.1, from a temporary folder laid out
// as `vite build` writes dist/web: content types, caching, security headers, and no way out
// of the folder.

let team: TeamFixture;
let bare: TeamFixture;
let root: string;
const SECRET = "the-secret-next-to-the-web-folder";
/** A script large enough to be compressed (and compressible: it repeats). */
const BIG_JS = Array.from({ length: 400 }, (_, i) => `export const v${i} = "value ${i}";`).join(
  "\n",
);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "lore-web-"));
  const web = join(root, "web");
  mkdirSync(join(web, "assets"), { recursive: true });
  writeFileSync(join(root, "secret.txt"), SECRET);
  writeFileSync(
    join(web, "index.html"),
    '<!doctype html><script src="/assets/app-1a2b.js"></script>',
  );
  writeFileSync(join(web, "assets", "app-1a2b.js"), "console.log(1);");
  writeFileSync(join(web, "assets", "app-1a2b.css"), "body{}");
  writeFileSync(join(web, "assets", "logo-9f.svg"), "<svg/>");
  writeFileSync(join(web, "assets", "font-3c.woff2"), "wOF2");
  writeFileSync(join(web, "assets", "blob-00.bin"), "x");
  writeFileSync(join(web, "assets", "big-7e.js"), BIG_JS);
  writeFileSync(join(web, "assets", "big-7e.png"), BIG_JS);
  writeFileSync(join(web, "assets", ".hidden"), SECRET);
  symlinkSync(join(root, "secret.txt"), join(web, "assets", "link-out.txt"));
  team = await startTeamFixture({ webDir: web });
  const empty = join(root, "empty");
  mkdirSync(empty);
  bare = await startTeamFixture({ webDir: empty });
});
afterAll(async () => {
  await team?.close();
  await bare?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A GET with the path sent exactly as written (fetch would fold `..` away first). */
function rawGet(
  port: number,
  path: string,
  method = "GET",
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  bytes: Buffer;
}> {
  return new Promise((done, fail) => {
    const req = request({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        done({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          bytes: Buffer.concat(chunks),
        }),
      );
    });
    req.on("error", fail);
    req.end();
  });
}

function expectSecurityHeaders(headers: Record<string, string | string[] | undefined>): void {
  expect(headers["content-security-policy"]).toBe(WEB_CSP);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");
}

describe("the built app", () => {
  it("serves index.html at / and /index.html without a token, no-cache, with the security headers", async () => {
    for (const path of ["/", "/index.html"]) {
      const answer = await rawGet(team.port, path);
      expect(answer.status).toBe(200);
      expect(answer.body).toContain("/assets/app-1a2b.js");
      expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(answer.headers["cache-control"]).toBe("no-cache");
      expectSecurityHeaders(answer.headers);
    }
    expect(WEB_CSP).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    const head = await rawGet(team.port, "/", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });

  it("serves hashed assets with their content type and a year's immutable cache", async () => {
    const types: Record<string, string> = {
      "app-1a2b.js": "text/javascript; charset=utf-8",
      "app-1a2b.css": "text/css; charset=utf-8",
      "logo-9f.svg": "image/svg+xml",
      "font-3c.woff2": "font/woff2",
      "blob-00.bin": "application/octet-stream",
    };
    for (const [file, type] of Object.entries(types)) {
      const answer = await rawGet(team.port, `/assets/${file}`);
      expect(answer.status, file).toBe(200);
      expect(answer.headers["content-type"]).toBe(type);
      expect(answer.headers["cache-control"]).toBe(ASSET_CACHE);
      expectSecurityHeaders(answer.headers);
    }
    expect((await rawGet(team.port, "/assets/app-1a2b.js")).body).toBe("console.log(1);");
  });

  it("a missing asset is 404 route_not_found with the security headers", async () => {
    const answer = await rawGet(team.port, "/assets/nope-123.js");
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).error.code).toBe("route_not_found");
    expectSecurityHeaders(answer.headers);
  });

  it("never leaves the folder: .., encoded dots and slashes, absolute paths, dot files, links out", async () => {
    const paths = [
      "/assets/../secret.txt",
      "/assets/../../secret.txt",
      "/assets/%2e%2e/secret.txt",
      "/assets/%2E%2E/%2e%2e/secret.txt",
      "/assets/..%2fsecret.txt",
      "/assets/%2e%2e%2fsecret.txt",
      "/assets/%2e%2e%5csecret.txt",
      "/assets/..\\secret.txt",
      "/assets//etc/passwd",
      "/assets/%2Fetc%2Fpasswd",
      `/assets/${encodeURIComponent(join(root, "secret.txt"))}`,
      "/assets/.hidden",
      "/assets/link-out.txt",
      "/../secret.txt",
      "/%2e%2e/secret.txt",
    ];
    for (const path of paths) {
      const answer = await rawGet(team.port, path);
      expect([400, 401, 404], path).toContain(answer.status);
      expect(answer.body, path).not.toContain(SECRET);
      expect(answer.body, path).not.toContain("root:");
    }
    expect((await rawGet(team.port, "/assets/../secret.txt")).status).toBe(400);
    expect((await rawGet(team.port, "/assets/%2Fetc%2Fpasswd")).status).toBe(404);
    expect((await rawGet(team.port, "/assets/.hidden")).status).toBe(404);
    expect((await rawGet(team.port, "/assets/link-out.txt")).status).toBe(404);
  });

  it("a hosted repository of an owner named assets is git's, behind a token", async () => {
    const answer = await rawGet(team.port, "/assets/app.git/info/refs?service=git-upload-pack");
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe("token_required");
  });

  it("the web view's API answers carry the security headers too", async () => {
    const answer = await rawGet(team.port, "/web/api/session");
    expect(answer.status).toBe(401);
    expectSecurityHeaders(answer.headers);
  });
});

describe("compression", () => {
  it("sends a text asset gzip or br to a client that accepts it, the same bytes once decoded, Vary: Accept-Encoding", async () => {
    const size = Buffer.byteLength(BIG_JS);
    expect(size).toBeGreaterThan(COMPRESS_MIN_BYTES);
    const plain = await rawGet(team.port, "/assets/big-7e.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toContain("Accept-Encoding");
    expect(plain.body).toBe(BIG_JS);
    const gz = await rawGet(team.port, "/assets/big-7e.js", "GET", { "accept-encoding": "gzip" });
    expect(gz.status).toBe(200);
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toContain("Accept-Encoding");
    expect(gz.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(gz.headers["cache-control"]).toBe(ASSET_CACHE);
    expectSecurityHeaders(gz.headers);
    expect(gz.bytes.length).toBeLessThan(size / 4);
    expect(gunzipSync(gz.bytes).toString("utf8")).toBe(BIG_JS);
    const br = await rawGet(team.port, "/assets/big-7e.js", "GET", {
      "accept-encoding": "gzip, deflate, br",
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.bytes).toString("utf8")).toBe(BIG_JS);
    // Again: the cached compressed bytes, identical.
    const again = await rawGet(team.port, "/assets/big-7e.js", "GET", { "accept-encoding": "br" });
    expect(again.bytes.equals(br.bytes)).toBe(true);
    // br refused by q=0: gzip.
    const noBr = await rawGet(team.port, "/assets/big-7e.js", "GET", {
      "accept-encoding": "br;q=0, gzip",
    });
    expect(noBr.headers["content-encoding"]).toBe("gzip");
  });

  it("leaves alone what does not pay: a small file, an image, a client that accepts nothing", async () => {
    const small = await rawGet(team.port, "/assets/app-1a2b.js", "GET", {
      "accept-encoding": "gzip",
    });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body).toBe("console.log(1);");
    const image = await rawGet(team.port, "/assets/big-7e.png", "GET", {
      "accept-encoding": "gzip, br",
    });
    expect(image.headers["content-encoding"]).toBeUndefined();
    expect(image.body).toBe(BIG_JS);
    const identity = await rawGet(team.port, "/assets/big-7e.js", "GET", {
      "accept-encoding": "identity",
    });
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body).toBe(BIG_JS);
  });

  it("picks the coding from Accept-Encoding", () => {
    expect(pickEncoding(undefined)).toBeUndefined();
    expect(pickEncoding("")).toBeUndefined();
    expect(pickEncoding("identity")).toBeUndefined();
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding("GZIP;q=0.5, br;q=1")).toBe("br");
    expect(pickEncoding("br;q=0, gzip;q=0.1")).toBe("gzip");
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("*;q=0")).toBeUndefined();
    expect(pickEncoding("gzip;q=0")).toBeUndefined();
    expect(pickEncoding("br;q=nonsense")).toBeUndefined();
  });
});

describe("before the app is built", () => {
  it("/ answers a short page saying so, 200, with the same headers; assets are 404", async () => {
    const answer = await rawGet(bare.port, "/");
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("The web view is not built");
    expect(answer.body).toContain("Веб-интерфейс не собран");
    expect(answer.body).not.toContain("<script");
    expect(answer.headers["cache-control"]).toBe("no-cache");
    expectSecurityHeaders(answer.headers);
    expect((await rawGet(bare.port, "/assets/app-1a2b.js")).status).toBe(404);
  });
});

describe("where the app is looked for", () => {
  it("dist/web of the package, from the module's own place", () => {
    const here = resolve(import.meta.dirname, "..", "..");
    expect(defaultWebDir()).toBe(join(here, "dist", "web") + sep);
  });

  it("takes one plain file name only", () => {
    expect(assetPathOf("index-AbC_1.js")).toBe("index-AbC_1.js");
    for (const bad of ["", "..", ".env", "a/b.js", "%2e%2e", "a\\b", "/etc/passwd", "a b.js"]) {
      expect(assetPathOf(bad), bad).toBeUndefined();
    }
  });
});
