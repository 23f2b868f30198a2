/**
 * The `on_query` words of an imported file (issue 2, section 7 "Real input"): distinct
 * significant terms, taken in a fixed order from the file's name, title, description and
 * headings. The rule itself is documented in `import-rule.ts`.
 */
import { normalizeText } from "./normalize-text.js";
import { stemToken } from "./stem.js";
import { tokenize } from "./tokenize.js";

/** At most this many `on_query` words per imported entry. */
export const MAX_IMPORT_WORDS = 12;

/** Tokens shorter than this (in code points) are never words. */
const MIN_WORD_CHARS = 2;

/** Tokens longer than this (in code points) are never words (hashes, run-together text). */
const MAX_WORD_CHARS = 40;

/*
 * English function words, plus words every agent-rule file says ("use", "rules", "guide",
 * "code", "best", "practices"…): as contract words they would fire on half the corpus.
 */
const ENGLISH = `a about above after again against all also always am an and any are as at be
because been before being below between both but by can cannot could did do does doing don done
down during each either else etc even ever every few for from further get gets had has have having
he her here hers him his how however i if in into is it its itself just let like may me might more
most much must my no nor not now of off on once one only or other our ours out over own per same
shall she should so some such than that the their theirs them then there these they this those
through to too under until up upon us very via was we were what when where whether which while
who whom whose why will with within without would yet you your yours
use used uses using usage make makes making ensure provide provides follow following apply applies
applied help helps when whenever new based write writes writing written
guide guides guideline guidelines rule rules best practice practices instruction instructions
prompt prompts file files code coding project projects develop developer developers development
developing
expert assistant general overview readme index md mdc mdx txt cursorrules clinerules windsurfrules
skill skills agent agents claude gemini copilot cursor documentation docs doc notes note page pages
specific various etc task tasks work working way ways things thing example examples
summary description synopsis introduction intro conclusion related contents todo faq step steps`;

/** Russian function words (after normalisation: `ё` → `е`). */
const RUSSIAN = `а без более бы был была были было быть в вам вас весь во вот все всего всех вы где да
даже для до его ее ей ему если есть еще же за здесь и из или им их к как какая какой когда кто ли
либо между меня мне может можно мой мы на над надо нам нас не него нее нет ни них но ну о об однако
он она они оно от очень по под после при про раз с со так также такой там те тем то того тоже
только том тот ту ты у уже хотя чего чем что чтобы эта эти это этого этой этом этот эту я
который которая которое которые которых которым свой своей своих свою себя себе сам сама само
ваш ваша ваше ваши вашего вашей наш наша наше наши будет будут является являются нужно нужен
используйте использовать использование использования например см также узнайте узнать
узнаете научитесь проект проекта проекте`;

const STOPWORDS: ReadonlySet<string> = new Set(
  normalizeText(`${ENGLISH}\n${RUSSIAN}`).split(/\s+/u).filter(Boolean),
);

const HAS_LETTER = /\p{L}/u;

/**
 * Tells whether a normalised token may be an `on_query` word: 2–40 code points, holds a
 * letter, not a stopword (English or Russian, including the generic agent-rule words).
 *
 * @param token - a token from `tokenize(normalizeText(…))`.
 */
export function isSignificantToken(token: string): boolean {
  const length = [...token].length;
  if (length < MIN_WORD_CHARS || length > MAX_WORD_CHARS) return false;
  if (!HAS_LETTER.test(token)) return false;
  return !STOPWORDS.has(token);
}

/**
 * Collects `on_query` words from texts in priority order: each text is normalised
 * (`normalizeText`: lower case, `ё` → `е`), split into tokens (`tokenize`), filtered by
 * {@link isSignificantToken}, and a token is taken when no earlier word has the same
 * Snowball stem (`deploy` and `deploying` count once). Stops at `max` words.
 *
 * @param texts - the sources, most identifying first (title before headings).
 * @param max - the cap; default {@link MAX_IMPORT_WORDS}.
 * @returns distinct words in the order found (possibly empty).
 */
export function collectWords(texts: readonly string[], max: number = MAX_IMPORT_WORDS): string[] {
  const words: string[] = [];
  const stems = new Set<string>();
  for (const text of texts) {
    for (const token of tokenize(normalizeText(text))) {
      if (words.length >= max) return words;
      if (!isSignificantToken(token)) continue;
      const stem = stemToken(token);
      if (stems.has(stem)) continue;
      stems.add(stem);
      words.push(token);
    }
  }
  return words;
}
