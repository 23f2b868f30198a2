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
 */
import { readFile, realpath, stat } from "node:fs/promises";
import { extname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
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

/** A file's bytes when it is a regular file inside `root`; else `undefined`. */
async function fileInside(root: string, relative: string): Promise<Buffer | undefined> {
  try {
    const realRoot = await realpath(root);
    const real = await realpath(join(realRoot, relative));
    if (!real.startsWith(realRoot + sep)) return undefined;
    if (!(await stat(real)).isFile()) return undefined;
    return await readFile(real);
  } catch {
    return undefined;
  }
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
    const bytes = await fileInside(dir, "index.html");
    c.header("Cache-Control", "no-cache");
    c.header("Content-Type", "text/html; charset=utf-8");
    return c.body(bytes === undefined ? notBuiltPage() : new Uint8Array(bytes), 200);
  };
  app.on(["GET", "HEAD"], "/", index);
  app.on(["GET", "HEAD"], "/index.html", index);
  // One segment only: `/assets/<owner-named-assets>.git/…` stays git smart HTTP's.
  app.on(["GET", "HEAD"], "/assets/:file", async (c) => {
    // The raw path as sent: `%2f` or `%2e` must not be decoded into a separator or a dot.
    const raw = (c.env?.incoming?.url ?? new URL(c.req.url).pathname).split("?")[0] ?? "";
    const relative = assetPathOf(raw.slice("/assets/".length));
    const bytes =
      relative === undefined ? undefined : await fileInside(join(dir, "assets"), relative);
    if (relative === undefined || bytes === undefined) {
      throw new LoreError("route_not_found", { method: c.req.method, path: c.req.path });
    }
    c.header("Cache-Control", ASSET_CACHE);
    c.header("Content-Type", contentTypeOf(relative));
    return c.body(new Uint8Array(bytes), 200);
  });
}
