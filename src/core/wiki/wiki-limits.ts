import { LoreError } from "../errors/lore-error.js";

/**
 * Size limits on what the federation reads from other repositories (README "Limits"): a
 * file over its limit is refused with LoreError `remote_file_too_large`, per project, never
 * read whole into memory, and the other projects go on.
 */
export const WIKI_LIMITS = {
  /** `.wiki/index.md` read by sync (kept in the cache), bytes: 2 MiB. */
  wikiIndexBytes: 2 * 1024 * 1024,
  /** `.tasks/STATUS.md` read by sync, bytes: 1 MiB. */
  tasksStatusBytes: 1024 * 1024,
  /** One wiki page read by ask_projects, get_from, knowledge_get or search, bytes: 1 MiB. */
  wikiPageBytes: 1024 * 1024,
  /** A wiki's `log.md` read to append a line to it through a forge, bytes: 16 MiB. */
  wikiLogBytes: 16 * 1024 * 1024,
} as const;

/** One of the limits of {@link WIKI_LIMITS}. */
export type WikiLimit = keyof typeof WIKI_LIMITS;

/** What each limited file is called in the refusal (`what` of `remote_file_too_large`). */
export const LIMITED_FILE_NAMES = {
  wikiIndexBytes: { en: "a wiki index", ru: "указатель вики" },
  tasksStatusBytes: { en: "a task board", ru: "доска задач" },
  wikiPageBytes: { en: "a wiki page", ru: "страница вики" },
  wikiLogBytes: { en: "a wiki log", ru: "журнал вики" },
} as const;

/**
 * The refusal of a file over its limit.
 *
 * @param where - `{ repo, path }` of the file.
 * @param limit - which limit (a key of {@link WIKI_LIMITS}).
 * @param size - the file's size in bytes, when known.
 */
export function tooLarge(
  where: { repo: string; path: string },
  limit: WikiLimit,
  size?: number,
): LoreError {
  const bytes = WIKI_LIMITS[limit];
  const name = LIMITED_FILE_NAMES[limit];
  return new LoreError(
    "remote_file_too_large",
    { repo: where.repo, path: where.path, limit: bytes, what: name.en, what_ru: name.ru },
    { data: { limit: bytes, ...(size === undefined ? {} : { size }) } },
  );
}

/**
 * The refusal of work asked after its request was cancelled.
 *
 * @param signal - the request's abort signal.
 * @throws LoreError `cancelled` when `signal` is aborted.
 */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new LoreError("cancelled");
}
