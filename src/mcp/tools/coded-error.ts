import type { ErrorCode } from "../../core/errors/lore-error.js";

/**
 * A zod `error` option whose message starts with a Lore machine code,
 * `[invalid_limit] `limit` must be …`: when the input schema refuses an argument (before a
 * handler runs), `installStrictToolCalls` answers with that code and text in the
 * documented `{"error": {"code", "message", "next"}}` shape (the Russian text is made from
 * the schema issue).
 *
 * @param code - the machine code.
 * @param text - what the argument must be, for the model.
 */
export function coded(code: ErrorCode, text: string): { error: string } {
  return { error: `[${code}] ${text}` };
}
