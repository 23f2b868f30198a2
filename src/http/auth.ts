/**
 * The auth middleware of the team server (seed 004 "Интерфейс": «Токен нужен всегда, в том
 * числе на публичном репозитории»): every route but `GET /healthz` needs a token, sent as
 * `Authorization: Bearer <token>`, or — for git clients — as the password of HTTP Basic
 * (any user name). A token in the URL is refused (URLs end up in logs).
 */
import type { MiddlewareHandler } from "hono";
import { LoreError } from "../core/errors/lore-error.js";
import { TOKEN_PREFIX } from "../services/access/tokens.js";
import { queryHoldsToken } from "./git/git-credentials.js";
import type { HttpEnv, ServerApi } from "./server-api.js";

/**
 * The token secret of an `Authorization` header.
 *
 * @param header - the header's value.
 * @returns the secret, or `undefined` when there is no header.
 * @throws LoreError `token_required` for a scheme other than Bearer or Basic, or an empty
 *   Bearer; `invalid_input` for Basic credentials that are not base64 of `user:password`;
 *   `token_required` for Basic with an empty password.
 */
export function tokenOf(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  const match = /^\s*(\S+)\s*(.*)$/.exec(header);
  const scheme = match?.[1]?.toLowerCase();
  const rest = (match?.[2] ?? "").trim();
  if (scheme === "bearer") {
    if (rest === "") throw new LoreError("token_required");
    return rest;
  }
  if (scheme === "basic") {
    const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(rest)
      ? Buffer.from(rest, "base64").toString("utf8")
      : undefined;
    const colon = decoded?.indexOf(":") ?? -1;
    if (decoded === undefined || colon < 0) {
      throw new LoreError("invalid_input", {
        reason: "the Basic credentials are not base64 of user:password",
        reason_ru: "данные Basic — не base64 от пользователь:пароль",
      });
    }
    const password = decoded.slice(colon + 1);
    if (password === "") throw new LoreError("token_required");
    return password;
  }
  throw new LoreError("token_required");
}

/**
 * The middleware: refuses a token in the URL (`?token=`, `?access_token=`, `?private_token=`
 * …, or any value that starts like a Lore token: 400 `token_in_url`, before anything else), no token (401 `token_required`), an unknown or
 * revoked one (401 `token_invalid`), an expired one (401 `token_expired`); sets the
 * `principal` variable otherwise. `GET`/`HEAD /healthz` pass without a token.
 *
 * @param api - authenticates secrets (`ServerApi.authenticate`).
 */
export function requireToken(api: Pick<ServerApi, "authenticate">): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    if (queryHoldsToken(new URL(c.req.url).searchParams, TOKEN_PREFIX)) {
      throw new LoreError("token_in_url");
    }
    if (c.req.path === "/healthz" && (c.req.method === "GET" || c.req.method === "HEAD")) {
      await next();
      return;
    }
    const secret = tokenOf(c.req.header("authorization"));
    if (secret === undefined) throw new LoreError("token_required");
    c.set("principal", await api.authenticate(secret));
    await next();
  };
}
