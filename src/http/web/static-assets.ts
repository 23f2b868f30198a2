/**
 * The web view's static files (the team server's browser pages): `GET /` (and
 * `/index.html`) answers `index.html` of the built app, `GET /assets/<file>` its hashed
 * scripts, styles and images. The app is built by `vite build` into `dist/web`; the folder
 * is found next to the built server code (`dist/http/web/` → `dist/web/`), so an installed
 * package finds its own. Until the app is built, `/` answers a short page saying so (200).
 *
 * Every web answer carries the security headers of {@link WEB_SECURITY_HEADERS} (a strict
 * Content-Security-Policy: scripts, styles and data only from the server itself; the page
 * cannot be framed). Hashed assets are cached for a year (`immutable`: their name changes
 * with their content), `index.html` is revalidated every time (`no-cache`), so a new build
 * is seen on the next load. Only plain file names are served: no dot files, no `..`, no
 * absolute or encoded paths (the dot-segment guard refuses `..` and `%2e%2e` before routing;
 * this module refuses what is left), and a file must resolve inside the folder.
 *
 * Text files (HTML, scripts, styles, SVG, JSON, source maps, wasm) of at least
 * {@link COMPRESS_MIN_BYTES} are sent compressed to a client that accepts it: Brotli when
 * `Accept-Encoding` allows `br`, else gzip; compressed once per file version (its path, size
 * and mtime) and kept in memory (the built app is a few files, so the cache is small and
 * bounded by {@link COMPRESS_CACHE_MAX_BYTES}), and always with `Vary: Accept-Encoding` so a
 * cache in between never hands one client's encoding to another.
 */

import { readFile, realpath, stat } from "node:fs/promises";
import { extname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import type { Context, Hono, MiddlewareHandler } from "hono";
import { LoreError } from "../../core/errors/lore-error.js";
import type { HttpEnv } from "../server-api.js";

/** The Content-Security-Policy of every web answer. */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/** The security headers of every web answer (static files and `/web/api/…`). */
export const WEB_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": WEB_CSP,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

/** `Cache-Control` of a hashed asset: a year, never revalidated. */
export const ASSET_CACHE = "public, max-age=31536000, immutable";

/** Content types by extension; anything else is `application/octet-stream`. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
};

/** The content type of a file name (see {@link CONTENT_TYPES}). */
export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extname(name).toLowerCase()] ?? "application/octet-stream";
}

/**
 * The built app's folder of this installation: `dist/web` of the package, found from this
 * module's own place (`dist/http/web/static-assets.js`, or `src/http/web/static-assets.ts`
 * when run from the sources: both are three folders below the package).
 */
export function defaultWebDir(): string {
  return fileURLToPath(new URL("../../../dist/web/", import.meta.url));
}

/** A plain file name: letters, digits, `.`, `_`, `-`; no leading dot. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$/;

/**
 * The file name of an asset request (after `/assets/`), or `undefined` when it is not one
 * plain name: a dot-led name (`..`, `.env`), a slash (`/assets//etc/passwd`, a subfolder:
 * `vite build` writes its assets flat), a backslash, a percent escape (`%2e%2e`, `%2f`).
 *
 * @param rest - the raw path after `/assets/`.
 */
export function assetPathOf(rest: string): string | undefined {
  return FILE_NAME.test(rest) ? rest : undefined;
}

/** The page `/` answers while the app is not built. */
function notBuiltPage(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Lore</title></head>
<body>
<h1>Lore</h1>
<p>The web view is not built. Build it with <code>npm run build</code>, then reload.</p>
<p lang="ru">Веб-интерфейс не собран. Соберите его: <code>npm run build</code>, затем обновите страницу.</p>
<p>The API answers at <code>/api/v1</code>.</p>
</body>
</html>
`;
}

/**
 * The middleware adding {@link WEB_SECURITY_HEADERS} to an answer (mounted on the web
 * paths: `/`, `/index.html`, `/assets/*`, `/web/*`), refusals included.
 */
export function webSecurityHeaders(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(WEB_SECURITY_HEADERS))
      c.res.headers.set(name, value);
  };
}

/** A file read from the web folder: its real path, bytes and mtime (ms). */
interface WebFile {
  real: string;
  bytes: Buffer;
  mtimeMs: number;
}

/** A file's bytes when it is a regular file inside `root`; else `undefined`. */
async function fileInside(root: string, relative: string): Promise<WebFile | undefined> {
  try {
    const realRoot = await realpath(root);
    const real = await realpath(join(realRoot, relative));
    if (!real.startsWith(realRoot + sep)) return undefined;
    const info = await stat(real);
    if (!info.isFile()) return undefined;
    return { real, bytes: await readFile(real), mtimeMs: info.mtimeMs };
  } catch {
    return undefined;
  }
}

/** Files smaller than this (bytes) are sent as they are: compressing would not pay. */
export const COMPRESS_MIN_BYTES = 512;

/** The most compressed bytes kept in memory; past it the oldest versions are dropped. */
export const COMPRESS_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/** Extensions worth compressing (text; images and fonts other than SVG are compressed already). */
const COMPRESSIBLE = new Set([
  ".html",
  ".js",
  ".mjs",
  ".css",
  ".json",
  ".map",
  ".svg",
  ".txt",
  ".wasm",
]);

/** A content coding the server sends. */
export type WebEncoding = "br" | "gzip";

/**
 * The coding to send for an `Accept-Encoding` header: `br` when it is accepted, else `gzip`,
 * else `undefined` (identity). A coding with `q=0` is refused; `*` accepts both.
 *
 * @param header - the request's `Accept-Encoding` (absent: identity).
 */
export function pickEncoding(header: string | undefined): WebEncoding | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.split(",")) {
    const [token = "", ...params] = part.trim().toLowerCase().split(";");
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split("=");
      if (key === "q" && value !== undefined) q = Number(value);
    }
    if (token !== "") accepted.set(token, Number.isFinite(q) ? q : 0);
  }
  const ok = (coding: string) => (accepted.get(coding) ?? accepted.get("*") ?? 0) > 0;
  if (ok("br")) return "br";
  if (ok("gzip")) return "gzip";
  return undefined;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compressed versions by `<coding>\0<real path>\0<size>\0<mtime>`; insertion order is age. */
const compressed = new Map<string, Promise<Buffer>>();
const compressedSizes = new Map<string, number>();
let compressedBytes = 0;

function remember(key: string, bytes: Buffer): void {
  compressedSizes.set(key, bytes.length);
  compressedBytes += bytes.length;
  for (const [old, size] of compressedSizes) {
    if (compressedBytes <= COMPRESS_CACHE_MAX_BYTES) break;
    compressedSizes.delete(old);
    compressed.delete(old);
    compressedBytes -= size;
  }
}

/** The file compressed with `coding`, once per version of the file (see the module header). */
function compressedOf(file: WebFile, coding: WebEncoding): Promise<Buffer> {
  const key = [coding, file.real, file.bytes.length, file.mtimeMs].join("\0");
  let made = compressed.get(key);
  if (made === undefined) {
    made =
      coding === "br"
        ? brotli(file.bytes, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: 11,
              [zlib.BROTLI_PARAM_SIZE_HINT]: file.bytes.length,
            },
          })
        : gzipAsync(file.bytes, { level: 9 });
    compressed.set(key, made);
    made.then(
      (bytes) => remember(key, bytes),
      () => compressed.delete(key),
    );
  }
  return made;
}

/**
 * The answer's body for a file: compressed when the file is worth it and the client accepts
 * a coding (setting `Content-Encoding`), else the file's bytes; `Vary: Accept-Encoding` on
 * every compressible file either way.
 */
async function sendFile(c: Context<HttpEnv>, file: WebFile, name: string): Promise<Response> {
  if (!COMPRESSIBLE.has(extname(name).toLowerCase()))
    return c.body(new Uint8Array(file.bytes), 200);
  c.header("Vary", "Accept-Encoding");
  const coding =
    file.bytes.length >= COMPRESS_MIN_BYTES
      ? pickEncoding(c.req.header("accept-encoding"))
      : undefined;
  if (coding === undefined) return c.body(new Uint8Array(file.bytes), 200);
  const body = await compressedOf(file, coding);
  if (body.length >= file.bytes.length) return c.body(new Uint8Array(file.bytes), 200);
  c.header("Content-Encoding", coding);
  return c.body(new Uint8Array(body), 200);
}

/**
 * Registers `GET`/`HEAD /`, `/index.html` and `/assets/<file>` (see the module header). An asset
 * that is not there (or not a plain path) is 404 `route_not_found`.
 *
 * @param app - the application.
 * @param dir - the built app's folder. Default {@link defaultWebDir}.
 */
export function registerStaticAssets(app: Hono<HttpEnv>, dir: string = defaultWebDir()): void {
  const index = async (c: Context<HttpEnv>) => {
    const file = await fileInside(dir, "index.html");
    c.header("Cache-Control", "no-cache");
    c.header("Content-Type", "text/html; charset=utf-8");
    return file === undefined ? c.body(notBuiltPage(), 200) : sendFile(c, file, "index.html");
  };
  app.on(["GET", "HEAD"], "/", index);
  app.on(["GET", "HEAD"], "/index.html", index);
  // One segment only: `/assets/<owner-named-assets>.git/…` stays git smart HTTP's.
  app.on(["GET", "HEAD"], "/assets/:file", async (c) => {
    // The raw path as sent: `%2f` or `%2e` must not be decoded into a separator or a dot.
    const raw = (c.env?.incoming?.url ?? new URL(c.req.url).pathname).split("?")[0] ?? "";
    const relative = assetPathOf(raw.slice("/assets/".length));
    const file =
      relative === undefined ? undefined : await fileInside(join(dir, "assets"), relative);
    if (relative === undefined || file === undefined) {
      throw new LoreError("route_not_found", { method: c.req.method, path: c.req.path });
    }
    c.header("Cache-Control", ASSET_CACHE);
    c.header("Content-Type", contentTypeOf(relative));
    return sendFile(c, file, relative);
  });
}
