/**
 * The `on_query` words of an imported file (real input): distinct
 * significant terms, taken in a fixed order from the file's name, title, description and
 * headings — never from generic headings, template headings shared by many imported
 * files, or words found in a large share of them (recall "import picks distinctive
 * words"). The rule itself is documented in `import-rule.ts`.
 */
import { normalizeText } from "../text/normalize-text.js";
import { stemToken } from "../text/stem.js";
import { tokenize } from "../text/tokenize.js";

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

/*
 * Headings that name a kind of section, not a subject (normalised: lower case, `ё` → `е`,
 * punctuation and numbering dropped). Their words never become contract words.
 */
const GENERIC_HEADING_LIST = `overview|notes|note|summary|introduction|intro|usage|examples|example
|installation|install|setup|set up|configuration|config|getting started|get started|quick start
|quickstart|prerequisites|requirements|references|reference|see also|links|resources|related
|background|description|details|conclusion|faq|troubleshooting|contributing|license|changelog
|table of contents|contents|toc|todo|next steps|tips|best practices|guidelines|rules|general
|other|misc|miscellaneous|features|how it works|when to use|how to use|usage examples|key points
|important|warning|caution|source|sources|further reading|learn more|what's next|whats next
|обзор|примечания|примечание|ссылки|введение|описание|пример|примеры|использование|установка
|настройка|см также|смотрите также|литература|содержание|заключение|требования|подробнее
|дополнительно|что дальше|итоги|резюме|источники|полезные ссылки|начало работы|общие сведения`;

const GENERIC_HEADINGS: ReadonlySet<string> = new Set(
  GENERIC_HEADING_LIST.split("|").map((heading) => headingKey(heading)),
);

/**
 * The form a heading is compared in: normalised, its tokens joined by one space (so
 * `## 1. Overview:` and `Overview` are one heading).
 *
 * @param text - a heading's text.
 */
export function headingKey(text: string): string {
  return tokenize(normalizeText(text))
    .filter((token) => /\p{L}/u.test(token))
    .join(" ");
}

/**
 * Tells whether a heading is generic (`Overview`, `Notes`, `Summary`, `Примечания`,
 * `Ссылки` …; the list is in this module).
 *
 * @param text - a heading's text.
 */
export function isGenericHeading(text: string): boolean {
  return GENERIC_HEADINGS.has(headingKey(text));
}

/**
 * What an import run knows of all its files (built by `importFolder`): the headings and
 * the word stems too common among the imported files to tell one from another.
 */
export interface ImportVocabulary {
  /** Heading keys (`headingKey`) shared by many files: template headings. */
  templateHeadings: ReadonlySet<string>;
  /** Stems that would be contract words of a large share of the files. */
  commonStems: ReadonlySet<string>;
}

/** A heading found in at least this share of the imported files is a template heading… */
export const TEMPLATE_HEADING_SHARE = 0.01;
/** …when it is found in at least this many files. */
export const TEMPLATE_HEADING_MIN_FILES = 5;
/** A word that would be a contract word of more than this share of the imported files is too common… */
export const COMMON_WORD_SHARE = 0.05;
/** …judged only when at least this many files are imported. */
export const COMMON_WORD_MIN_FILES = 20;

/** What one file contributes to an {@link ImportVocabulary}: its distinct heading keys and stems. */
export interface FileVocabulary {
  headings: string[];
  stems: string[];
}

/**
 * The distinct heading keys and word stems of one file.
 *
 * @param headings - its headings' texts.
 * @param text - the text whose words count (its would-be contract words).
 */
export function fileVocabulary(headings: readonly string[], text: string): FileVocabulary {
  const stems = new Set<string>();
  for (const token of tokenize(normalizeText(text))) {
    if (isSignificantToken(token)) stems.add(stemToken(token));
  }
  return { headings: [...new Set(headings.map(headingKey))], stems: [...stems] };
}

/**
 * Builds the vocabulary of an import run from its files' vocabularies: headings found in
 * at least {@link TEMPLATE_HEADING_SHARE} of the files (and {@link TEMPLATE_HEADING_MIN_FILES}
 * of them) are template headings; stems that would be contract words of more than
 * {@link COMMON_WORD_SHARE} of the files are common (only when at least
 * {@link COMMON_WORD_MIN_FILES} files are imported).
 *
 * @param files - one vocabulary per imported file.
 */
export function importVocabulary(files: readonly FileVocabulary[]): ImportVocabulary {
  const headings = new Map<string, number>();
  const stems = new Map<string, number>();
  for (const file of files) {
    for (const heading of file.headings) headings.set(heading, (headings.get(heading) ?? 0) + 1);
    for (const stem of file.stems) stems.set(stem, (stems.get(stem) ?? 0) + 1);
  }
  const headingFloor = Math.max(TEMPLATE_HEADING_MIN_FILES, TEMPLATE_HEADING_SHARE * files.length);
  const templateHeadings = new Set<string>();
  for (const [heading, count] of headings) {
    if (heading !== "" && count >= headingFloor) templateHeadings.add(heading);
  }
  const commonStems = new Set<string>();
  if (files.length >= COMMON_WORD_MIN_FILES) {
    for (const [stem, count] of stems) {
      if (count > COMMON_WORD_SHARE * files.length) commonStems.add(stem);
    }
  }
  return { templateHeadings, commonStems };
}

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
 * Snowball stem (`deploy` and `deploying` count once) and its stem is not common to the
 * import run (`commonStems`). Stops at `max` words.
 *
 * @param texts - the sources, most identifying first (title before headings).
 * @param max - the cap; default {@link MAX_IMPORT_WORDS}.
 * @param commonStems - stems too common among the imported files (`importVocabulary`).
 * @returns distinct words in the order found (possibly empty).
 */
export function collectWords(
  texts: readonly string[],
  max: number = MAX_IMPORT_WORDS,
  commonStems: ReadonlySet<string> = new Set(),
): string[] {
  const words: string[] = [];
  const stems = new Set<string>();
  for (const text of texts) {
    for (const token of tokenize(normalizeText(text))) {
      if (words.length >= max) return words;
      if (!isSignificantToken(token)) continue;
      const stem = stemToken(token);
      if (stems.has(stem) || commonStems.has(stem)) continue;
      stems.add(stem);
      words.push(token);
    }
  }
  return words;
}
