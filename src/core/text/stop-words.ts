/**
 * Stop words of queries (recall "stop words and a floor"): words that say nothing about
 * what is asked (`how`, `do`, `the`, `в`, `как`), left out of a query's search unless the
 * query holds nothing else.
 *
 * The lists are the `stopword` package's English and Russian ones (the Russian list is the
 * Snowball project's), plus the words of the Snowball English list that the package's
 * English list lacks (`when`, `why`, `does`, `not` …), so both languages follow Snowball.
 * Words are compared after `normalizeText` (lower case, `ё` → `е`), before stemming.
 */
// biome-ignore lint/style/noRestrictedImports: module loading, not I/O (see below).
import { createRequire } from "node:module";
import { normalizeText } from "./normalize-text.js";

// Loaded with require, not `import`: an ESM import of this 240 KB CommonJS file first scans
// it for named exports (cjs-module-lexer), CPU spent on every one-shot `lore recall`.
const stopword = createRequire(import.meta.url)("stopword") as typeof import("stopword").default;

/** Snowball's English stop words missing from the package's English list. */
const SNOWBALL_ENGLISH_EXTRA = `myself ours ourselves yours yourself yourselves she hers herself
its itself themselves theirs whom having does doing ought until against during above below down
off again further once when why few nor not own so`;

const STOP_WORDS: ReadonlySet<string> = new Set(
  [...(stopword.eng ?? []), ...(stopword.rus ?? []), ...SNOWBALL_ENGLISH_EXTRA.split(/\s+/u)]
    .map((word) => normalizeText(word))
    .filter((word) => word !== ""),
);

/**
 * Tells whether a normalised token is a stop word (English or Russian).
 *
 * @param token - one token of `tokenize(normalizeText(…))`.
 */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}
