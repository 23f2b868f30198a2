import { LoreError } from "../../core/errors/lore-error.js";

/** What a failed Gitea call was about, for the error's message. */
export interface GiteaCallContext {
  /** Repository name, when the call is about one. */
  repo?: string;
  /** File path, when the call is about one. */
  path?: string;
  /** Branch written to, when the call writes one (a 403 about protection names it). */
  branch?: string;
}

/**
 * Gitea's refusals of a write into a protected branch or path (services/repository/files:
 * `ErrUserCannotCommit` "user cannot commit to repo [user: …]", `ErrFilePathProtected`
 * "path is protected and can not be changed [path: …]"), answered with 403.
 */
const PROTECTED_MESSAGE = /cannot commit to repo|is protected|protected branch/i;

/**
 * Maps a failed Gitea answer to a LoreError — the one place where an HTTP status becomes
 * an error kind (STYLE.md, forge client row; hono `http-exception.ts`):
 * 403 whose message says the branch or path is protected → `branch_protected` (Gitea's own
 * branch protection refused the write; seed 004: «в ветку, куда отправка запрещена, пачка не
 * ляжет»); other 401/403 → `forge_unauthorized`; 404 → `forge_not_found`; 409 → `forge_conflict`;
 * 422 about a sha or an existing file → `forge_conflict`, other 422 → `invalid_input`;
 * 408/429/5xx → `forge_unavailable`; anything else → `forge_failed`.
 *
 * @param status - the HTTP status.
 * @param message - the API's `message` (or the body's start).
 * @param context - repository and path, for the message.
 * @returns the error (status and message in `data`).
 */
export function giteaStatusError(
  status: number,
  message: string,
  context: GiteaCallContext = {},
): LoreError {
  const data = { status, message, ...context };
  const repo = context.repo ?? "?";
  const path = context.path ?? "?";
  if (status === 403 && PROTECTED_MESSAGE.test(message))
    return new LoreError(
      "branch_protected",
      {
        branch: context.branch ?? "?",
        reason: `Gitea refused the write: ${message}`,
        reason_ru: `Gitea отказал в записи: ${message}`,
      },
      { data: { ...data, branch: context.branch ?? null } },
    );
  if (status === 401 || status === 403)
    return new LoreError("forge_unauthorized", { status }, { data });
  if (status === 404) return new LoreError("forge_not_found", { repo }, { data });
  if (status === 409 || (status === 422 && /sha|already exists/i.test(message)))
    return new LoreError(
      "forge_conflict",
      { repo, path, reason: message || `HTTP ${status}` },
      { data },
    );
  if (status === 422)
    return new LoreError(
      "invalid_input",
      { reason: `the forge refused the request: ${message}` },
      { data },
    );
  if (status === 408 || status === 429 || status >= 500)
    return new LoreError(
      "forge_unavailable",
      { reason: `HTTP ${status} ${message}`.trim() },
      { data },
    );
  return new LoreError(
    "forge_failed",
    { status, reason: message || "unexpected answer" },
    { data },
  );
}

/**
 * Maps a request that got no answer (network error, timeout, abort) to `forge_unavailable`.
 *
 * @param error - what `fetch` threw.
 * @param url - the address called (without the token).
 */
export function giteaNetworkError(error: unknown, url: string): LoreError {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new LoreError("forge_unavailable", { reason: `${url}: ${reason}` }, { cause: error });
}
