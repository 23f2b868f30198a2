/**
 * What to say when the server database on PostgreSQL fails (`[server] database`; scale-out,
 * several `lore serve` over one PostgreSQL). A database that cannot be reached (refused,
 * unknown host, wrong password, no such database, shutting down, too many connections) is
 * `database_unavailable` (503) with the engine's reason: the server's records are fine,
 * only the way to them is not. Anything else the engine refuses is `index_failed`, as on
 * SQLite (`server-db-error.ts`), with the SQLSTATE in `data.pg`.
 */
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";

/** Node's socket errors that mean "no way to the server". */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOENT", // a unix socket that is not there: the server is not running
  "EPIPE",
]);

/**
 * SQLSTATE classes and codes that mean the database cannot be used right now: 08
 * (connection exception), 28 (invalid authorization), 3D000 (no such database), 53300 (too
 * many connections), 57P01–57P03 (shutting down, cannot connect now).
 */
function isUnavailableState(code: string): boolean {
  return (
    code.startsWith("08") ||
    code.startsWith("28") ||
    code === "3D000" ||
    code === "53300" ||
    code === "57P01" ||
    code === "57P02" ||
    code === "57P03"
  );
}

/** pg-pool's message when no connection of a busy pool came free in time (`POOL_WAIT_MS`). */
const POOL_WAIT_MESSAGE = "timeout exceeded when trying to connect";

/** pg's own messages for a connection that went away or never came (they carry no code). */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|connection timeout|Client has encountered a connection error|Cannot use a pool after calling end/i;

/**
 * Takes a secret out of a message: the password of the URL, wherever the engine echoed it.
 *
 * @param text - a message.
 * @param secret - the password, or undefined/empty when the URL has none.
 */
function scrub(text: string, secret: string | undefined): string {
  return secret === undefined || secret === "" ? text : text.split(secret).join("***");
}

/**
 * Turns an error met on the PostgreSQL server database into a LoreError.
 *
 * @param error - anything caught from `pg`.
 * @param password - the URL's password (never shown: scrubbed from the reason).
 * @returns LoreError `database_unavailable` ({reason, reason_ru}; `data.pg` the SQLSTATE or
 *   socket code, `pool_wait` when every connection of the pool stayed in use for the
 *   pool's whole wait) for a database that cannot be reached or used now; `index_failed` for any
 *   other error of the engine (`data.pg`, `data.detail`); a LoreError is returned as it is.
 */
export function pgServerDbError(error: unknown, password?: string): LoreError {
  if (isLoreError(error)) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const message = scrub(error instanceof Error ? error.message : String(error), password);
  const detail = message === "" ? code : message;
  if (message === POOL_WAIT_MESSAGE) {
    return new LoreError(
      "database_unavailable",
      {
        reason: "no connection of the pool came free in time (the database is overloaded)",
        reason_ru: "ни одно соединение пула не освободилось вовремя (база перегружена)",
      },
      { data: { pg: "pool_wait" } },
    );
  }
  if (NETWORK_CODES.has(code) || isUnavailableState(code) || UNAVAILABLE_MESSAGE.test(message)) {
    return new LoreError(
      "database_unavailable",
      { reason: detail, reason_ru: detail },
      { data: { pg: code } },
    );
  }
  return new LoreError(
    "index_failed",
    {
      reason: `the server database failed (${code === "" ? "PostgreSQL" : code}): ${detail}`,
      reason_ru: `ошибка базы сервера (${code === "" ? "PostgreSQL" : code}): ${detail}`,
    },
    { data: { pg: code, detail } },
  );
}

/**
 * A PostgreSQL URL fit to print: the password replaced by `***`, whether in the user part
 * or as a `password=` query parameter (libpq reads both).
 *
 * @param url - `postgres://user:secret@host/db?…`.
 */
export function redactDatabaseUrl(url: string): string {
  return url
    .replace(/^(postgres(?:ql)?:\/\/[^:@/?]*):[^@/?]*@/i, "$1:***@")
    .replace(/([?&]password=)[^&#]*/gi, "$1***");
}

/**
 * The password of a PostgreSQL URL (percent-decoded), or undefined.
 *
 * @param url - `postgres://user:secret@host/db?…`; `?password=` counts too.
 */
export function passwordOf(url: string): string | undefined {
  const inline = /^postgres(?:ql)?:\/\/[^:@/?]*:([^@/?]*)@/i.exec(url)?.[1];
  const query = /[?&]password=([^&#]*)/i.exec(url)?.[1];
  const raw = inline ?? query;
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
