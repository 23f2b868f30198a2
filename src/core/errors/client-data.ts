/**
 * What of a refusal's structured details (`LoreError.data`) a client is shown, over HTTP
 * (`{"error": {"code", "message", "data"?}}`) and MCP (seed 004 "Интерфейс": one error
 * shape). Pure.
 */
import type { LoreError } from "./lore-error.js";

/**
 * Details of a server fault a client may still see: the database engine's error code
 * (`SQLITE_CORRUPT`, `SQLITE_BUSY`), which says what failed without any of the server's
 * paths or arguments.
 */
const FAULT_KEYS_SHOWN = ["sqlite"] as const;

/**
 * The details a client may see: a refusal's `data` as it is (a refused entry's
 * diagnostics, a limit, `retry_after`), except for a fault of the server (kind
 * `internal`: `git_failed`, `index_failed` …), whose `data` holds the server's own
 * workings — git's arguments, its stderr, folders — and goes to the log only; of a fault
 * only the engine's error code ({@link FAULT_KEYS_SHOWN}) is shown.
 *
 * @param error - the refusal.
 * @returns the details, or `undefined` when there are none to show.
 */
export function clientData(error: LoreError): Record<string, unknown> | undefined {
  if (error.kind === "internal") {
    const shown: Record<string, unknown> = {};
    for (const key of FAULT_KEYS_SHOWN) {
      const value = error.data[key];
      if (typeof value === "string") shown[key] = value;
    }
    return Object.keys(shown).length > 0 ? shown : undefined;
  }
  return Object.keys(error.data).length > 0 ? error.data : undefined;
}
