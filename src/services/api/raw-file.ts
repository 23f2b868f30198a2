/**
 * Reading a hosted repository's file at a ref (`GET /api/v1/repos/{owner}/{name}/raw/{path}`:
 * how a file entry's body is read by its `file_path`, seed 004 "Интерфейс": «у файловой
 * записи оно читается обычным чтением файла по file_path»). The caller checks the rights.
 */
import { LoreError } from "../../core/errors/lore-error.js";

/** Reads a file's bytes at a ref of a repository folder; `undefined` when either is missing. */
export type FileAtRef = (dir: string, ref: string, path: string) => Promise<Uint8Array | undefined>;

function badInput(en: string, ru: string): LoreError {
  return new LoreError("invalid_input", { reason: en, reason_ru: ru });
}

/**
 * Checks a file path of a repository: relative, `/`-separated, no empty, `.` or `..`
 * segment, no NUL, no backslash.
 *
 * @param path - the path as the client sent it (already percent-decoded).
 * @returns the path.
 * @throws LoreError `invalid_input` saying what is wrong.
 */
export function checkRepoPath(path: string): string {
  if (path === "") throw badInput("the file path is empty", "путь к файлу пуст");
  if (path.startsWith("/")) {
    throw badInput(
      `the file path “${path}” is absolute; give it from the repository's top`,
      `путь к файлу «${path}» абсолютный; укажите его от корня репозитория`,
    );
  }
  if (path.includes("\0") || path.includes("\\")) {
    throw badInput(
      "the file path holds a NUL byte or a backslash",
      "в пути к файлу есть байт NUL или обратная косая черта",
    );
  }
  for (const segment of path.split("/")) {
    if (segment === "" || segment === "." || segment === "..") {
      throw badInput(
        `the file path “${path}” holds an empty, “.” or “..” segment`,
        `в пути к файлу «${path}» есть пустой сегмент, «.» или «..»`,
      );
    }
  }
  return path;
}

/**
 * Checks a ref: a branch, tag or commit name that git cannot read as an option or a
 * `<rev>:<path>` (no leading `-`, no `:`, no whitespace or control character).
 *
 * @throws LoreError `invalid_input`.
 */
export function checkRef(ref: string): string {
  if (ref === "" || ref.startsWith("-") || /[:\s\p{Cc}]/u.test(ref)) {
    throw badInput(`“${ref}” is not a ref name`, `«${ref}» — не имя ссылки git`);
  }
  return ref;
}

/**
 * A file's bytes at a ref of a repository folder.
 *
 * @param read - reads the file (the git CLI adapter's `readFileAt`).
 * @param dir - the bare repository's folder.
 * @param path - the file's path (checked by {@link checkRepoPath}).
 * @param ref - the ref (checked by {@link checkRef}).
 * @throws LoreError `invalid_input` for a bad path or ref; `path_not_found` when the ref
 *   or the file does not exist (`path` in the message).
 */
export async function readRawFile(
  read: FileAtRef,
  dir: string,
  path: string,
  ref: string,
): Promise<Uint8Array> {
  const bytes = await read(dir, checkRef(ref), checkRepoPath(path));
  if (bytes === undefined) throw new LoreError("path_not_found", { path: `${ref}:${path}` });
  return bytes;
}
