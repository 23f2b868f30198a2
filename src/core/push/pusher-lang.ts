/**
 * The pusher's language in the push hooks (seed 004 "Разбор при отправке": the report goes
 * to the author, beside git's own output). The team server knows it from the request —
 * `Accept-Language`, which git sends from the client's locale, or the `LANG`/`LC_*` an SSH
 * client passes — and hands it to git, whose hooks inherit it; the hooks then write their
 * `remote:` lines in it rather than in the server's configured language.
 */
import type { Lang } from "../errors/localized-text.js";

/** The environment variable that carries the pusher's language into the hooks. */
export const PUSHER_LANG_ENV = "LORE_PUSHER_LANG";

/**
 * The pusher's language as the server passed it to the hooks.
 *
 * @param env - the hook's environment.
 * @returns `en` or `ru`, or `undefined` when the server passed none (another git server,
 *   or a client that said no language): the configured language applies then.
 */
export function pusherLang(env: Readonly<Record<string, string | undefined>>): Lang | undefined {
  const value = env[PUSHER_LANG_ENV];
  return value === "en" || value === "ru" ? value : undefined;
}

/**
 * The language a locale name asks for (`ru_RU.UTF-8` → `ru`), as SSH clients send `LANG`.
 *
 * @param locale - a locale value (`LANG`, `LC_ALL`, `LC_MESSAGES`, `LANGUAGE`).
 * @returns `ru`, `en`, or `undefined` for the locales that name no language (`C`, `POSIX`, empty).
 */
export function localeLang(locale: string): Lang | undefined {
  const value = locale.trim().toLowerCase();
  if (value === "" || value === "c" || value === "posix" || value.startsWith("c."))
    return undefined;
  return value.startsWith("ru") ? "ru" : "en";
}
