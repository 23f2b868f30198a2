/**
 * From a user's query to safe FTS5 expressions (recall, full text: query
 * syntax from users never reaches FTS5 raw).
 *
 * The rule, in full:
 * - The query is normalised like indexed text (`normalizeText`) and split into words
 *   (`splitWords`): a word is a run of letters and digits, or several such runs glued by
 *   one `-`, `'`, `’`, `.` or `_` (`pre-receive`, `don't`, `v1.2`).
 * - Each token becomes its Snowball stem (`stemToken`), the stem indexed text holds; a word
 *   of one token becomes the FTS5 string `"stem"`, a glued word the phrase `"stem1 stem2"`
 *   (its tokens adjacent and in order).
 * - A `*` right after a word is the only operator kept: the word's last token becomes a
 *   prefix query (`"depl" *`). The prefix is the normalised token as typed, or its stem when
 *   the stem is shorter and a prefix of it (`откатывани*` → `откатыван*`), since the index
 *   holds stems; a prefix shorter than {@link MIN_PREFIX_LENGTH} characters is searched as
 *   a whole word instead (a one-letter prefix would match most of the index).
 * - Every other character is a separator: `"`, `(`, `)`, `:`, `^`, `+`, `{`, `}` never
 *   reach FTS5, and `AND`, `OR`, `NOT`, `NEAR` typed by a user are plain words
 *   (lower-cased and quoted like any other).
 * - Stop words (`core/text/stop-words.ts`: `how`, `the`, `в`, `как` …; a glued word when all
 *   its tokens are) are left out of the search and of one-word contract matching, unless
 *   the query holds nothing else: `how do I rotate the database password` searches
 *   `rotate`, `database`, `password`; `как в` searches `как`, `в`. They stay in `stems`,
 *   so a contract phrase that holds one (`roll back the release`) still fires.
 * - Words are OR-ed; recall's score (`core/recall/recall-score.ts`) puts entries matching more
 *   of them first. Duplicate words count once; at most {@link MAX_QUERY_WORDS} words are
 *   searched and the first {@link MAX_QUERY_TOKENS} tokens read.
 * - A query with no word at all (empty, blanks, lone punctuation such as `"`) is refused
 *   with `empty_query`, never sent to SQLite.
 */
import { LoreError } from "../errors/lore-error.js";
import { normalizeText } from "../text/normalize-text.js";
import { stemToken } from "../text/stem.js";
import { isStopWord } from "../text/stop-words.js";
import { splitWords } from "../text/tokenize.js";

/** The most words of one query that are searched; later ones are ignored. */
export const MAX_QUERY_WORDS = 32;

/** The most tokens of one query that are read (for contract matching too); later ones are ignored. */
export const MAX_QUERY_TOKENS = 512;

/** The shortest prefix (in UTF-16 units, after normalisation) searched as a prefix. */
export const MIN_PREFIX_LENGTH = 3;

/** One searchable word of a query. */
export interface QueryTerm {
  /** The FTS5 expression of this word alone: `"stem"`, `"stem1 stem2"` or `"prefix" *`. */
  fts: string;
  /** The stems of the word's tokens, in order (for a prefix word, the last one is the prefix). */
  stems: string[];
  /** Whether the last token is a prefix query. */
  prefix: boolean;
}

/** A parsed query: its words for full text and its stems for contract matching. */
export interface SearchQuery {
  /**
   * The distinct words searched, in query order, at most {@link MAX_QUERY_WORDS}: the
   * words that are not stop words, or all of them when every word is one.
   */
  terms: QueryTerm[];
  /**
   * Every token's stem in query order (duplicates and stop words kept): what the `on_query`
   * phrases (words of several tokens) are matched against.
   */
  stems: string[];
  /** The stems of {@link terms}, distinct: what one-token `on_query` words are matched against. */
  keys: string[];
  /** Whether every word of the query is a stop word (then {@link terms} are stop words). */
  stopWordsOnly: boolean;
}

/**
 * Parses a user's query (recall) by the rule in this module's header.
 *
 * @param query - the text a user or agent typed; any string.
 * @returns the query's words and stems.
 * @throws LoreError `empty_query` when the text has no word.
 */
export function parseSearchQuery(query: string): SearchQuery {
  const words = splitWords(normalizeText(query));
  const all: QueryTerm[] = [];
  const content: QueryTerm[] = [];
  const seen = new Set<string>();
  const stems: string[] = [];
  for (const word of words) {
    if (stems.length >= MAX_QUERY_TOKENS) break;
    const wordStems = word.tokens.map(stemToken);
    let prefix = false;
    const last = word.tokens.at(-1) as string;
    if (word.prefix && last.length >= MIN_PREFIX_LENGTH) {
      const lastStem = wordStems.at(-1) as string;
      wordStems[wordStems.length - 1] =
        lastStem.length < last.length && last.startsWith(lastStem) ? lastStem : last;
      prefix = true;
    }
    stems.push(...wordStems);
    const fts = `${quote(wordStems.join(" "))}${prefix ? " *" : ""}`;
    if (seen.has(fts)) continue;
    seen.add(fts);
    const term = { fts, stems: wordStems, prefix };
    if (all.length < MAX_QUERY_WORDS) all.push(term);
    if (content.length < MAX_QUERY_WORDS && !word.tokens.every(isStopWord)) content.push(term);
  }
  if (all.length === 0) throw new LoreError("empty_query");
  const stopWordsOnly = content.length === 0;
  const terms = stopWordsOnly ? all : content;
  const keys = [...new Set(terms.flatMap((term) => term.stems))];
  return { terms, stems, keys, stopWordsOnly };
}

/**
 * Joins terms into one FTS5 expression: `(t1) OR (t2) …`.
 *
 * @param terms - at least one term from {@link parseSearchQuery}.
 * @returns an expression safe to bind to `MATCH ?`.
 */
export function orExpression(terms: readonly QueryTerm[]): string {
  return terms.map((term) => term.fts).join(" OR ");
}

/** An FTS5 string literal; tokens never hold `"`, doubling it is defence in depth. */
function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}
