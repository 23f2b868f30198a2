/**
 * The language of an HTTP answer from `Accept-Language` (RFC 9110 §12.5.4): Lore speaks `en`
 * and `ru`; the highest-weighted of them wins, `q=0` refuses one, the default is `en`.
 */
import type { Lang } from "../core/errors/localized-text.js";

/**
 * Picks `en` or `ru` from an `Accept-Language` value: each range with its weight (`q`,
 * default 1; malformed ranges and weights are skipped); a range counts for a language when
 * it is that language or a sub-tag of it (`ru-RU`), `*` for either. Among equal weights the
 * first listed wins.
 *
 * @param header - the header's value; absent or empty = `en`.
 * @returns `ru` when it is the best acceptable language, otherwise `en`.
 */
export function pickAcceptLanguage(header: string | undefined | null): Lang {
  if (header === undefined || header === null || header.trim() === "") return "en";
  let best: { lang: Lang; q: number } | undefined;
  for (const part of header.split(",")) {
    const [range = "", ...params] = part.trim().split(";");
    const tag = range.trim().toLowerCase();
    let q = 1;
    for (const param of params) {
      const [name, value] = param.trim().split("=");
      if (name?.trim().toLowerCase() !== "q") continue;
      const weight = Number(value);
      q = /^\s*(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/.test(value ?? "") ? weight : Number.NaN;
    }
    if (Number.isNaN(q) || q <= 0) continue;
    const lang: Lang | undefined =
      tag === "ru" || tag.startsWith("ru-")
        ? "ru"
        : tag === "en" || tag.startsWith("en-") || tag === "*"
          ? "en"
          : undefined;
    if (lang === undefined) continue;
    if (best === undefined || q > best.q) best = { lang, q };
  }
  return best?.lang ?? "en";
}
