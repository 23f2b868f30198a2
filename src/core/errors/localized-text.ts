/**
 * A human message in the two languages Lore speaks. Clients act on machine codes, never
 * on this text; the text is for people (DEVELOPERS.md "Errors": English with a Russian
 * translation).
 */
export interface LocalizedText {
  /** English. */
  en: string;
  /** Russian. */
  ru: string;
}

/** A language Lore can answer in. `en` is the default. */
export type Lang = keyof LocalizedText;

/**
 * Picks the language from explicit settings: `LORE_LANG`, then the POSIX locale
 * variables, in the order a C library reads them (`LC_ALL`, `LC_MESSAGES`, `LANG`).
 * Pure: the caller passes the environment in.
 *
 * @param env - a map of environment variables (for example `process.env`).
 * @returns `ru` when the first set variable starts with `ru`, otherwise `en`.
 */
export function pickLang(env: Readonly<Record<string, string | undefined>>): Lang {
  for (const name of ["LORE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"]) {
    const value = env[name];
    if (value && value.length > 0) return value.toLowerCase().startsWith("ru") ? "ru" : "en";
  }
  return "en";
}

/**
 * Fills `{name}` placeholders of a message template with parameters.
 *
 * @param template - text with `{name}` placeholders.
 * @param params - values by placeholder name; a missing one leaves the placeholder as is.
 * @returns the filled text.
 */
export function fillTemplate(
  template: string,
  params: Readonly<Record<string, string | number>>,
): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}
