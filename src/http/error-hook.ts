/**
 * The one error hook of the team server's HTTP application (seed 004 "Интерфейс"; the
 * README's status table): every refusal becomes its status and `{"error": {"code",
 * "message"}}`, the message in the language of `Accept-Language`.
 */
import type { Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { Lang } from "../core/errors/localized-text.js";
import { fromSqliteError, isLoreError, LoreError } from "../core/errors/lore-error.js";
import { pickAcceptLanguage } from "./accept-language.js";
import { errorBody, statusOf } from "./http-status.js";
import type { HttpEnv } from "./server-api.js";

/** The challenge of a 401 on the API and `/mcp`. */
export const BEARER_CHALLENGE = 'Bearer realm="lore"';
/** The challenge of a 401 on a git path (git clients ask for a user and a password). */
export const BASIC_CHALLENGE = 'Basic realm="lore"';

/** Whether a path is a git smart-HTTP path (`/{owner}/{name}.git/…`), answered with Basic. */
export function isGitPath(path: string): boolean {
  return /^\/[^/]+\/[^/]+\.git(?:\/|$)/.test(path);
}

/** The answer's language: `Accept-Language` of the request (en, ru; q-values; default en). */
export function langOf(c: Context): Lang {
  return pickAcceptLanguage(c.req.header("accept-language"));
}

/**
 * The `Retry-After` of a 429 (RFC 9110 §10.2.3, delay-seconds): `data.retry_after` of the
 * refusal rounded up to a whole second, at least 1; `undefined` when the refusal has none.
 *
 * @param error - a `rate_limited` refusal.
 */
export function retryAfterOf(error: LoreError): string | undefined {
  const seconds = error.data.retry_after;
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return undefined;
  return String(Math.max(1, Math.ceil(seconds)));
}

/**
 * The response of a refusal: its status ({@link statusOf}), the JSON body in the request's
 * language (on a git path to the git client, the message and code as one `text/plain`
 * line, which git shows its user as `remote: …`), for a 401 the `WWW-Authenticate` challenge (Basic on git paths, Bearer
 * elsewhere), for a 429 `Retry-After` seconds ({@link retryAfterOf}).
 *
 * @param c - the request's context.
 * @param error - the refusal.
 */
export function refusal(c: Context, error: LoreError): Response {
  const status = statusOf(error);
  const gitPath = isGitPath(c.req.path);
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (status === 401) headers["www-authenticate"] = gitPath ? BASIC_CHALLENGE : BEARER_CHALLENGE;
  const retryAfter = status === 429 ? retryAfterOf(error) : undefined;
  if (retryAfter !== undefined) headers["retry-after"] = retryAfter;
  const body = errorBody(error, langOf(c));
  if (gitPath && isGitClient(c)) {
    // git prints a text/plain refusal's lines as `remote:` lines; JSON it would drop.
    headers["content-type"] = "text/plain; charset=utf-8";
    return new Response(`${body.error.message} [${body.error.code}]\n`, { status, headers });
  }
  return new Response(JSON.stringify(body), { status, headers });
}

/** Whether the request comes from the git client (its `User-Agent` is `git/<version>`). */
export function isGitClient(c: Context): boolean {
  return (c.req.header("user-agent") ?? "").startsWith("git/");
}

/**
 * Installs the error hook (`app.onError`) and the answer for unknown paths (`app.notFound`:
 * 404 `route_not_found`). A LoreError (or a SQLite error, as `index_failed`) keeps its code;
 * anything else thrown is 500 `internal`, logged whole, its text never sent.
 *
 * @param app - the application.
 * @param log - writes a line to the server's log (stderr).
 */
export function installErrorHook(app: Hono<HttpEnv>, log: (line: string) => void): void {
  app.onError((error, c) => {
    const known = fromSqliteError(error) ?? (isLoreError(error) ? error : badRequest(error));
    if (known !== undefined) {
      if (known.kind === "internal") log(`lore: ${c.req.method} ${c.req.path}: ${known.message}`);
      return refusal(c, known);
    }
    log(`lore: ${c.req.method} ${c.req.path} failed: ${describe(error)}`);
    return refusal(
      c,
      new LoreError(
        "internal",
        {},
        {
          text: {
            en: "internal error: the server failed; see its log",
            ru: "внутренняя ошибка: сбой сервера; см. его журнал",
          },
        },
      ),
    );
  });
  app.notFound((c) =>
    refusal(c, new LoreError("route_not_found", { method: c.req.method, path: c.req.path })),
  );
}

/**
 * Hono's own refusals of a request body (malformed JSON: 400; a body that is not JSON:
 * 415) as `invalid_input`; `undefined` for anything else.
 */
function badRequest(error: unknown): LoreError | undefined {
  if (!(error instanceof HTTPException) || (error.status !== 400 && error.status !== 415)) {
    return undefined;
  }
  const reason =
    error.status === 415
      ? "send the body as JSON with Content-Type: application/json"
      : `the body is not JSON (${error.message})`;
  const reasonRu =
    error.status === 415
      ? "отправьте тело как JSON с Content-Type: application/json"
      : `тело — не JSON (${error.message})`;
  return new LoreError("invalid_input", { reason, reason_ru: reasonRu });
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
