import type { ErrorCode } from "../../core/lore-error.js";

/**
 * A zod `error` option whose message starts with a Lore machine code, so that an argument
 * the SDK refuses against the input schema (before a handler runs, as an `isError` result)
 * still carries the code: `[invalid_limit] `limit` must be …`.
 *
 * @param code - the machine code.
 * @param text - what the argument must be, for the model.
 */
export function coded(code: ErrorCode, text: string): { error: string } {
  return { error: `[${code}] ${text}` };
}
