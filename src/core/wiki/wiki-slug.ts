import { LoreError } from "../errors/lore-error.js";

/** Longest name between two `/` of a slug, bytes of UTF-8 (file names end at 255 bytes). */
export const MAX_SEGMENT_BYTES = 200;

/**
 * Why a slug was refused, in English (`en`) and Russian (`ru`), or `null` when it is safe.
 *
 * A slug is a wiki page's path under the wiki folder without `.md`, with its type prefix
 * (`concepts/foo`, nested `concepts/bar/baz`; DESIGN.md glossary "slug"). Safe means it can
 * never escape the wiki (federation, “The wiki layout”: `..`, absolute paths refused;
 * DESIGN.md "Non-negotiables": also Windows drive paths): relative, `/`-separated, every
 * segment non-empty, neither `.` nor `..` and at most 200 bytes (a file name), no
 * backslash, no drive letter, no control characters, at most 512 characters.
 *
 * @param slug - the slug as given.
 * @returns `null` for a safe slug, else the reason.
 */
export function slugProblem(slug: string): { en: string; ru: string } | null {
  if (slug.length === 0) return { en: "it is empty", ru: "он пуст" };
  if (slug.length > 512) return { en: "it is over 512 characters", ru: "он длиннее 512 символов" };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\u0000-\u001f\u007f]/.test(slug))
    return { en: "it holds a control character", ru: "в нём управляющий символ" };
  if (slug.includes("\\")) return { en: "it holds a backslash", ru: "в нём обратная косая черта" };
  if (slug.startsWith("/") || /^[A-Za-z]:/.test(slug))
    return { en: "it is an absolute path", ru: "это абсолютный путь" };
  for (const segment of slug.split("/")) {
    if (segment === "") return { en: "it has an empty segment", ru: "в нём пустой сегмент" };
    if (segment === "." || segment === "..")
      return { en: "it leaves the wiki folder (“..”)", ru: "он выходит из папки вики («..»)" };
    // A file system names a file in at most 255 bytes; `.md` and a temp suffix come on top.
    if (Buffer.byteLength(segment, "utf8") > MAX_SEGMENT_BYTES)
      return {
        en: `a name in it is over ${MAX_SEGMENT_BYTES} bytes`,
        ru: `имя в нём длиннее ${MAX_SEGMENT_BYTES} байт`,
      };
  }
  return null;
}

/**
 * Checks that a slug is safe (see {@link slugProblem}) and gives it back.
 *
 * @param slug - the slug as given (e.g. `concepts/foo`).
 * @returns the slug unchanged.
 * @throws LoreError `invalid_slug` with the reason.
 */
export function assertWikiSlug(slug: string): string {
  const problem = slugProblem(slug);
  if (problem !== null)
    throw new LoreError("invalid_slug", { slug, reason: problem.en, reason_ru: problem.ru });
  return slug;
}

/**
 * The file of a page relative to the wiki folder: `<slug>.md` (seed 000 "Read flow
 * get_from": `'.wiki/' + slug + '.md'`).
 *
 * @param slug - a slug (checked).
 * @returns e.g. `concepts/foo.md`.
 * @throws LoreError `invalid_slug`.
 */
export function wikiPageFile(slug: string): string {
  return `${assertWikiSlug(slug)}.md`;
}
