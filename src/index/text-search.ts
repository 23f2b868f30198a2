/**
 * Ranked full-text search over `entry_text` with a bounded cost (recall and the index build benchmark:
 * search p99 ≤ 20 ms, recall p99 ≤ 5 ms at 100k entries).
 *
 * FTS5's bm25 costs time in proportion to the number of entries a word matches (it walks
 * each phrase's whole doclist for its idf, then decodes the positions of every matching
 * row), so a word found in most entries costs tens of ms at 100k. The rule that keeps
 * every query bounded:
 *
 * 1. A prefix word (`depl*`) is expanded through the vocabulary into at most
 *    {@link MAX_EXPANSIONS} indexed stems, the most frequent first. Each word's matches are
 *    counted up to `budget + 1` (cheap: the doclist is walked, no positions decoded).
 *    Of several words, those found in over half of the entries (`как`, `the`: bm25 gives
 *    such a word no weight) are dropped, unless every word is that common; "over half" is
 *    judged on the entries up to the word's `budget + 1`-th match, in index order.
 *    Expansions and counts are kept while the full-text index is unchanged, a floor while
 *    nothing in the file changed (see `TextSearch#begin`): the values of a fresh lookup.
 * 2. **Ranked mode.** Words are taken rarest first while their counts add up to at most
 *    `budget`; those words are searched (OR) and ranked by bm25 with the summary weighing
 *    {@link SUMMARY_WEIGHT} and the body 1; ties by entry id. Words left out are too
 *    common to rank by (their idf is low) and are ignored, like stop words.
 * 3. **Broad mode.** When even the rarest word matches more than `budget` entries, all
 *    words are searched unranked: entries holding a word in their summary first, then the
 *    others, each group in index order; scores are 0. The total is counted up to
 *    `totalCap` (`totalExact: false` above it).
 */
import type { QueryTerm } from "../core/recall/search-query.js";
import type { SqliteDatabase } from "./sqlite-database.js";
import { wordsWithinBudget } from "./text-budget.js";

/** bm25 weight of the summary column (the body weighs 1). */
export const SUMMARY_WEIGHT = 3;

/** Most indexed stems one prefix word stands for (the most frequent ones). */
export const MAX_EXPANSIONS = 16;

/**
 * Most prefixes whose expansion {@link TextSearch} keeps (see `#expansions`); past it the
 * oldest is forgotten.
 */
export const EXPANSION_CACHE_SIZE = 256;

/**
 * Most words whose match counts {@link TextSearch} keeps (see `#counts`); past it the oldest
 * is forgotten.
 */
export const WORD_COUNT_CACHE_SIZE = 1024;

/** One listed text match. */
export interface TextRow {
  fileId: number;
  /** `-bm25`, higher is better, in ranked mode; 0 in broad mode. */
  score: number;
}

/** A page of text matches, with the contract hits taken out. */
export interface TextPage {
  /** The page, in rank order. */
  rows: TextRow[];
  /** Matches, fired entries left out when asked (exact when `totalExact`, else a lower bound). */
  total: number;
  totalExact: boolean;
  /** The ids of `check` that match the text too. */
  alsoText: Set<number>;
  /** `ranked` or `broad` (see the module header). */
  mode: "ranked" | "broad";
}

/** Options of {@link TextSearch.page}. */
export interface TextPageOptions {
  /** Rows to skip (after taking out the fired entries). */
  offset: number;
  /** Rows to return at most. */
  limit: number;
  /** Most matches ranked (see the module header). */
  budget: number;
  /** Most matches counted for the total of a broad query. */
  totalCap: number;
  /**
   * Leave out the entries of the last contract lookup (`fired_entries`, listed before the
   * text matches by recall) from rows and total.
   */
  excludeFired: boolean;
  /** File ids to test for a text match too (the contract hits on the page). */
  check: readonly number[];
}

/** One text match of a recall, with the query terms it holds. */
export interface TextMatch {
  fileId: number;
  /** Bit *i* set: the entry's text holds query term *i* (a word that passed the floor). */
  mask: number;
  /** `-bm25` (≥ 0) in ranked mode; 0 in broad mode. */
  relevance: number;
}

/** The text side of a recall (see {@link TextSearch.matches}). */
export interface TextMatches {
  /**
   * Ranked mode: every match of the ranked words, or with `top` the best `top` of one word
   * (see {@link TextSearch.matches}); broad mode: the first `need` matches.
   */
  rows: TextMatch[];
  /** Whether `rows` holds every listed match (ranked mode, unless cut by `top`). */
  complete: boolean;
  /** Matches in all (a lower bound when `totalExact` is false). */
  total: number;
  totalExact: boolean;
  mode: "ranked" | "broad";
}

/** A query word ready for FTS5. */
interface Word {
  /** The index of its query term. */
  term: number;
  fts: string;
  /** How many entries it matches, counted up to `budget + 1`. */
  count: number;
  /** The rowid of the last match counted. */
  last: number;
  /** Its kept count, when counts are kept (see `#counts`): where its floor is kept too. */
  kept?: KeptCount;
}

/** A word's kept match count (see `TextSearch#counts`). */
interface KeptCount {
  count: number;
  last: number;
  /** Whether it is found in over half of the entries (`#isCommon`), judged at {@link judgedAt}. */
  common?: boolean;
  /** The `changes` stamp (see `TextSearch#begin`) the floor was judged at. */
  judgedAt?: string;
}

/** Full-text queries; statements prepared once. */
export class TextSearch {
  readonly #sql;
  readonly #db: SqliteDatabase;
  readonly #firedIds: () => readonly number[];
  /**
   * Prefix → its FTS5 expression (`undefined`: no indexed stem has it), valid while the
   * full-text index's structure record is {@link #structure} (see `#expand`).
   */
  #expansions = new Map<string, string | undefined>();
  /**
   * `budget fts` → the word's match count up to `budget + 1` and its last rowid, valid like
   * {@link #expansions} (they are read from the full-text index alone); a word's floor
   * (`#isCommon`, which counts entries too) is kept beside it only while nothing at all
   * changed in the file (the `changes` stamp, see {@link #begin}).
   */
  #counts = new Map<string, KeptCount>();
  #structure: Buffer | undefined;
  /** Whether the call under way may read and keep expansions and counts (see {@link #begin}). */
  #keep = false;
  /** The call under way's stamp of changes to the file: this connection's and others'. */
  #changes = "";

  /**
   * @param db - a migrated index database.
   * @param firedIds - the file ids of the last contract lookup (what `excludeFired` leaves
   *   out); default none.
   */
  constructor(db: SqliteDatabase, firedIds: () => readonly number[] = () => []) {
    this.#db = db;
    this.#firedIds = firedIds;
    const p = (sql: string) => db.prepare(sql);
    type Statement = ReturnType<typeof p>;
    /**
     * Three variants of a statement: `[0]` over every match, `[1]` without the fired entries,
     * `[2]` only the entries of some repositories (`@repos`, a JSON array): each match's
     * repository is read by primary key and tested against the set, so the cost follows the
     * matches (at most the budget) — a subquery listing the repositories' files would first
     * collect every file of them (24 ms for one repository of 100k entries, against 2 ms).
     */
    const both = <T>(sql: string, as: (statement: Statement) => T): readonly [T, T, T] => [
      as(p(sql.replace("$EXCLUDE", ""))),
      as(p(sql.replace("$EXCLUDE", "AND rowid NOT IN (SELECT value FROM json_each(@fired))"))),
      as(
        p(
          sql.replace(
            "$EXCLUDE",
            "AND (SELECT repo FROM files WHERE file_id = entry_text.rowid) IN (SELECT value FROM json_each(@repos))",
          ),
        ),
      ),
    ];
    this.#sql = {
      count: p(
        "SELECT count(*), max(rowid) FROM (SELECT rowid FROM entry_text WHERE entry_text MATCH ? LIMIT ?)",
      ).raw(),
      entriesUpTo: p(
        "SELECT count(*) FROM (SELECT 1 FROM entries WHERE file_id <= ? LIMIT ?)",
      ).pluck(),
      countMatches: both(
        "SELECT count(*) FROM (SELECT 1 FROM entry_text WHERE entry_text MATCH @expr $EXCLUDE LIMIT @limit)",
        (s) => s.pluck(),
      ),
      ranked: both(
        `SELECT rowid, bm25(entry_text, ${SUMMARY_WEIGHT}.0, 1.0) AS bm25 FROM entry_text
         WHERE entry_text MATCH @expr $EXCLUDE ORDER BY bm25, rowid LIMIT @limit`,
        (s) => s.raw(),
      ),
      rowids: both(
        "SELECT rowid FROM entry_text WHERE entry_text MATCH @expr $EXCLUDE LIMIT @limit OFFSET @offset",
        (s) => s.pluck(),
      ),
      matching: p(
        "SELECT rowid FROM entry_text WHERE entry_text MATCH ? AND rowid IN (SELECT value FROM json_each(?))",
      ).pluck(),
      terms: p("SELECT term, doc FROM entry_terms WHERE term >= ? AND term < ? LIMIT 256").raw(),
      // Rows this connection changed (any table) and commits seen from other connections.
      changes: p("SELECT total_changes(), data_version FROM pragma_data_version").raw(),
      // FTS5's structure record (rowid 10 of its data table): the list of segments with a
      // write counter, rewritten by every change of the full-text index.
      structure: p("SELECT block FROM entry_text_data WHERE id = 10").pluck(),
      entriesCapped: p("SELECT count(*) FROM (SELECT 1 FROM entries LIMIT ?)").pluck(),
      allRowids: p("SELECT rowid FROM entry_text WHERE entry_text MATCH ?").pluck(),
      entryIds: p(
        "SELECT file_id, id FROM entries WHERE file_id IN (SELECT value FROM json_each(?))",
      ).raw(),
    };
  }

  /**
   * Lists one page of text matches for the terms, by the rule in the module header.
   *
   * @param terms - the query's words (at least one).
   * @param options - paging, budget and the ids to leave out.
   */
  page(terms: readonly QueryTerm[], options: TextPageOptions): TextPage {
    this.#begin();
    const words: Word[] = [];
    for (const [i, term] of terms.entries()) {
      const word = this.#resolve(term, i, options.budget);
      if (word !== undefined && word.count > 0) words.push(word);
    }
    if (words.length === 0) {
      return { rows: [], total: 0, totalExact: true, alsoText: new Set(), mode: "ranked" };
    }
    this.#dropCommon(words, options.budget);
    const active = wordsWithinBudget(words, options.budget);
    const ranked = active.length > 0;
    const expr = (ranked ? active : words).map((word) => word.fts).join(" OR ");
    const v = options.excludeFired ? 1 : 0;
    const page = ranked ? this.#ranked(expr, v, options) : this.#broad(expr, v, options);
    const alsoText =
      options.check.length === 0
        ? new Set<number>()
        : new Set(this.#sql.matching.all(expr, JSON.stringify(options.check)) as number[]);
    return { ...page, alsoText, mode: ranked ? "ranked" : "broad" };
  }

  /**
   * Drops, in place, the words found in over half of the entries (see the module header),
   * unless all are; only words matching more than `budget` entries are looked at.
   */
  #dropCommon(words: Word[], budget: number): void {
    if (words.length < 2 || words.every((word) => word.count <= budget)) return;
    const common = words.map(
      (word) =>
        word.count > budget &&
        (this.#sql.entriesUpTo.get(word.last, 2 * word.count) as number) < 2 * word.count,
    );
    if (common.every(Boolean)) return;
    for (let i = words.length - 1; i >= 0; i--) if (common[i]) words.splice(i, 1);
  }

  /**
   * The text side of a recall, by the floor and budget of recall (recall "stop words and a
   * floor"):
   *
   * 1. **Floor.** A word found in over half of the entries (bm25 gives it no weight) finds
   *    no hit by itself when the query has rarer words (a hit found by a rarer word that
   *    holds it too still counts it as matched), and never when the query is stop words
   *    only (`stopWordsOnly`): an answer of 0 hits beats noise. A query of stop words
   *    only lists just the entries holding every one of them (`как в` finds «как … в»). Only a query whose every
   *    word is that common and not a stop word (`git` in a repository about git) is
   *    searched by those words. Judged exactly for a word matching at most `budget`
   *    entries, and on the entries up to its `budget + 1`-th match above that.
   * 2. **Ranked mode.** The rarest words whose counts add up to at most `budget` are
   *    searched (OR) and every match is returned with its relevance (`-bm25`) and the bit
   *    mask of the query terms it holds (the other words that passed the floor are looked
   *    up among those matches only).
   * 3. **Broad mode.** When even the rarest word matches more than `budget` entries: the
   *    first `need` matches, summary matches first, relevance 0, masks as above; the total
   *    is counted up to `totalCap`.
   *
   * Cost: bounded by `budget` rows plus `need`, whatever the size of the index.
   *
   * @param terms - the query's terms (at most 32).
   * @param options - `budget`, `totalCap`, `need` (rows a page needs in broad mode),
   *   `stopWordsOnly` (the terms are stop words: common ones never count), `termMasks` (the
   *   bits each term sets in a row's mask; default bit *i* for term *i*), `repos` (only the
   *   entries of these index repositories are listed and counted, the set applied in SQL;
   *   the floor, the choice of words and bm25 stay those of the whole index, so a filtered
   *   recall lists exactly the unfiltered one's matches of those repositories, in the same
   *   order with the same relevance).
   *   `top` (over the whole index only, not with `repos`): when the query's one word that
   *   passed the floor is the one ranked, every match holds the same terms, so a caller
   *   ranking by relevance needs only the best: then `rows` are its `top` best matches by
   *   relevance (ties by rowid), `complete` false when more follow, and `total` still every
   *   match (exact). FTS5 still scores every match, but only `top` rows are read out and
   *   ranked in JavaScript (a word matching 643 of 100k entries: 0.70 → 0.32 ms in SQLite).
   */
  matches(
    terms: readonly QueryTerm[],
    options: {
      budget: number;
      totalCap: number;
      need: number;
      stopWordsOnly?: boolean;
      termMasks?: readonly number[];
      repos?: readonly string[];
      top?: number;
    },
  ): TextMatches {
    const { budget } = options;
    const within = options.repos === undefined ? undefined : JSON.stringify(options.repos);
    const v = within === undefined ? 0 : 2;
    this.#begin();
    const found: Word[] = [];
    for (const [i, term] of terms.entries()) {
      const word = this.#resolve(term, i, budget);
      if (word !== undefined && word.count > 0) found.push(word);
    }
    const none: TextMatches = {
      rows: [],
      complete: true,
      total: 0,
      totalExact: true,
      mode: "ranked",
    };
    // A query of stop words only must find them all, none of them common (see the floor).
    if (options.stopWordsOnly && found.length < terms.length) return none;
    // The floor of a lone word (not a stop word) decides nothing: common or not, it is the
    // word searched. It is judged only where it can matter (one or two entry reads saved).
    const judged = options.stopWordsOnly || found.length > 1;
    const common = found.map((word) => judged && this.#isCommon(word, budget));
    if (options.stopWordsOnly && common.some(Boolean)) return none;
    const keepCommon = !options.stopWordsOnly && common.every(Boolean);
    const words = found.filter((_, i) => keepCommon || !common[i]);
    // A common word finds no hit by itself, but a hit found by a rarer word that holds it
    // too matches it: it counts towards the words matched (not for stop words).
    const alsoHeld = options.stopWordsOnly ? [] : found.filter((_, i) => !keepCommon && common[i]);
    if (words.length === 0) return none;
    words.sort((a, b) => a.count - b.count);
    const active: Word[] = [];
    let sum = 0;
    for (const word of words) {
      if (sum + word.count > budget) break;
      active.push(word);
      sum += word.count;
    }
    const masks = options.termMasks ?? [];
    const bit = (word: Word) => masks[word.term] ?? 1 << word.term;
    if (active.length > 0) {
      const expr = active.map((word) => word.fts).join(" OR ");
      const one = active[0] as Word;
      if (
        options.top !== undefined &&
        v === 0 &&
        !options.stopWordsOnly &&
        words.length === 1 &&
        alsoHeld.length === 0 &&
        options.top < one.count
      ) {
        const best = this.#sql.ranked[0].all({ expr, limit: options.top }) as [number, number][];
        const mask = bit(one);
        return {
          rows: best.map(([fileId, bm25]) => ({ fileId, mask, relevance: Math.max(0, -bm25) })),
          complete: false,
          total: one.count,
          totalExact: true,
          mode: "ranked",
        };
      }
      const ranked = this.#sql.ranked[v].all(
        this.#params(v, { expr, limit: budget + 1 }, within),
      ) as [number, number][];
      const rows = new Map<number, TextMatch>();
      for (const [fileId, bm25] of ranked) {
        const only = active.length === 1 ? bit(active[0] as Word) : 0;
        rows.set(fileId, { fileId, mask: only, relevance: Math.max(0, -bm25) });
      }
      if (active.length > 1) {
        for (const word of active) {
          for (const fileId of this.#sql.allRowids.all(word.fts) as number[]) {
            const row = rows.get(fileId);
            if (row !== undefined) row.mask |= bit(word);
          }
        }
      }
      this.#markAmong(rows, [...words.slice(active.length), ...alsoHeld], bit);
      let list = [...rows.values()];
      if (options.stopWordsOnly) {
        const all = words.reduce((mask, word) => mask | bit(word), 0);
        list = list.filter((row) => row.mask === all);
      }
      return { rows: list, complete: true, total: list.length, totalExact: true, mode: "ranked" };
    }
    const expr = words.map((word) => word.fts).join(" OR ");
    // Every word here matches more than `budget` entries, so together they match more than
    // a `totalCap` within the budget: over the whole index that total needs no count.
    const known = v === 0 && options.totalCap <= budget ? options.totalCap + 1 : undefined;
    const page = this.#broad(
      expr,
      v,
      { ...EMPTY_PAGE, offset: 0, limit: options.need, totalCap: options.totalCap },
      within,
      known,
    );
    const rows = new Map<number, TextMatch>(
      page.rows.map(({ fileId }) => [fileId, { fileId, mask: 0, relevance: 0 }]),
    );
    this.#markAmong(rows, [...words, ...alsoHeld], bit);
    return {
      rows: [...rows.values()],
      complete: false,
      total: page.total,
      totalExact: page.totalExact,
      mode: "broad",
    };
  }

  /** Sets each word's bit on the rows whose text holds it (a lookup among those rows only). */
  #markAmong(
    rows: Map<number, TextMatch>,
    words: readonly Word[],
    bit: (word: Word) => number,
  ): void {
    if (rows.size === 0 || words.length === 0) return;
    const ids = JSON.stringify([...rows.keys()]);
    for (const word of words) {
      for (const fileId of this.#sql.matching.all(word.fts, ids) as number[]) {
        const row = rows.get(fileId);
        if (row !== undefined) row.mask |= bit(word);
      }
    }
  }

  /**
   * Whether a word is found in over half of the entries: exactly when it matches at most
   * `budget` entries (the entries are counted up to twice its count), else judged on the
   * entries up to its `budget + 1`-th match.
   */
  #isCommon(word: Word, budget: number): boolean {
    const kept = word.kept;
    if (kept?.judgedAt === this.#changes && kept.common !== undefined) return kept.common;
    const common =
      word.count <= budget
        ? (this.#sql.entriesCapped.get(2 * word.count) as number) < 2 * word.count
        : (this.#sql.entriesUpTo.get(word.last, 2 * word.count) as number) < 2 * word.count;
    if (kept !== undefined) {
      kept.common = common;
      kept.judgedAt = this.#changes;
    }
    return common;
  }

  /**
   * Starts a call: decides whether expansions and counts may be read and kept, and forgets
   * them when the full-text index changed. Inside a write transaction of this connection
   * FTS5 holds new rows in memory, not yet in a segment (the structure record is
   * unchanged): nothing is read from or kept in them then. An index without a structure
   * record yet (nothing ever written) keeps nothing either.
   *
   * Cost: two one-row reads (≈ 5 µs each); a kept count saves a count of up to
   * `budget + 1` matches and a floor judged saves one or two entry counts (≈ 0.1–0.2 ms
   * a word at 100k entries).
   */
  #begin(): void {
    if (this.#db.inTransaction) {
      this.#keep = false;
      return;
    }
    const structure = this.#sql.structure.get() as Buffer | undefined;
    if (
      structure === undefined ||
      this.#structure === undefined ||
      !structure.equals(this.#structure)
    ) {
      this.#expansions.clear();
      this.#counts.clear();
      this.#structure = structure;
    }
    this.#keep = structure !== undefined;
    const [changes, version] = this.#sql.changes.get() as [number, number];
    this.#changes = `${changes}:${version}`;
  }

  /**
   * The FTS5 expression of a term and its (capped) count; prefixes are expanded. A count
   * is the one FTS5 gives for the same expression and limit, kept or not (see `#counts`).
   */
  #resolve(term: QueryTerm, index: number, budget: number): Word | undefined {
    let fts: string | undefined = term.fts;
    if (term.prefix && term.stems.length === 1) {
      fts = this.#expand(term.stems[0] as string);
      if (fts === undefined) return undefined;
    }
    const key = `${budget} ${fts}`;
    let kept = this.#keep ? this.#counts.get(key) : undefined;
    if (kept === undefined) {
      const [count, last] = this.#sql.count.get(fts, budget + 1) as [number, number | null];
      kept = { count, last: last ?? 0 };
      if (this.#keep) {
        if (this.#counts.size >= WORD_COUNT_CACHE_SIZE) {
          const oldest = this.#counts.keys().next();
          if (oldest.done !== true) this.#counts.delete(oldest.value);
        }
        this.#counts.set(key, kept);
      } else return { term: index, fts, count: kept.count, last: kept.last };
    }
    return { term: index, fts, count: kept.count, last: kept.last, kept };
  }

  /**
   * The FTS5 expression of a prefix: its {@link MAX_EXPANSIONS} indexed stems with the most
   * documents (ties by stem), OR-ed, most documents first; `undefined` when no stem has it.
   *
   * The document counts come from `entry_terms` (fts5vocab), which walks every matching
   * stem's whole doclist: 1–3 ms at 100k entries for a prefix of a common word, the largest
   * part of a prefix recall. They change only with the full-text index, so expansions are
   * kept while FTS5's structure record stays the same (one row read, ≈ 3 µs): any write
   * to `entry_text` — by this connection or another process — writes a new segment or
   * merges, and so rewrites that record (checked once a call, by {@link #begin}). A kept
   * expansion is the very string the vocabulary gives, so hits and scores are those of a
   * fresh lookup.
   */
  #expand(prefix: string): string | undefined {
    if (!this.#keep) return this.#lookUpExpansion(prefix);
    if (this.#expansions.has(prefix)) return this.#expansions.get(prefix);
    const fts = this.#lookUpExpansion(prefix);
    if (this.#expansions.size >= EXPANSION_CACHE_SIZE) {
      const oldest = this.#expansions.keys().next();
      if (oldest.done !== true) this.#expansions.delete(oldest.value);
    }
    this.#expansions.set(prefix, fts);
    return fts;
  }

  /** {@link #expand} without the kept expansions: read from the vocabulary. */
  #lookUpExpansion(prefix: string): string | undefined {
    const found = this.#sql.terms.all(prefix, `${prefix}\u{10ffff}`) as [string, number][];
    const top = found
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_EXPANSIONS)
      .map(([text]) => quote(text));
    if (top.length === 0) return undefined;
    return top.length === 1 ? (top[0] as string) : `(${top.join(" OR ")})`;
  }

  /**
   * The statement parameters: with the fired entries' ids for a `[1]` variant, with the
   * repositories (`repos`, JSON) for a `[2]` one.
   */
  #params<T extends object>(v: 0 | 1 | 2, params: T, repos?: string): T {
    if (v === 0) return params;
    if (v === 2) return { ...params, repos: repos ?? "[]" };
    return { ...params, fired: JSON.stringify(this.#firedIds()) };
  }

  #ranked(
    expr: string,
    v: 0 | 1,
    options: TextPageOptions,
  ): Pick<TextPage, "rows" | "total" | "totalExact"> {
    const need = options.offset + options.limit;
    if (options.limit === 0) {
      const total = this.#sql.countMatches[v].get(
        this.#params(v, { expr, limit: options.budget + 1 }),
      );
      return { rows: [], total: total as number, totalExact: true };
    }
    let rows: [number, number][] = [];
    // Fetch one row past the page; while the last rows tie, fetch more, so that a tie group
    // crossing the page boundary is ordered by entry id whole.
    for (let limit = need + 1; ; limit *= 2) {
      rows = this.#sql.ranked[v].all(this.#params(v, { expr, limit })) as [number, number][];
      const last = rows.length - 1;
      if (
        rows.length < limit ||
        (rows[last] as [number, number])[1] !== (rows[last - 1] as [number, number])[1]
      )
        break;
    }
    rows = this.#orderTiesById(rows);
    const total =
      rows.length <= need
        ? rows.length
        : (this.#sql.countMatches[v].get(
            this.#params(v, { expr, limit: options.budget + 1 }),
          ) as number);
    return {
      rows: rows
        .slice(options.offset, need)
        .map(([fileId, bm25]) => ({ fileId, score: roundScore(-bm25) })),
      total,
      totalExact: true,
    };
  }

  /** Orders rows of equal bm25 by entry id (so rebuilt indexes agree), others as they are. */
  #orderTiesById(rows: [number, number][]): [number, number][] {
    const tied = new Set<number>();
    for (let i = 1; i < rows.length; i++) {
      const prev = rows[i - 1] as [number, number];
      const row = rows[i] as [number, number];
      if (prev[1] === row[1]) {
        tied.add(prev[0]);
        tied.add(row[0]);
      }
    }
    if (tied.size === 0) return rows;
    const ids = new Map(this.#sql.entryIds.all(JSON.stringify([...tied])) as [number, string][]);
    return rows.sort((a, b) => {
      if (a[1] !== b[1]) return a[1] - b[1];
      const ia = ids.get(a[0]) ?? "";
      const ib = ids.get(b[0]) ?? "";
      return ia < ib ? -1 : ia > ib ? 1 : 0;
    });
  }

  /**
   * A broad page (module header, rule 3). `known`: the matches of `expr` counted up to
   * `totalCap + 1` when the caller knows it already (no count then).
   */
  #broad(
    expr: string,
    v: 0 | 1 | 2,
    options: TextPageOptions,
    repos?: string,
    known?: number,
  ): Pick<TextPage, "rows" | "total" | "totalExact"> {
    const { offset, limit } = options;
    const inSummary = `{summary} : (${expr})`;
    let rows: number[] = [];
    // How many summary matches there are, up to the end of this page: on the first page,
    // the summary rows listed themselves (one query less).
    let summaries: number;
    if (offset === 0) {
      rows = this.#sql.rowids[v].all(
        this.#params(v, { expr: inSummary, limit, offset }, repos),
      ) as number[];
      summaries = rows.length;
    } else {
      summaries = this.#sql.countMatches[v].get(
        this.#params(v, { expr: inSummary, limit: offset + limit }, repos),
      ) as number;
      if (offset < summaries) {
        rows = this.#sql.rowids[v].all(
          this.#params(v, { expr: inSummary, limit, offset }, repos),
        ) as number[];
      }
    }
    if (rows.length < limit && summaries < offset + limit) {
      rows = rows.concat(
        this.#sql.rowids[v].all(
          this.#params(
            v,
            {
              expr: `(${expr}) NOT ${inSummary}`,
              limit: limit - rows.length,
              offset: Math.max(0, offset - summaries),
            },
            repos,
          ),
        ) as number[],
      );
    }
    const cap = options.totalCap;
    const count =
      known ??
      (this.#sql.countMatches[v].get(this.#params(v, { expr, limit: cap + 1 }, repos)) as number);
    return {
      rows: rows.map((fileId) => ({ fileId, score: 0 })),
      total: Math.min(count, cap),
      totalExact: count <= cap,
    };
  }
}

/** Paging options with nothing to leave out (for the broad listing of {@link TextSearch.matches}). */
const EMPTY_PAGE: TextPageOptions = {
  offset: 0,
  limit: 0,
  budget: 0,
  totalCap: 0,
  excludeFired: false,
  check: [],
};

/** An FTS5 string literal (stems never hold `"`; doubling it is defence in depth). */
function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * Rounds a score to 4 significant digits for display (ordering uses the full value); bm25
 * gives a word found in over half the entries an idf of 1e-6, so its scores are tiny.
 */
export function roundScore(score: number): number {
  return Number(score.toPrecision(4));
}
