/**
 * How a git client passes its Lore token over smart HTTP: HTTP Basic with the token as the
 * password (the user name is ignored; git's credential helpers and prompts send this), or
 * `Authorization: Bearer <token>` (`git -c http.extraHeader=…`). Never in the URL.
 */

/** What the `Authorization` header holds. */
export type GitCredential =
  | { kind: "none" }
  | { kind: "token"; secret: string }
  | { kind: "malformed"; reason: string };

/**
 * Reads the token from an `Authorization` header.
 *
 * @param header - the header's value, or undefined.
 * @returns `none` when there is no header (or Basic with an empty password, which is what
 *   git sends before it asks), `token` with the secret, or `malformed` (not base64, no `:`,
 *   another scheme, control characters) — the caller answers 401 `token_invalid`.
 */
export function readGitCredential(header: string | undefined): GitCredential {
  if (header === undefined || header.trim() === "") return { kind: "none" };
  const match = /^(\S+) +(\S+)\s*$/.exec(header.trim());
  if (match === null) return { kind: "malformed", reason: "not “<scheme> <value>”" };
  const scheme = (match[1] ?? "").toLowerCase();
  const value = match[2] ?? "";
  if (scheme === "bearer") return checkSecret(value);
  if (scheme !== "basic")
    return { kind: "malformed", reason: `scheme ${scheme} is not Basic or Bearer` };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) {
    return { kind: "malformed", reason: "Basic credentials are not base64" };
  }
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return { kind: "malformed", reason: "Basic credentials hold no “:”" };
  const password = decoded.slice(colon + 1);
  if (password === "") return { kind: "none" };
  return checkSecret(password);
}

function checkSecret(secret: string): GitCredential {
  // A token is printable ASCII; anything else (U+FFFD from bad UTF-8, controls) is not one.
  if (!/^[\x21-\x7e]{1,512}$/.test(secret)) {
    return { kind: "malformed", reason: "the token holds characters a token never has" };
  }
  return { kind: "token", secret };
}

/** Query parameter names that carry a token on other servers; refused here. */
const TOKEN_PARAMS = new Set([
  "token",
  "access_token",
  "private_token",
  "api_key",
  "apikey",
  "password",
  "auth",
]);

/**
 * Tells whether a request's query carries a token (a parameter named like one, or a value
 * that starts with a Lore token's prefix). URLs end up in logs and shell histories, so such
 * a request is refused with 400 `token_in_url` before anything else.
 *
 * @param query - the parsed query of the request.
 * @param tokenPrefix - how Lore tokens begin (e.g. `lore_`).
 */
export function queryHoldsToken(query: URLSearchParams, tokenPrefix: string): boolean {
  for (const [name, value] of query) {
    if (TOKEN_PARAMS.has(name.toLowerCase())) return true;
    if (tokenPrefix !== "" && value.startsWith(tokenPrefix)) return true;
  }
  return false;
}
