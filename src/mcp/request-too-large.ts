import type { Lang } from "../core/errors/localized-text.js";
import { LoreError } from "../core/errors/lore-error.js";

/**
 * The largest MCP message Lore reads, in bytes of UTF-8 (4 MiB): one line of `lore mcp`
 * (without its newline) and one request body of `lore serve`. It is the MCP SDK's default
 * for HTTP bodies; the largest request a tool takes — a 1 MiB `knowledge_write_file`,
 * even with every byte escaped by JSON — fits under it.
 */
export const MAX_MCP_MESSAGE_BYTES = 4 * 1024 * 1024;

/** The JSON-RPC error code of the refusal: implementation-defined server error, as the SDK's 413. */
export const REQUEST_TOO_LARGE_RPC_CODE = -32000;

/**
 * The refusal of a message over {@link MAX_MCP_MESSAGE_BYTES}: `request_too_large`.
 *
 * @param limit - the limit in bytes.
 * @param size - the message's size in bytes when it was read to its end; `undefined` when
 *   reading stopped at the limit (an HTTP body is not read further), then the message
 *   says "more than limit bytes".
 * @param of - what was too large: an MCP message (default) or a REST API request body.
 */
export function requestTooLarge(
  limit: number,
  size?: number,
  of: "mcp" | "api" = "mcp",
): LoreError {
  const known = size !== undefined;
  return new LoreError(
    "request_too_large",
    {
      limit,
      what: of === "mcp" ? "MCP message" : "REST API request body",
      what_ru: of === "mcp" ? "одного сообщения MCP" : "одного тела запроса REST API",
      size: known ? `${size} bytes` : `more than ${limit} bytes`,
      size_ru: known ? `${size} байт` : `больше ${limit} байт`,
    },
    { data: known ? { limit, size } : { limit } },
  );
}

/** A JSON-RPC 2.0 error response whose `id` may be null (JSON-RPC 2.0 §5: not detected). */
export interface RequestTooLargeResponse {
  jsonrpc: "2.0";
  id: string | number | null;
  error: {
    code: number;
    message: string;
    /** Lore's refusal shape, as in a tool's `{"error": {…}}` text. */
    data: { error: { code: string; message: string; next: string; data: Record<string, unknown> } };
  };
}

/**
 * The JSON-RPC error answering a message too large to read: code
 * {@link REQUEST_TOO_LARGE_RPC_CODE}, the message in `lang`, and in `data.error` Lore's
 * refusal shape `{code: "request_too_large", message, next, data: {limit, size?}}`.
 *
 * @param refusal - from {@link requestTooLarge}.
 * @param id - the request's id when it could be read, else null.
 * @param lang - the language of the message.
 */
export function requestTooLargeResponse(
  refusal: LoreError,
  id: string | number | null,
  lang: Lang,
): RequestTooLargeResponse {
  const message = refusal.text[lang];
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: REQUEST_TOO_LARGE_RPC_CODE,
      message,
      data: {
        error: {
          code: refusal.code,
          message,
          next: "Send less in one request: shorter arguments, or a large file as a replace and then appends.",
          data: refusal.data,
        },
      },
    },
  };
}
