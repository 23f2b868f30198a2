/**
 * Text normalisation shared by both sides of matching: the index (entry summaries, bodies,
 * contract words) and the queries (recall, matching; seed 004, recall).
 */

/**
 * Anything but printable ASCII, tab, line ends and the basic Cyrillic block (U+0400–U+045F)
 * takes the full path.
 */
const NEEDS_FULL_PATH = /[^\t\n\r -~\u0400-\u045f]/;

/** Latin letters with a decomposable accent, or a stray combining mark, may need stripping. */
const MAY_HAVE_LATIN_DIACRITIC = /[\u00c0-\u024f\u1e00-\u1eff]|[\u0300-\u036f]/;

/** `э` after a Russian consonant letter (see {@link normalizeText}). */
const CONSONANT_E = /([бвгджзклмнпрстфхцчшщ])э/gu;

/** A Latin base letter followed by one or more combining diacritical marks (after NFD). */
const LATIN_WITH_MARKS = /(\p{Script=Latin})[\u0300-\u036f]+/gu;

/**
 * Normalises text for matching: Unicode NFC, lower case (locale-independent, the Unicode
 * default mapping of `String.prototype.toLowerCase`), `ё`/`Ё` → `е`, `э` after a consonant
 * → `е` (`кэш` = `кеш`, `тэг` = `тег`; `это` and `поэт` keep theirs), and combining accents
 * stripped from Latin letters only (`é` → `e`, `İ` → `i`). Other scripts keep their marks:
 * `й` never becomes `и`. Letters without a decomposition (`ß`, `ø`, `ł`) stay as they are.
 *
 * Pure; the output is NFC.
 *
 * @param text - any string.
 * @returns the normalised string (may differ in length from the input).
 */
export function normalizeText(text: string): string {
  // Fast path: ASCII and basic Cyrillic text is already NFC and has no Latin accents.
  const full = NEEDS_FULL_PATH.test(text);
  let out = full ? text.normalize("NFC").toLowerCase() : text.toLowerCase();
  if (out.includes("ё")) out = out.replaceAll("ё", "е");
  // `э` after a consonant is a spelling variant of `е` in loanwords (`кэш` / `кеш`, `тэг` /
  // `тег`): fold it there; a word-initial or after-vowel `э` (`это`, `поэт`) stays.
  if (out.includes("э")) out = out.replace(CONSONANT_E, "$1е");
  if (full && MAY_HAVE_LATIN_DIACRITIC.test(out)) {
    out = out.normalize("NFD").replace(LATIN_WITH_MARKS, "$1").normalize("NFC");
  }
  return out;
}
