/**
 * Word-form folding through the Snowball stemmers (issue 2, section 4 "Matching": `откат`
 * fires on "как откатить", `deploy` on "deploying").
 */
// biome-ignore lint/style/noRestrictedImports: module loading, not I/O (see below).
import { createRequire } from "node:module";

// Loaded with require, not `import`: an ESM import of this 850 KB CommonJS file first scans
// it for named exports (cjs-module-lexer), ~60 ms of CPU on every one-shot `lore recall`.
const snowball = createRequire(import.meta.url)(
  "snowball-stemmers",
) as typeof import("snowball-stemmers").default;

const russian = snowball.newStemmer("russian");
const english = snowball.newStemmer("english");

const CYRILLIC_WORD = /^[\p{Script=Cyrillic}\p{M}\p{N}]+$/u;
const LATIN_WORD = /^[\p{Script=Latin}\p{M}\p{N}]+$/u;
const HAS_LETTER = /\p{L}/u;

/** How many stems one cache generation holds before it is retired. */
const CACHE_GENERATION = 50_000;

/*
 * A two-generation memo: lookups hit `current`, then `previous` (and move there); when
 * `current` is full it becomes `previous`. Memory stays under two generations while hot
 * words (the Zipfian head of the vocabulary) never leave.
 */
let current = new Map<string, string>();
let previous = new Map<string, string>();

/**
 * Stems one token: the Russian Snowball stemmer for a Cyrillic word, the English one for a
 * Latin word, any other token (digits, other scripts, mixed scripts) as is. Results are
 * memoised in a bounded cache (at most 100,000 words).
 *
 * @param token - one token from `tokenize` (already normalised: lower case, `ё` → `е`).
 * @returns the stem; never empty for a non-empty token.
 */
export function stemToken(token: string): string {
  const hit = current.get(token);
  if (hit !== undefined) return hit;
  let stem = previous.get(token);
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
  if (CYRILLIC_WORD.test(token)) stem = russian.stem(token);
  else if (LATIN_WORD.test(token)) stem = english.stem(token);
  return stem.length > 0 ? stem : token;
}
