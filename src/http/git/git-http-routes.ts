import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { Context } from "hono";
import { Hono } from "hono";
import type { Need, Principal } from "../../core/access/rights.js";
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import {
  type GitHttpTarget,
  type GitPathRefusal,
  needOf,
  parseGitHttpPath,
} from "../../core/repos/git-service-path.js";
import type { GitServices } from "../../ports/git-service.js";
import type { RepoRecord, ServerStore } from "../../ports/server-store.js";
import { authenticateToken } from "../../services/access/authenticate.js";
import { authorizeRepo } from "../../services/access/authorize.js";
import { TOKEN_PREFIX } from "../../services/access/tokens.js";
import { indexAfterPush } from "../../services/push/index-after-push.js";
import { pickAcceptLanguage } from "../accept-language.js";
import { STATUS_OF_KIND } from "../http-status.js";
import { readCgiHead, toWebStream } from "./cgi-response.js";
import { queryHoldsToken, readGitCredential } from "./git-credentials.js";

/** What the smart-HTTP git routes need. */
export interface GitHttpDeps {
  /** The server's records (tokens, users, repositories, grants). */
  store: ServerStore;
  /** The server's data folder; bare repositories live in `<data>/repos/<owner>/<name>.git`. */
  dataDir: string;
  /** The bounded git processes (shared with the SSH server); they carry the limits. */
  git: GitServices;
  /**
   * A token's secret → its principal. Default: `authenticateToken(store, secret, now)`.
   * @throws LoreError `token_invalid` / `token_expired`.
   */
  authenticate?: (secret: string) => Promise<Principal>;
  /**
   * The repository, when the principal may do `need` on it. Default: `authorizeRepo`.
   * @throws LoreError `repo_not_found` (also for one the caller may not read) / `forbidden`.
   */
  authorize?: (principal: Principal, fullName: string, need: Need) => Promise<RepoRecord>;
  /** Where git's stderr and internal failures go, one line each. Default: nowhere. */
  log?: (line: string) => void;
  /**
   * Runs after a push (`git-receive-pack`) that git ended cleanly, before the answer's last
   * byte: the server brings the repository's index up to it (see `INDEXED_BY_SERVER_ENV`),
   * so the pusher's `git push` returns with the push indexed. Its failure is logged, never
   * the push's. Default: none.
   */
  afterPush?: (repo: RepoRecord) => Promise<void>;
}

/**
 * The bindings of `@hono/node-server` (absent under `app.request()` in tests), and the
 * `principal` an outer auth middleware may have set already.
 */
type Bindings = {
  Bindings: Partial<{ incoming: IncomingMessage; outgoing: ServerResponse }>;
  Variables: { principal?: Principal };
};

/**
 * Git smart HTTP (seed 004, team server; git over HTTP), as a Hono sub-app to mount at the
 * root of the server's app: `GET /{owner}/{name}.git/info/refs?service=git-upload-pack|
 * git-receive-pack`, `POST /{owner}/{name}.git/git-upload-pack`, `POST …/git-receive-pack`,
 * served by git's own `git http-backend` (CGI) with both directions streamed (a 100 MB push
 * is never held in memory). Anything else under `/{owner}/{name}.git/` (dumb HTTP,
 * another method) is 404 `route_not_found`.
 *
 * Mounted behind an auth middleware that sets the `principal` variable, that principal is
 * used and the credentials are not read again. Order of checks, all before git runs: a token in the query → 400 `token_in_url`; a `.`/`..`
 * segment (also `%2e%2e`) or an encoded `/` → 400 `invalid_input`; a name that is not a
 * repository name (leading `-`) → 400 `invalid_repo_name`; no credentials → 401
 * `token_required` with `WWW-Authenticate: Basic realm="lore"` (so git asks); malformed
 * ones → 401 `token_invalid`; then the token (401 `token_invalid`/`token_expired`) and the
 * rights: fetch needs `repo:read`, push `repo:write` (403 `forbidden`), a repository the
 * caller cannot read is 404 `repo_not_found` exactly as a missing one. All git processes
 * busy and the queue full → 503 `server_busy`.
 *
 * Refusals are `text/plain` for a git client (git prints them as `remote:` lines) and
 * `{"error": {"code", "message"}}` for others, in the language of `Accept-Language` (en, ru).
 */
export function gitHttpRoutes(deps: GitHttpDeps): Hono<Bindings> {
  const app = new Hono<Bindings>();
  const handler = (c: Context<Bindings>) => serveGit(c, deps);
  app.all("/:owner/:repo{[^/]+\\.git}", handler);
  app.all("/:owner/:repo{[^/]+\\.git}/*", handler);
  return app;
}

async function serveGit(c: Context<Bindings>, deps: GitHttpDeps): Promise<Response> {
  const url = new URL(c.req.url);
  // The target as sent: the URL object has already resolved `..` and `%2e%2e` segments.
  const raw = c.env?.incoming?.url ?? `${url.pathname}${url.search}`;
  const q = raw.indexOf("?");
  const rawPath = q < 0 ? raw : raw.slice(0, q);
  const query = new URLSearchParams(q < 0 ? "" : raw.slice(q + 1));
  const say = (error: unknown) => refusal(c, error, deps);

  if (queryHoldsToken(query, TOKEN_PREFIX)) return say(new LoreError("token_in_url"));
  const parsed = parseGitHttpPath(c.req.method, rawPath, query.get("service") ?? undefined);
  if (!parsed.ok) return say(pathError(parsed.refusal, c.req.method, rawPath));
  const { target } = parsed;

  // Mounted behind the server's auth middleware, the token was checked already.
  const outer = c.get("principal");
  const credential = readGitCredential(c.req.header("authorization"));
  if (outer === undefined && credential.kind === "none") {
    return say(new LoreError("token_required"));
  }
  if (outer === undefined && credential.kind === "malformed") {
    return say(new LoreError("token_invalid", {}, { data: { reason: credential.reason } }));
  }
  let principal: Principal;
  let repo: RepoRecord;
  try {
    principal =
      outer ??
      (await (deps.authenticate ?? ((secret) => authenticateToken(deps.store, secret, Date.now())))(
        credential.kind === "token" ? credential.secret : "",
      ));
    const need = needOf(target.service);
    repo = await (deps.authorize?.(principal, target.fullName, need) ??
      authorizeRepo(deps.store, principal, target.fullName, need));
  } catch (error) {
    return say(error);
  }
  const encoding = c.req.header("content-encoding")?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== "gzip" && encoding !== "x-gzip" && encoding !== "") {
    return say(
      new LoreError("invalid_input", {
        reason: `Content-Encoding ${encoding.slice(0, 40)} is not supported (gzip is)`,
      }),
    );
  }
  return runBackend(c, deps, target, repo, principal);
}

async function runBackend(
  c: Context<Bindings>,
  deps: GitHttpDeps,
  target: GitHttpTarget,
  repo: RepoRecord,
  principal: Principal,
): Promise<Response> {
  const incoming = c.env?.incoming;
  const outgoing = c.env?.outgoing;
  const gone = new AbortController();
  outgoing?.once("close", () => gone.abort());
  const cgi = cgiVariables(c, deps.dataDir, target, repo, principal);
  let git: Awaited<ReturnType<GitServices["start"]>>;
  try {
    const said = c.req.header("accept-language");
    git = await deps.git.start(
      {
        kind: "http-backend",
        cgi,
        pusher: principal.user,
        ...(said === undefined ? {} : { lang: pickAcceptLanguage(said) }),
      },
      gone.signal,
    );
  } catch (error) {
    return refusal(c, error, deps);
  }
  // A client that goes away mid-answer stops git (and what it started).
  outgoing?.once("close", () => {
    if (!outgoing.writableFinished) git.kill();
  });
  // A request body cut off (the client went away mid-push) leaves git waiting for the rest.
  incoming?.once("close", () => {
    if (!incoming.complete) git.kill();
  });
  const body: Readable | undefined =
    target.endpoint !== "rpc"
      ? undefined
      : (incoming ??
        (c.req.raw.body === null
          ? undefined
          : // biome-ignore lint/suspicious/noExplicitAny: the DOM and Node web-stream types differ only nominally
            Readable.fromWeb(c.req.raw.body as any)));
  if (body === undefined) git.stdin.end();
  else {
    body.on("error", () => git.kill());
    body.pipe(git.stdin);
    // Once git has answered in full, the rest of the body is of no use to it: end its input,
    // so it does not wait for bytes that a client may never send.
    git.stdout.once("end", () => {
      body.unpipe(git.stdin);
      git.stdin.end();
    });
  }
  logStderr(git.stderr, deps, repo.fullName);
  try {
    const head = await readCgiHead(git.stdout);
    const headers = new Headers();
    for (const [name, value] of head.headers) headers.append(name, value);
    return new Response(
      toWebStream(
        git.stdout,
        () => git.kill(),
        // Killed (the time limit) after the status went out: the answer must not end like a
        // complete one. The connection is cut without the last chunk, so the git client
        // fails loudly (`early EOF`, non-zero exit) instead of taking a cut pack as whole.
        () =>
          git.done.then(async (end) => {
            const clean = !end.timedOut && end.signal === null;
            if (clean && end.code === 0 && target.service === "git-receive-pack") {
              await indexAfterPush(deps, repo);
            }
            if (!clean) {
              const why = end.timedOut
                ? "ran past the server's time limit and was stopped"
                : `was killed (${end.signal ?? "no exit status"})`;
              deps.log?.(
                `git http-backend ${repo.fullName}: ${target.service} ${why} mid-answer; the connection was cut so the client fails`,
              );
              if (outgoing !== undefined) {
                outgoing.destroy();
                return "cut" as const;
              }
            }
            return clean;
          }),
      ),
      { status: head.status, headers },
    );
  } catch (error) {
    git.kill();
    return refusal(
      c,
      new LoreError("git_failed", { reason: `git http-backend: ${String(error)}` }),
      deps,
    );
  }
}

/** The CGI environment of one request, from checked values only (RFC 3875 §4.1). */
function cgiVariables(
  c: Context<Bindings>,
  dataDir: string,
  target: GitHttpTarget,
  repo: RepoRecord,
  principal: Principal,
): Record<string, string> {
  // The store's spelling of the name, so the path is the one bareRepoPath gives.
  const tail = target.endpoint === "info/refs" ? "info/refs" : target.service;
  const env: Record<string, string> = {
    GATEWAY_INTERFACE: "CGI/1.1",
    GIT_PROJECT_ROOT: join(dataDir, "repos"),
    GIT_HTTP_EXPORT_ALL: "1",
    PATH_INFO: `/${repo.owner}/${repo.name}.git/${tail}`,
    QUERY_STRING: target.endpoint === "info/refs" ? `service=${target.service}` : "",
    REQUEST_METHOD: c.req.method,
    REMOTE_USER: principal.user,
    REMOTE_ADDR: c.env?.incoming?.socket.remoteAddress ?? "127.0.0.1",
  };
  const contentType = c.req.header("content-type");
  if (contentType !== undefined && /^[\x20-\x7e]{1,200}$/.test(contentType)) {
    env.CONTENT_TYPE = contentType;
  }
  // Never CONTENT_LENGTH: Node's HTTP parser already frames the body (Content-Length or
  // chunked), and http-backend then reads to the end of its input. With CONTENT_LENGTH set,
  // git http-backend (2.39) copies a push body with a loop that treats end of input as
  // "0 bytes read" and spins forever at full CPU when the input ends early — as when
  // `lore serve` is killed mid-push and the orphaned process's stdin closes.
  const encoding = c.req.header("content-encoding")?.trim().toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") env.HTTP_CONTENT_ENCODING = encoding;
  const protocol = c.req.header("git-protocol");
  if (protocol !== undefined && /^[A-Za-z0-9=:,._-]{1,200}$/.test(protocol)) {
    env.GIT_PROTOCOL = protocol;
    env.HTTP_GIT_PROTOCOL = protocol;
  }
  return env;
}

/** Sends git's stderr to the log, a line at a time, at most 40 lines per request. */
function logStderr(stderr: Readable, deps: GitHttpDeps, repo: string): void {
  let lines = 0;
  let pending = "";
  stderr.setEncoding("utf8");
  stderr.on("data", (text: string) => {
    if (deps.log === undefined) return;
    pending += text;
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    for (const line of parts) {
      lines += 1;
      if (lines <= 40 && line.trim() !== "") deps.log(`git http-backend ${repo}: ${line}`);
    }
  });
}

function pathError(refusal: GitPathRefusal, method: string, rawPath: string): LoreError {
  switch (refusal.kind) {
    case "dot_segment":
      return new LoreError("invalid_input", {
        reason: "a git URL holds no “.” or “..” segment and no encoded “/” or “\\”",
        reason_ru: "в адресе git не бывает сегментов «.» и «..» и закодированных «/» и «\\»",
      });
    case "control_character":
      return new LoreError("invalid_input", {
        reason: `a git URL holds no NUL or other control character; the path has ${refusal.character}${refusal.character === "U+0000" ? " (NUL)" : ""}`,
        reason_ru: `в адресе git не бывает NUL и других управляющих символов; в пути есть ${refusal.character}${refusal.character === "U+0000" ? " (NUL)" : ""}`,
      });
    case "bad_encoding":
      return new LoreError("invalid_input", {
        reason: `the git URL's percent-encoding does not decode: ${JSON.stringify(refusal.segment.slice(0, 120))}`,
        reason_ru: `процентная кодировка адреса git не раскодируется: ${JSON.stringify(refusal.segment.slice(0, 120))}`,
      });
    case "invalid_repo_name":
      return new LoreError("invalid_repo_name", {
        name: refusal.name.slice(0, 120),
        reason: refusal.reason.en,
        reason_ru: refusal.reason.ru,
      });
    case "not_git_route":
      return new LoreError("route_not_found", { method, path: rawPath.slice(0, 200) });
  }
}

/** One refusal: status by kind, text for git clients, the JSON error shape for others. */
function refusal(c: Context<Bindings>, error: unknown, deps: GitHttpDeps): Response {
  const lore = isLoreError(error)
    ? error
    : new LoreError("internal", { reason: "the git request failed" }, { cause: error });
  if (!isLoreError(error)) deps.log?.(`git http: ${String(error)}`);
  const lang = pickAcceptLanguage(c.req.header("accept-language"));
  const message = lang === "ru" ? lore.text.ru : lore.text.en;
  const headers = new Headers({ "Cache-Control": "no-cache" });
  if (lore.kind === "unauthenticated") headers.set("WWW-Authenticate", 'Basic realm="lore"');
  if (lore.code === "server_busy") headers.set("Retry-After", "5");
  const status = STATUS_OF_KIND[lore.kind];
  if ((c.req.header("user-agent") ?? "").startsWith("git/")) {
    headers.set("Content-Type", "text/plain; charset=utf-8");
    return new Response(`${message} [${lore.code}]\n`, { status, headers });
  }
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify({ error: { code: lore.code, message } }), { status, headers });
}
