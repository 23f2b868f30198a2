/**
 * What to say when the server database fails. Unlike the index (derived from git, deleted
 * and rebuilt at will), `server.db` holds the only copy of the users, token hashes, keys and
 * grants, so the advice is never "delete it".
 */
import type { LocalizedText } from "../../core/errors/localized-text.js";
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";

const BUSY: LocalizedText = {
  en: "the server database is busy: another lore process is writing it; try again",
  ru: "база сервера занята: в неё пишет другой процесс lore; повторите",
};
const DAMAGED: LocalizedText = {
  en: "the server database {file} is damaged or not a database; restore it from a backup (it holds the users, tokens and grants: do not delete it)",
  ru: "база сервера {file} повреждена или это не база; восстановите её из резервной копии (в ней пользователи, токены и права: не удаляйте её)",
};

/** SQLite's primary result codes with a message of their own. */
const REASONS: Record<string, LocalizedText> = {
  SQLITE_BUSY: BUSY,
  SQLITE_LOCKED: BUSY,
  SQLITE_CORRUPT: DAMAGED,
  SQLITE_NOTADB: DAMAGED,
  SQLITE_READONLY: {
    en: "the server database {file} is read-only; check its permissions and its folder's",
    ru: "база сервера {file} доступна только для чтения; проверьте права на неё и на её папку",
  },
  SQLITE_FULL: { en: "the disk of the server database is full", ru: "диск базы сервера заполнен" },
};

/**
 * Turns an error of the SQLite engine met on `server.db` into LoreError `index_failed`
 * saying what to do; the SQLite code and the engine's message go into `data` (`sqlite`,
 * `detail`). The engine's error is deliberately not kept as `cause`: the CLI's error printer
 * would replace the message by the index's ("delete it and run lore index again").
 *
 * @param error - anything caught.
 * @param file - the database file, for the message.
 * @returns the LoreError; a LoreError given is returned as it is, anything not from SQLite
 *   too (unchanged).
 */
export function serverDbError(error: unknown, file: string): unknown {
  if (isLoreError(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !code.startsWith("SQLITE_")) return error;
  const primary = /^SQLITE_[A-Z]+/.exec(code)?.[0] ?? code;
  const text = REASONS[primary] ?? {
    en: `the server database failed (${code})`,
    ru: `ошибка базы сервера (${code})`,
  };
  const fill = (template: string) => template.replace("{file}", file);
  return new LoreError(
    "index_failed",
    { reason: fill(text.en), reason_ru: fill(text.ru) },
    { data: { sqlite: code, detail: error instanceof Error ? error.message : String(error) } },
  );
}
