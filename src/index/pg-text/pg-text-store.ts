/**
 * Lore's full text on PostgreSQL (scale-out: PostgreSQL): the same analysed text as SQLite's
 * `entry_text` (`entryText`: NFC, lower case, `ё` → `е`, Snowball stems and Lore's key
 * rule, all computed in Lore) and a search that answers what `TextSearch.page` answers for
 * the same query over the same entries: the same ids, in the same order, with the same
 * scores (FTS5's bm25 recomputed in `fts5-bm25.ts`; scores agree to 1e-12 relative, the
 * rounded scores of a page exactly), the same prefix expansion (the {@link MAX_EXPANSIONS}
 * most frequent stems among the first 256 of the vocabulary in byte order), the same
 * budget, floor and broad mode (see `text-search.ts`'s header), ties by entry id.
 *
 * How a query runs: `text_postings` (each stem of each row with its frequency in the
 * summary and the body, under a covering primary key in `(term, doc_id)` order — FTS5's
 * doclists) gives the matching rows in `doc_id` order and the term frequencies; a phrase
 * of several stems (`pre-receive`), a native prefix phrase, or a stem longer than
 * {@link MAX_KEY_LENGTH} is decided and counted on the stored text of the rows holding all
 * its stems; bm25 is computed here over the ranked rows (at most `budget`), with the
 * vocabulary's row counts and the table's totals.
 *
 * Asynchronous (node-postgres): NOT wired into `EntryIndex`, whose callers are synchronous.
 */
import type pg from "pg";
import { entryText } from "../../core/entry/index-document.js";
import type { QueryTerm } from "../../core/recall/search-query.js";
import { applyPgMigrations } from "../pg-apply-migrations.js";
import { inPgTransaction } from "../pg-transaction.js";
import { pgServerDbError } from "../server-store/pg-db-error.js";
import { createPool } from "../server-store/pg-server-store.js";
import { wordsWithinBudget } from "../text-budget.js";
import { MAX_EXPANSIONS, roundScore, SUMMARY_WEIGHT, type TextPage } from "../text-search.js";
import { fts5Bm25, fts5Idf } from "./fts5-bm25.js";
import { PG_TEXT_MIGRATION_LOCK_KEY, PG_TEXT_MIGRATIONS } from "./pg-text-migrations.js";
import { columnTokens, type Phrase, phraseInstances } from "./phrase-match.js";

/**
 * Longest stem (UTF-16 units) kept whole in the postings and the vocabulary; longer stems
 * are keyed by their first units (a B-tree key must stay under 2.7 KB) and a query word
 * holding one is checked on the stored text.
 */
export const MAX_KEY_LENGTH = 500;

/** Rows fetched per round trip when candidates are walked in `doc_id` order. */
const SCAN_BATCH = 5_000;

/** One entry's text to store. */
export interface PgTextDocument {
  /** The row's id (the SQLite index's `file_id` when both hold the same entries). */
  docId: number;
  /** The entry's id (bm25 ties are ordered by it). */
  entryId: string;
  /** The display summary (`ParsedEntry.summary`), analysed here. */
  summary: string;
  /** The body, analysed here. */
  body: string;
}

/** Options of {@link PgTextStore.page}: those of `TextSearch.page`, fired ids given as a list. */
export interface PgTextPageOptions {
  /** Rows to skip. */
  offset: number;
  /** Rows to return at most. */
  limit: number;
  /** Most matches ranked (see `text-search.ts`). */
  budget: number;
  /** Most matches counted for the total of a broad query. */
  totalCap: number;
  /** Rows left out of rows and total (`TextSearch`'s `excludeFired` with these ids). */
  exclude?: readonly number[];
  /** Row ids to test for a text match too (`alsoText`). */
  check: readonly number[];
}

/** A query word resolved to its phrases (several for an expanded prefix) and its count. */
interface Word {
  term: number;
  phrases: Phrase[];
  /** Rows matched, counted up to `budget + 1`. */
  count: number;
  /** The `doc_id` of the last row counted. */
  last: number;
}

/** Which column a walk looks at: FTS5's plain match, `{summary} : (…)`, or `(…) NOT {summary} : (…)`. */
type Column = "any" | "summary" | "bodyOnly";

/** A candidate row as a walk yields it. */
interface ScanRow {
  docId: number;
  entryId: string;
  tokens: number;
  summary?: string;
  body?: string;
}

/** Options of a walk over matching rows. */
interface ScanOptions {
  column: Column;
  exclude?: readonly number[];
  only?: readonly number[];
  /** Fetch the analysed text (for bm25), even when no phrase needs checking. */
  texts?: boolean;
  /** Rows wanted (the first batch's size). */
  want?: number;
}

/** A stem's key in the postings and the vocabulary (whole, or cut at {@link MAX_KEY_LENGTH}). */
export function stemKey(stem: string): string {
  if (stem.length <= MAX_KEY_LENGTH) return stem;
  const cut = stem.charCodeAt(MAX_KEY_LENGTH - 1);
  // Never cut a surrogate pair in half.
  return stem.slice(0, cut >= 0xd800 && cut <= 0xdbff ? MAX_KEY_LENGTH - 1 : MAX_KEY_LENGTH);
}

/** Whether a phrase's rows must be checked on the stored text (the index finds a superset). */
function needsCheck(phrase: Phrase): boolean {
  return phrase.tokens.length > 1 || phrase.tokens.some((t) => t.length >= MAX_KEY_LENGTH);
}

/**
 * Whether a phrase's frequencies are counted here on the fetched text (several stems, a
 * prefix, a long stem); one-stem phrases are counted by PostgreSQL.
 */
function countedOnText(phrase: Phrase): boolean {
  return phrase.prefix || needsCheck(phrase);
}

/** The FTS5 phrase of a query term (as `orExpression` writes it). */
function termPhrase(term: QueryTerm): Phrase {
  return { tokens: term.stems, prefix: term.prefix };
}

/**
 * The full-text store on PostgreSQL. Open with {@link openPgTextStore}; every method may
 * throw LoreError `database_unavailable` (the server cannot be reached) or `index_failed`.
 */
export class PgTextStore {
  readonly #pool: pg.Pool;

  /** @param pool - a pool over a migrated database ({@link openPgTextStore}). */
  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Ends the pool. */
  async close(): Promise<void> {
    await this.#pool.end();
  }

  /**
   * Inserts or replaces documents (by `docId`) in one transaction, keeping the vocabulary's
   * row counts and the totals those of a fresh load (so scores after a replace equal a
   * fresh load's).
   *
   * @param docs - documents with distinct `docId`s.
   */
  async put(docs: readonly PgTextDocument[]): Promise<void> {
    if (docs.length === 0) return;
    await this.#transaction(async (client) => {
      const delta = new Map<string, number>();
      let rows = 0;
      let tokens = 0;
      const removed = await client.query<RemovedRow>(
        "DELETE FROM text_docs WHERE doc_id = ANY($1::bigint[]) RETURNING doc_id, summary, body, tokens",
        [docs.map((d) => d.docId)],
      );
      const gone = new Postings();
      for (const row of removed.rows) {
        rows -= 1;
        tokens -= row.tokens;
        const keys = gone.add(row.doc_id, columnTokens(row.summary), columnTokens(row.body));
        for (const key of keys) delta.set(key, (delta.get(key) ?? 0) - 1);
      }
      await gone.delete(client);
      const added = new Postings();
      const ids: number[] = [];
      const entryIds: string[] = [];
      const summaries: string[] = [];
      const bodies: string[] = [];
      const counts: number[] = [];
      for (const doc of docs) {
        const text = entryText(doc.summary, doc.body);
        const s = columnTokens(text.summaryText);
        const b = columnTokens(text.bodyText);
        ids.push(doc.docId);
        entryIds.push(doc.entryId);
        summaries.push(text.summaryText);
        bodies.push(text.bodyText);
        counts.push(s.length + b.length);
        rows += 1;
        tokens += s.length + b.length;
        for (const key of added.add(doc.docId, s, b)) delta.set(key, (delta.get(key) ?? 0) + 1);
      }
      await client.query(
        `INSERT INTO text_docs (doc_id, entry_id, summary, body, tokens)
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[])`,
        [ids, entryIds, summaries, bodies, counts],
      );
      await added.insert(client);
      await this.#applyDelta(client, delta);
      await client.query("UPDATE text_totals SET docs = docs + $1, tokens = tokens + $2", [
        rows,
        tokens,
      ]);
    });
  }

  /**
   * Removes documents by id (absent ids are ignored), in one transaction.
   *
   * @param docIds - the ids.
   * @returns how many were removed.
   */
  async remove(docIds: readonly number[]): Promise<number> {
    if (docIds.length === 0) return 0;
    return this.#transaction(async (client) => {
      const removed = await client.query<RemovedRow>(
        "DELETE FROM text_docs WHERE doc_id = ANY($1::bigint[]) RETURNING doc_id, summary, body, tokens",
        [docIds],
      );
      const delta = new Map<string, number>();
      let tokens = 0;
      const gone = new Postings();
      for (const row of removed.rows) {
        tokens += row.tokens;
        const keys = gone.add(row.doc_id, columnTokens(row.summary), columnTokens(row.body));
        for (const key of keys) delta.set(key, (delta.get(key) ?? 0) - 1);
      }
      await gone.delete(client);
      await this.#applyDelta(client, delta);
      await client.query("UPDATE text_totals SET docs = docs - $1, tokens = tokens - $2", [
        removed.rows.length,
        tokens,
      ]);
      return removed.rows.length;
    });
  }

  /** Rows in the table. */
  async count(): Promise<number> {
    const found = await this.#query<{ docs: number }>("SELECT docs FROM text_totals");
    return found.rows[0]?.docs ?? 0;
  }

  /**
   * One page of text matches, by `TextSearch.page`'s rule (ranked / broad, budget, the
   * floor of words in over half the rows), over this store's rows.
   *
   * @param terms - the query's words (`parseSearchQuery(…).terms`, at least one).
   * @param options - paging, budget, the ids to leave out and to check.
   * @returns the page (`score` rounded to 4 significant digits, as SQLite's page).
   */
  async page(terms: readonly QueryTerm[], options: PgTextPageOptions): Promise<TextPage> {
    const words: Word[] = [];
    for (const [i, term] of terms.entries()) {
      const word = await this.#resolve(term, i, options.budget);
      if (word !== undefined && word.count > 0) words.push(word);
    }
    if (words.length === 0) {
      return { rows: [], total: 0, totalExact: true, alsoText: new Set(), mode: "ranked" };
    }
    await this.#dropCommon(words, options.budget);
    const active = wordsWithinBudget(words, options.budget);
    const ranked = active.length > 0;
    const phrases = (ranked ? active : words).flatMap((word) => word.phrases);
    const page = ranked
      ? await this.#ranked(phrases, options)
      : await this.#broad(phrases, options);
    const alsoText = new Set<number>();
    if (options.check.length > 0) {
      for await (const row of this.#scan(phrases, { column: "any", only: options.check }))
        alsoText.add(row.docId);
    }
    return { ...page, alsoText, mode: ranked ? "ranked" : "broad" };
  }

  /**
   * FTS5's `bm25(entry_text, 3.0, 1.0)` of every row matching `orExpression(terms)` as FTS5
   * reads it (a prefix word is FTS5's own prefix phrase, not expanded; no budget): what
   * the parity test compares with SQLite at full precision.
   *
   * @param terms - the query's words.
   * @returns row id → bm25 (negative; lower is better).
   */
  async bm25(terms: readonly QueryTerm[]): Promise<Map<number, number>> {
    const phrases = terms.map(termPhrase);
    const rows: ScanRow[] = [];
    const texts = phrases.some(countedOnText);
    for await (const row of this.#scan(phrases, { column: "any", texts })) rows.push(row);
    const scores = await this.#score(phrases, rows);
    return new Map(rows.map((row, i) => [row.docId, scores[i] as number]));
  }

  /** The phrases of a term, its prefix expanded through the vocabulary, and its count. */
  async #resolve(term: QueryTerm, index: number, budget: number): Promise<Word | undefined> {
    let phrases = [termPhrase(term)];
    if (term.prefix && term.stems.length === 1) {
      const prefix = term.stems[0] as string;
      const found = await this.#query<{ term: string; docs: number }>(
        "SELECT term, docs FROM text_terms WHERE term >= $1 AND term < $2 ORDER BY term LIMIT 256",
        [prefix, `${prefix}\u{10ffff}`],
      );
      const top = found.rows
        .map((row): [string, number] => [row.term, row.docs])
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, MAX_EXPANSIONS);
      if (top.length === 0) return undefined;
      phrases = top.map(([text]) => ({ tokens: [text], prefix: false }));
    }
    const { count, last } = await this.#count(phrases, budget + 1, {});
    return { term: index, phrases, count, last };
  }

  /** Drops the words found in over half the rows, as `TextSearch` does (its `#dropCommon`). */
  async #dropCommon(words: Word[], budget: number): Promise<void> {
    if (words.length < 2 || words.every((word) => word.count <= budget)) return;
    const common: boolean[] = [];
    for (const word of words) {
      if (word.count <= budget) {
        common.push(false);
        continue;
      }
      const upTo = await this.#query<{ n: number }>(
        "SELECT count(*) AS n FROM (SELECT 1 FROM text_docs WHERE doc_id <= $1 LIMIT $2) AS t",
        [word.last, 2 * word.count],
      );
      common.push((upTo.rows[0]?.n ?? 0) < 2 * word.count);
    }
    if (common.every(Boolean)) return;
    for (let i = words.length - 1; i >= 0; i--) if (common[i]) words.splice(i, 1);
  }

  /** Ranked mode: every match (at most `budget`) scored, ordered by bm25 then entry id. */
  async #ranked(
    phrases: readonly Phrase[],
    options: PgTextPageOptions,
  ): Promise<Pick<TextPage, "rows" | "total" | "totalExact">> {
    const scan: ScanOptions = {
      column: "any",
      texts: options.limit > 0 && phrases.some(countedOnText),
      want: options.budget + 1,
    };
    if (options.exclude !== undefined) scan.exclude = options.exclude;
    const rows: ScanRow[] = [];
    for await (const row of this.#scan(phrases, scan)) rows.push(row);
    if (options.limit === 0) {
      return { rows: [], total: Math.min(rows.length, options.budget + 1), totalExact: true };
    }
    const scores = await this.#score(phrases, rows);
    const order = rows.map((row, i) => ({ row, bm25: scores[i] as number }));
    order.sort(
      (a, b) =>
        a.bm25 - b.bm25 ||
        (a.row.entryId < b.row.entryId ? -1 : a.row.entryId > b.row.entryId ? 1 : 0) ||
        a.row.docId - b.row.docId,
    );
    return {
      rows: order
        .slice(options.offset, options.offset + options.limit)
        .map(({ row, bm25 }) => ({ fileId: row.docId, score: roundScore(-bm25) })),
      total: rows.length,
      totalExact: true,
    };
  }

  /** Broad mode: summary matches first, then the others, each in `doc_id` order; scores 0. */
  async #broad(
    phrases: readonly Phrase[],
    options: PgTextPageOptions,
  ): Promise<Pick<TextPage, "rows" | "total" | "totalExact">> {
    const { offset, limit } = options;
    const base = options.exclude === undefined ? {} : { exclude: options.exclude };
    const summaries = (await this.#count(phrases, offset + limit, { ...base, column: "summary" }))
      .count;
    let rows: number[] = [];
    if (offset < summaries) {
      rows = await this.#list(phrases, { ...base, column: "summary" }, offset, limit);
    }
    if (rows.length < limit && summaries < offset + limit) {
      rows = rows.concat(
        await this.#list(
          phrases,
          { ...base, column: "bodyOnly" },
          Math.max(0, offset - summaries),
          limit - rows.length,
        ),
      );
    }
    const cap = options.totalCap;
    const count = (await this.#count(phrases, cap + 1, { ...base, column: "any" })).count;
    return {
      rows: rows.map((fileId) => ({ fileId, score: 0 })),
      total: Math.min(count, cap),
      totalExact: count <= cap,
    };
  }

  /** bm25 of each row (same order), over the phrases, from the rows' text and the totals. */
  async #score(phrases: readonly Phrase[], rows: readonly ScanRow[]): Promise<number[]> {
    if (rows.length === 0) return [];
    const totals = await this.#query<{ docs: number; tokens: number }>(
      "SELECT docs, tokens FROM text_totals",
    );
    const { docs, tokens } = totals.rows[0] as { docs: number; tokens: number };
    const avgdl = tokens / docs;
    const idfs: number[] = [];
    for (const phrase of phrases) idfs.push(fts5Idf(docs, await this.#hits(phrase)));
    if (!phrases.some(countedOnText)) {
      const counts = await this.#frequencies(phrases, rows);
      return rows.map((row) => {
        const [s, b] = counts.get(row.docId) as [number[], number[]];
        const freqs = phrases.map((_, i) => SUMMARY_WEIGHT * (s[i] as number) + (b[i] as number));
        return fts5Bm25(idfs, freqs, row.tokens, avgdl);
      });
    }
    return rows.map((row) => {
      const s = columnTokens(row.summary ?? "");
      const b = columnTokens(row.body ?? "");
      const freqs = phrases.map(
        (phrase) => SUMMARY_WEIGHT * phraseInstances(phrase, s) + phraseInstances(phrase, b),
      );
      return fts5Bm25(idfs, freqs, row.tokens, avgdl);
    });
  }

  /**
   * Each row's occurrences of each one-stem phrase in the summary and in the body, from
   * `text_postings` (no text is fetched).
   */
  async #frequencies(
    phrases: readonly Phrase[],
    rows: readonly ScanRow[],
  ): Promise<Map<number, [number[], number[]]>> {
    const terms = phrases.map((phrase) => phrase.tokens[0] as string);
    const found = await this.#query<{
      doc_id: number;
      term: string;
      summary_tf: number;
      body_tf: number;
    }>(
      `SELECT doc_id, term, summary_tf, body_tf FROM text_postings
       WHERE term = ANY($1::text[]) AND doc_id = ANY($2::bigint[])`,
      [terms, rows.map((row) => row.docId)],
    );
    const out = new Map<number, [number[], number[]]>();
    for (const row of rows) out.set(row.docId, [terms.map(() => 0), terms.map(() => 0)]);
    for (const row of found.rows) {
      const [s, b] = out.get(row.doc_id) as [number[], number[]];
      // A term may stand for several phrases (a word and one of a prefix's expansions).
      terms.forEach((term, i) => {
        if (term === row.term) {
          s[i] = row.summary_tf;
          b[i] = row.body_tf;
        }
      });
    }
    return out;
  }

  /** The rows holding a phrase in any column (FTS5's nHit), over the whole table. */
  async #hits(phrase: Phrase): Promise<number> {
    if (!phrase.prefix && !needsCheck(phrase)) {
      const found = await this.#query<{ docs: number }>(
        "SELECT docs FROM text_terms WHERE term = $1",
        [phrase.tokens[0]],
      );
      return found.rows[0]?.docs ?? 0;
    }
    return (await this.#count([phrase], Number.POSITIVE_INFINITY, {})).count;
  }

  /**
   * Counts the matching rows up to `limit`, with the `doc_id` of the last one counted (in
   * one statement when no phrase needs checking on the text).
   */
  async #count(
    phrases: readonly Phrase[],
    limit: number,
    options: Partial<ScanOptions>,
  ): Promise<{ count: number; last: number }> {
    if (limit <= 0) return { count: 0, last: 0 };
    const scan: ScanOptions = { column: "any", ...options };
    if (!phrases.some(needsCheck)) {
      const params: unknown[] = [];
      let sql = postingsQuery(phrases, scan, params);
      if (Number.isFinite(limit)) {
        params.push(limit);
        sql += ` ORDER BY doc_id LIMIT $${params.length}`;
      }
      const found = await this.#query<{ n: number; last: number | null }>(
        `SELECT count(*) AS n, max(doc_id) AS last FROM (${sql}) AS t`,
        params,
      );
      const row = found.rows[0];
      return { count: row?.n ?? 0, last: row?.last ?? 0 };
    }
    let count = 0;
    let last = 0;
    const want = Number.isFinite(limit) ? limit : SCAN_BATCH;
    for await (const row of this.#scan(phrases, { ...scan, want })) {
      count += 1;
      last = row.docId;
      if (count >= limit) break;
    }
    return { count, last };
  }

  /** The ids of the matching rows `offset` to `offset + limit`, in `doc_id` order. */
  async #list(
    phrases: readonly Phrase[],
    options: ScanOptions,
    offset: number,
    limit: number,
  ): Promise<number[]> {
    const out: number[] = [];
    if (limit <= 0) return out;
    let skip = offset;
    for await (const row of this.#scan(phrases, { ...options, want: offset + limit })) {
      if (skip > 0) {
        skip -= 1;
        continue;
      }
      out.push(row.docId);
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * Walks the rows matching any of the phrases (in the column asked) in `doc_id` order, in
   * batches: `text_postings` gives the rows (exactly for one-stem phrases; for the others,
   * the rows holding all their stems, which the stored text then decides on).
   */
  async *#scan(phrases: readonly Phrase[], options: ScanOptions): AsyncGenerator<ScanRow> {
    const check = phrases.some(needsCheck);
    const texts = check || options.texts === true;
    const params: unknown[] = [];
    const columns = `d.doc_id, d.entry_id, d.tokens${texts ? ", d.summary, d.body" : ""}`;
    let sql: string;
    if (check) {
      const candidates = candidatesQuery(phrases, params);
      sql = `SELECT ${columns} FROM text_docs AS d WHERE d.doc_id IN (${candidates})
        ${keptIds(options, params, "d.doc_id")}
        AND d.doc_id > $${params.length + 1} ORDER BY d.doc_id LIMIT $${params.length + 2}`;
    } else {
      const matched = postingsQuery(phrases, options, params, "$AFTER").replace(
        "$AFTER",
        `$${params.length + 1}`,
      );
      sql = `SELECT ${columns} FROM (${matched} ORDER BY doc_id LIMIT $${params.length + 2}) AS m
        JOIN text_docs AS d USING (doc_id) ORDER BY d.doc_id`;
    }
    let after = -1;
    let batch = Math.min(Math.max(options.want ?? SCAN_BATCH, 1), SCAN_BATCH);
    for (;;) {
      const found = await this.#query<ScanRow & { doc_id: number; entry_id: string }>(sql, [
        ...params,
        after,
        batch,
      ]);
      for (const row of found.rows) {
        const out: ScanRow = { docId: row.doc_id, entryId: row.entry_id, tokens: row.tokens };
        if (texts) {
          out.summary = row.summary as string;
          out.body = row.body as string;
        }
        if (!check || textMatches(phrases, out, options.column)) yield out;
      }
      if (found.rows.length < batch) return;
      after = (found.rows.at(-1) as { doc_id: number }).doc_id;
      batch = SCAN_BATCH;
    }
  }

  /** Applies vocabulary row-count changes (stems in byte order, so writers lock alike). */
  async #applyDelta(client: pg.PoolClient, delta: Map<string, number>): Promise<void> {
    const terms = [...delta.keys()].filter((t) => delta.get(t) !== 0).sort(byteOrder);
    if (terms.length === 0) return;
    await client.query(
      `INSERT INTO text_terms (term, docs) SELECT * FROM unnest($1::text[], $2::bigint[])
       ON CONFLICT (term) DO UPDATE SET docs = text_terms.docs + EXCLUDED.docs`,
      [terms, terms.map((t) => delta.get(t))],
    );
    const fallen = terms.filter((t) => (delta.get(t) as number) < 0);
    if (fallen.length > 0) {
      await client.query("DELETE FROM text_terms WHERE term = ANY($1::text[]) AND docs <= 0", [
        fallen,
      ]);
    }
  }

  async #query<R extends pg.QueryResultRow>(
    text: string,
    params: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    try {
      return await this.#pool.query<R>(text, params);
    } catch (error) {
      throw pgServerDbError(error);
    }
  }

  #transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inPgTransaction(this.#pool, work, (error) => pgServerDbError(error));
  }
}

/** A deleted row as `RETURNING` gives it. */
interface RemovedRow {
  doc_id: number;
  summary: string;
  body: string;
  tokens: number;
}

/** Rows of `text_postings` to insert or delete, gathered per transaction. */
class Postings {
  readonly terms: string[] = [];
  readonly docs: number[] = [];
  readonly summary: number[] = [];
  readonly body: number[] = [];

  /** Adds a row's postings; answers its distinct keys. */
  add(docId: number, summary: readonly string[], body: readonly string[]): string[] {
    const counts = new Map<string, [number, number]>();
    for (const token of summary) {
      const key = stemKey(token);
      const c = counts.get(key);
      if (c === undefined) counts.set(key, [1, 0]);
      else c[0] += 1;
    }
    for (const token of body) {
      const key = stemKey(token);
      const c = counts.get(key);
      if (c === undefined) counts.set(key, [0, 1]);
      else c[1] += 1;
    }
    for (const [key, [s, b]] of counts) {
      this.terms.push(key);
      this.docs.push(docId);
      this.summary.push(s);
      this.body.push(b);
    }
    return [...counts.keys()];
  }

  async insert(client: pg.PoolClient): Promise<void> {
    if (this.terms.length === 0) return;
    await client.query(
      `INSERT INTO text_postings (term, doc_id, summary_tf, body_tf)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[])`,
      [this.terms, this.docs, this.summary, this.body],
    );
  }

  async delete(client: pg.PoolClient): Promise<void> {
    if (this.terms.length === 0) return;
    await client.query(
      `DELETE FROM text_postings WHERE (term, doc_id) IN
       (SELECT * FROM unnest($1::text[], $2::bigint[]))`,
      [this.terms, this.docs],
    );
  }
}

/** Byte order of UTF-8 (= code point order), the order of `COLLATE "C"`. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Whether a row's text holds a phrase in the column asked (see {@link Column}). */
function textMatches(phrases: readonly Phrase[], row: ScanRow, column: Column): boolean {
  const s = columnTokens(row.summary ?? "");
  const inSummary = phrases.some((phrase) => phraseInstances(phrase, s) > 0);
  if (column === "summary") return inSummary;
  if (inSummary) return column === "any";
  const b = columnTokens(row.body ?? "");
  return phrases.some((phrase) => phraseInstances(phrase, b) > 0);
}

/** The condition on `text_postings.term` of one stem (a prefix: a range in byte order). */
function termCondition(stem: string, prefix: boolean, params: unknown[]): string {
  const key = stemKey(stem);
  params.push(key);
  if (!prefix) return `term = $${params.length}`;
  params.push(`${key}\u{10ffff}`);
  return `(term >= $${params.length - 1} AND term < $${params.length})`;
}

/** The conditions on the ids: those left out (`exclude`), those kept (`only`). */
function keptIds(options: Partial<ScanOptions>, params: unknown[], column = "doc_id"): string {
  let sql = "";
  if (options.exclude !== undefined && options.exclude.length > 0) {
    params.push(options.exclude);
    sql += ` AND NOT (${column} = ANY($${params.length}::bigint[]))`;
  }
  if (options.only !== undefined) {
    params.push(options.only);
    sql += ` AND ${column} = ANY($${params.length}::bigint[])`;
  }
  return sql;
}

/**
 * The ids of the rows matching one-stem phrases in the column asked, from `text_postings`
 * (`summary_tf > 0`: the stem stands in the summary). With `after`, only ids above it.
 */
function postingsQuery(
  phrases: readonly Phrase[],
  options: Partial<ScanOptions>,
  params: unknown[],
  after?: string,
): string {
  const exact = phrases.filter((p) => !p.prefix).map((p) => stemKey(p.tokens[0] as string));
  const conditions: string[] = [];
  if (exact.length === 1) {
    // One stem: `term = $n` lets the primary key give the rows in `doc_id` order, so a
    // LIMIT stops early (FTS5 walks a doclist the same way); `= ANY` would sort them all.
    params.push(exact[0]);
    conditions.push(`term = $${params.length}`);
  } else if (exact.length > 1) {
    params.push(exact);
    conditions.push(`term = ANY($${params.length}::text[])`);
  }
  for (const p of phrases)
    if (p.prefix) conditions.push(termCondition(p.tokens[0] as string, true, params));
  const ids = keptIds(options, params);
  const column = options.column ?? "any";
  const having =
    column === "summary"
      ? " HAVING bool_or(summary_tf > 0)"
      : column === "bodyOnly"
        ? " HAVING NOT bool_or(summary_tf > 0)"
        : "";
  const above = after === undefined ? "" : ` AND doc_id > ${after}`;
  return `SELECT doc_id FROM text_postings WHERE (${conditions.join(" OR ")})${ids}${above}
    GROUP BY doc_id${having}`;
}

/** The ids of the rows holding every stem of some phrase (a superset of its matches). */
function candidatesQuery(phrases: readonly Phrase[], params: unknown[]): string {
  return phrases
    .map((phrase) => {
      const last = phrase.tokens.length - 1;
      const parts = phrase.tokens.map(
        (t, i) =>
          `SELECT doc_id FROM text_postings WHERE ${termCondition(t, i === last && phrase.prefix, params)}`,
      );
      return `(${parts.join(" INTERSECT ")})`;
    })
    .join(" UNION ");
}

/** Options of {@link openPgTextStore}. */
export interface PgTextStoreOptions {
  /** Connections of the pool; default 4. */
  poolSize?: number;
}

/**
 * Opens the full-text store on a PostgreSQL database, migrating its tables to the latest
 * version in one transaction under an advisory lock (two processes starting at once
 * migrate once).
 *
 * @param url - a connection string `pg` accepts (`options=-c search_path=…` picks a schema).
 * @param options - the pool's size.
 * @throws LoreError `database_unavailable` (the server cannot be reached), `index_failed`
 *   (the schema is newer than this Lore, or a migration failed).
 */
export async function openPgTextStore(
  url: string,
  options: PgTextStoreOptions = {},
): Promise<PgTextStore> {
  const pool = createPool(url, options.poolSize ?? 4);
  try {
    await migratePgText(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw pgServerDbError(error);
  }
  return new PgTextStore(pool);
}

/** Brings the full text's tables to {@link PG_TEXT_MIGRATIONS}' latest version. */
async function migratePgText(pool: pg.Pool): Promise<void> {
  await applyPgMigrations(pool, {
    migrations: PG_TEXT_MIGRATIONS,
    lockKey: PG_TEXT_MIGRATION_LOCK_KEY,
    versionTable: "text_schema",
    what: "the full-text store",
  });
}
