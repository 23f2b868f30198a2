/**
 * A client of a Lore team server's REST API (`[server] url`, the token of `auth.toml`
 * `[server] token`): what `lore mcp` (drafts), `lore draft`, `lore deliver` and `lore mr`
 * call when a team server is configured. A refusal of the server comes back as the same
 * LoreError (its code, its message in the asked language, its data); a server that does not
 * answer is `server_unreachable`.
 */

import type { Lang } from "../../core/errors/localized-text.js";
import { ERROR_CODES, type ErrorCode, LoreError } from "../../core/errors/lore-error.js";

/** Options of {@link TeamClient}. */
export interface TeamClientOptions {
  /** The server's base address, e.g. `http://127.0.0.1:7377` (no trailing slash). */
  url: string;
  /** A Lore token (`lore_…`). */
  token: string;
  /** The language asked for in `Accept-Language`. Default `en`. */
  lang?: Lang;
  /** How long one request may take, ms. Default 30,000. */
  timeoutMs?: number;
  /** The fetch to use. Default: the global one. */
  fetch?: typeof fetch;
}

/** A team server, over HTTP. */
export class TeamClient {
  readonly url: string;
  readonly #token: string;
  readonly #lang: Lang;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: TeamClientOptions) {
    this.url = options.url.replace(/\/+$/, "");
    this.#token = options.token;
    this.#lang = options.lang ?? "en";
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#fetch = options.fetch ?? fetch;
  }

  /**
   * Sends one request and reads its JSON answer.
   *
   * @param method - `GET`, `POST`, `PUT`, `DELETE`.
   * @param path - from `/api/v1/…`; query included.
   * @param body - sent as JSON when given.
   * @returns the parsed answer (`undefined` for a 204).
   * @throws LoreError the server's refusal (its code); `server_unreachable` when it does
   *   not answer (refused connection, time-out, an answer that is not Lore's).
   */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await this.#fetch(`${this.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.#token}`,
          "accept-language": this.#lang,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw this.#unreachable(reasonOf(error), error);
    }
    const text = await response.text().catch(() => "");
    if (response.status === 204) return undefined as T;
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch (error) {
      throw this.#unreachable(`HTTP ${response.status}, not a JSON answer`, error);
    }
    if (response.ok) return parsed as T;
    throw this.#refusal(response.status, parsed);
  }

  #unreachable(reason: string, cause: unknown): LoreError {
    return new LoreError("server_unreachable", { url: this.url, reason }, { cause });
  }

  /** The server's `{"error": {code, message, data?}}` as a LoreError of the same code. */
  #refusal(status: number, body: unknown): LoreError {
    const error = (body as { error?: { code?: unknown; message?: unknown; data?: unknown } })
      ?.error;
    const code = typeof error?.code === "string" ? error.code : undefined;
    const message = typeof error?.message === "string" ? error.message : undefined;
    if (code === undefined || message === undefined) {
      return this.#unreachable(`HTTP ${status}, not a Lore answer`, undefined);
    }
    const known = code in ERROR_CODES ? (code as ErrorCode) : "internal";
    const data =
      typeof error?.data === "object" && error.data !== null
        ? (error.data as Record<string, unknown>)
        : {};
    return new LoreError(known, {}, { text: { en: message, ru: message }, data });
  }
}

/** Why a fetch did not get an answer, in a few words. */
function reasonOf(error: unknown): string {
  if (error instanceof DOMException && error.name === "TimeoutError") return "no answer in time";
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === "string") return cause.code;
  return error instanceof Error ? error.message : String(error);
}
