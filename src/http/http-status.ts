/**
 * How Lore's refusals look over HTTP: one status per error kind and the JSON shape
 * `{"error": {"code", "message"}}` (the team server's one error hook, seed 004 "Интерфейс").
 */

import { clientData } from "../core/errors/client-data.js";
import type { Lang } from "../core/errors/localized-text.js";
import type { ErrorKind, LoreError } from "../core/errors/lore-error.js";

/** The HTTP status of each error kind. */
export const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unavailable: 503,
  internal: 500,
  rate_limited: 429,
  license_required: 402,
};

/**
 * The status of one refusal: by its kind ({@link STATUS_OF_KIND}), except
 * `request_too_large`, which is 413 (RFC 9110 §15.5.14) though its kind is `invalid_input`.
 *
 * @param error - the refusal.
 */
export function statusOf(error: LoreError): number {
  if (error.code === "request_too_large") return 413;
  return STATUS_OF_KIND[error.kind];
}

/** The JSON body of a refusal. */
export interface ErrorBody {
  /** `data`: the refusal's structured details when it has any (e.g. `diagnostics` of a refused entry). */
  error: { code: string; message: string; data?: Record<string, unknown> };
}

/**
 * The body of a refusal: its machine code, its message in `lang` and, when it has any, its
 * structured details (none for a fault of the server: `clientData`).
 *
 * @param error - the refusal.
 * @param lang - the language of the message (from `Accept-Language`).
 */
export function errorBody(error: LoreError, lang: Lang): ErrorBody {
  const shown = clientData(error);
  const data = shown === undefined ? {} : { data: shown };
  return { error: { code: error.code, message: error.text[lang], ...data } };
}
