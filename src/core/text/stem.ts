/**
 * Word-form folding: the Snowball stemmers, then one rule of ours for Russian (recall
 * "word forms of contract words": every case and number of a noun, every person of a verb
 * and its infinitive fold to one key).
 *
 * The Russian Snowball stemmer cuts endings by shape, not by part of speech, so the forms
 * of one word can come out as different stems: `деплой` → `депл` (`-ой` read as an
 * adjective's ending) but `деплоя`, `деплоем`, `деплои` → `депло`; `писать` → `писа`, but
 * `пишу` → `пиш` and `пишет` → `пишет`. The rule on top of it, applied to both sides of
 * matching (the index and the query), makes one key of them:
 *
 * 1. What Snowball leaves in some forms and cuts in others is cut from all, when at least
 *    3 letters remain: the first-conjugation endings `-еш` (of `-ешь`), `-ет`, `-ут` it
 *    leaves after a consonant (`пишет` → `пиш`), then a final `-ал`/`-ял`/`-ил`/`-ыл`'s
 *    `л` and a final `-ен`, which it cuts from a nominative as past-tense or participle
 *    endings (`журнал` → `журна`, `токен` → `ток`) but leaves in `журналу`, `токенам`.
 * 2. Trailing vowels, `й` and `ь` are cut, leaving at least one letter: `депло` → `депл`,
 *    `писа` → `пис`.
 * 3. Stems of 7 letters or more lose a final `-ован` (`кэширование` → `кэшир`, as
 *    `кэшировать`), stems of 6 or more a final `-ов` (`тестиров` / `тестиру-ю`); stems of
 *    5 or more lose a fleeting `о`/`е` before a final `к` or `ц` (`веток` / `ветка`,
 *    `конец` / `конца`).
 * 4. The consonant alternations of verb stems are folded at the end: in a token ending in
 *    `-[бпвмф]лю` (a first person) the `л` is dropped (`люблю` → `люб`); then `ш` → `с` (пишу / писать), `ж`, `д`,
 *    `г` → `з` (хожу / ходить), `ч` → `т` (откачу / откатить), `щ` → `ст` (чищу /
 *    чистить).
 *
 * The key is not a word: it is never shown, only compared. Two unrelated words may share
 * a key (`ход` and `хоз…`, `минута` and `мина`); ranking and the contract words' own
 * spelling keep that rare in practice. Not folded: stems that change inside the word
 * (`беру` / `брать`, `иду` / `идти`, `могу` / `мочь`, `пеку` / `печь`).
 */
// biome-ignore lint/style/noRestrictedImports: module loading, not I/O (see below).
import { createRequire } from "node:module";

/** The `snowball-stemmers` package's exports. */
export type SnowballModule = typeof import("snowball-stemmers").default;

type Stemmer = ReturnType<SnowballModule["newStemmer"]>;

/**
 * The two Snowball stemmers, loaded at the first word stemmed: a process that never stems
 * (a `pre-receive` hook, `lore serve` answering git) does not pay for parsing the 850 KB
 * file (~25 ms of start-up with its garbage collection). Loaded with require, not
 * `import`: an ESM import of this CommonJS file first scans it for named exports
 * (cjs-module-lexer), ~60 ms of CPU on every one-shot `lore recall`.
 */
let stemmers: { russian: Stemmer; english: Stemmer } | undefined;

/** How the package is loaded: `require`, unless the composition root set another way. */
let loadSnowball = (): SnowballModule =>
  createRequire(import.meta.url)("snowball-stemmers") as SnowballModule;

/**
 * Sets how the `snowball-stemmers` package is loaded at the first stemmed word (the
 * composition root passes one that keeps V8's compiled code between processes,
 * `main/snowball-code-cache.ts`). The loader must give the package's own exports: stems
 * never depend on it. No effect once a word was stemmed.
 *
 * @param load - returns the package's exports; may throw as `require` would.
 */
export function useSnowballLoader(load: () => SnowballModule): void {
  loadSnowball = load;
}

function loadStemmers(): { russian: Stemmer; english: Stemmer } {
  if (stemmers === undefined) {
    const snowball = loadSnowball();
    stemmers = { russian: snowball.newStemmer("russian"), english: snowball.newStemmer("english") };
  }
  return stemmers;
}

const CYRILLIC_WORD = /^[\p{Script=Cyrillic}\p{M}\p{N}]+$/u;
const LATIN_WORD = /^[\p{Script=Latin}\p{M}\p{N}]+$/u;
const HAS_LETTER = /\p{L}/u;

/**
 * How many stems one cache generation holds before it is retired. A 100k-entry build meets
 * ≈ 206,000 distinct tokens; with 50,000 a generation it stemmed 478,000 times (the
 * retired generations' tail again and again), with 100,000 about 246,000 times, for ≈ 8 MB
 * more at most (the index build benchmark).
 */
const CACHE_GENERATION = 100_000;

/*
 * A two-generation memo: lookups hit `current`, then `previous` (and move there); when
 * `current` is full it becomes `previous`. Memory stays under two generations while hot
 * words (the Zipfian head of the vocabulary) never leave.
 */
let current = new Map<string, string>();
let previous = new Map<string, string>();

/**
 * A lasting memo behind the process's own (the index's `stems` table, migration 11): a
 * fresh process (a git hook) would otherwise stem every word of its text with Snowball
 * again. `get` answers a stem stored earlier by `put`; `put` keeps one this process
 * computed. Only values of {@link stemToken} itself go in, so it never changes a result.
 */
export interface StemStore {
  /** The stored stem of a token, or `undefined`. */
  get(token: string): string | undefined;
  /** Keeps a computed stem (may be written later, e.g. with the caller's transaction). */
  put(token: string, stem: string): void;
}

/** The store of the {@link withStemStore} call under way, if any. */
let store: StemStore | undefined;

/**
 * Runs `fn` with `lasting` consulted on every miss of the in-process memo and given every
 * stem computed meanwhile (the index wraps its own analysis of text it stores). Synchronous;
 * nests (the inner store is used until it returns).
 *
 * @param lasting - see {@link StemStore}.
 * @param fn - the work.
 * @returns what `fn` returns; its throw is rethrown.
 */
export function withStemStore<T>(lasting: StemStore, fn: () => T): T {
  const before = store;
  store = lasting;
  try {
    return fn();
  } finally {
    store = before;
  }
}

/**
 * Stems one token: for a Cyrillic word the Russian Snowball stem folded into a key by the
 * rule in the module header, for a Latin word the English Snowball stem, any other token
 * (digits, other scripts, mixed scripts) as is. Results are
 * memoised in a bounded cache (at most 200,000 words), and inside {@link withStemStore} in
 * its lasting store too.
 *
 * @param token - one token from `tokenize` (already normalised: lower case, `ё` → `е`).
 * @returns the stem; never empty for a non-empty token.
 */
export function stemToken(token: string): string {
  const hit = current.get(token);
  if (hit !== undefined) return hit;
  let stem = previous.get(token);
  if (stem === undefined && store !== undefined) {
    stem = store.get(token);
    if (stem === undefined) {
      stem = computeStem(token);
      store.put(token, stem);
    }
  }
  if (stem === undefined) stem = computeStem(token);
  if (current.size >= CACHE_GENERATION) {
    previous = current;
    current = new Map();
  }
  current.set(token, stem);
  return stem;
}

function computeStem(token: string): string {
  if (!HAS_LETTER.test(token)) return token;
  let stem = token;
  if (CYRILLIC_WORD.test(token)) {
    stem = russianKey(loadStemmers().russian.stem(token) || token, token);
  } else if (LATIN_WORD.test(token)) stem = loadStemmers().english.stem(token);
  return stem.length > 0 ? stem : token;
}

/** First-conjugation endings Snowball leaves after a consonant (step 1 of the rule). */
const LEFT_VERB_ENDING = /(?:еш|ет|ут)$/u;

/**
 * What Snowball cuts from a nominative as a past-tense or participle ending (`журнал` →
 * `журна`, `токен` → `ток`) but leaves in the other cases (`журналу` → `журнал`): cut it
 * from those too (step 1).
 */
const NOMINATIVE_CUT = /(?:(?<=[аяиы])л|ен)$/u;

/** Vowels, `й` and `ь` at the end of a Russian stem (step 2). */
const TRAILING_SOFT = /[аеиоуыэюяйь]+$/u;

/** The `-ов-` of an `-овать` verb, whose present tense has `-у-` (step 3). */
const OVA = /ов$/u;

/** The `-ован-` of a noun made from an `-овать` verb (`кэширован-ие`, step 3). */
const OVAN = /ован$/u;

/** A fleeting vowel before a final `к` or `ц` (`веток` / `ветка`, `конец` / `конца`, step 3). */
const FLEETING = /([^аеиоуыэюя])[ое]([кц])$/u;

/** A labial followed by the `л` of a verb's first person (`любл-ю`, step 4). */
const LABIAL_L = /([бпвмф])л$/u;

/** A token that may be such a first person: `…[бпвмф]лю`. */
const FIRST_PERSON_L = /[бпвмф]лю$/u;

/** Alternating consonants at the end of a Russian stem → one spelling (step 4). */
const ALTERNATION: Readonly<Record<string, string>> = {
  ш: "с",
  ж: "з",
  д: "з",
  г: "з",
  ч: "т",
  щ: "ст",
};

/**
 * The Russian key of a Snowball stem (the rule in the module header).
 *
 * @param stem - the Russian Snowball stem of a Cyrillic token (non-empty).
 * @param token - the token itself.
 * @returns the key (non-empty).
 */
function russianKey(stem: string, token: string): string {
  let key = stem;
  if (key.length >= 5) key = key.replace(LEFT_VERB_ENDING, "").replace(NOMINATIVE_CUT, "");
  key = key.replace(TRAILING_SOFT, "");
  if (key.length === 0) return stem;
  if (key.length >= 7) key = key.replace(OVAN, "");
  if (key.length >= 6) key = key.replace(OVA, "");
  if (key.length >= 5) key = key.replace(FLEETING, "$1$2");
  if (key.length > 2 && FIRST_PERSON_L.test(token)) key = key.replace(LABIAL_L, "$1");
  const folded = key.length < 2 ? undefined : ALTERNATION[key.at(-1) as string];
  return folded === undefined ? key : key.slice(0, -1) + folded;
}
