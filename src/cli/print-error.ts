import type { Lang } from "../core/errors/localized-text.js";
import { fromSqliteError, isLoreError, LoreError } from "../core/errors/lore-error.js";
import { exitCodeFor } from "./exit-codes.js";

/**
 * Turns anything thrown by a command into a LoreError: usage errors from `node:util`
 * `parseArgs` become `invalid_input`; SQLite errors `index_failed` (see `fromSqliteError`);
 * anything else is `internal` with the cause kept.
 *
 * @param error - what was caught.
 */
export function toLoreError(error: unknown): LoreError {
  const sqlite = fromSqliteError(error);
  if (sqlite !== undefined) return sqlite;
  if (isLoreError(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_")) {
    return new LoreError("invalid_input", { reason: message }, { cause: error });
  }
  return new LoreError("internal", { reason: message }, { cause: error });
}

/**
 * Formats an error as the one line the CLI prints on stderr, `lore: <message> [code]`,
 * and picks the exit code from its kind (see `exit-codes.ts`).
 *
 * @param error - what was caught.
 * @param lang - the message language.
 * @returns the line (no newline) and the exit code.
 */
export function describeError(error: unknown, lang: Lang): { line: string; exitCode: number } {
  const lore = toLoreError(error);
  return { line: `lore: ${lore.text[lang]} [${lore.code}]`, exitCode: exitCodeFor(lore.kind) };
}
