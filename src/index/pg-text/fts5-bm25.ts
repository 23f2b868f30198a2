/**
 * SQLite FTS5's `bm25()` recomputed in TypeScript, operation for operation, so PostgreSQL's
 * full text ranks exactly as `entry_text` does (scale-out: full text on PostgreSQL).
 *
 * The formula of `fts5Bm25Function` and `fts5Bm25GetData` (SQLite's `ext/fts5/fts5_aux.c`),
 * per phrase *i* of the query:
 *
 *     idf(i)  = ln((N - nHit(i) + 0.5) / (nHit(i) + 0.5)), and 1e-6 when that is ≤ 0
 *     f(i)    = Σ over the row's instances of phrase i of the weight of their column
 *     score   = Σ_i idf(i) · (f(i) · (k1 + 1)) / (f(i) + k1 · (1 - b + b · D / avgdl))
 *     bm25    = -score
 *
 * with k1 = 1.2, b = 0.75, N the rows of the table, nHit(i) the rows holding phrase i in
 * any column (whatever else the query says), D the row's tokens over ALL columns and avgdl
 * the table's tokens over all columns divided by N (FTS5 has one average length, not one
 * per column; the column weights only scale f). The sums run in FTS5's order (phrases in
 * query order), so the doubles come out the same up to the last bit of `Math.log` against
 * the C library's `log` (one ulp at most).
 */

/** FTS5's k1. */
const K1 = 1.2;
/** FTS5's b. */
const B = 0.75;
/** FTS5's floor of an idf (a phrase in over half the rows). */
const IDF_FLOOR = 1e-6;

/**
 * The idf FTS5 gives a phrase.
 *
 * @param rows - N, the table's rows (> 0).
 * @param hits - nHit, the rows holding the phrase.
 */
export function fts5Idf(rows: number, hits: number): number {
  const idf = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return idf <= 0 ? IDF_FLOOR : idf;
}

/**
 * FTS5's bm25 of one row (negative: lower is better, as `bm25()` returns it).
 *
 * @param idfs - {@link fts5Idf} of each phrase, in query order.
 * @param freqs - f(i) of each phrase for the row (weighted instance counts), same order.
 * @param rowTokens - D, the row's tokens over all columns.
 * @param avgdl - the table's tokens over all columns divided by its rows.
 */
export function fts5Bm25(
  idfs: readonly number[],
  freqs: readonly number[],
  rowTokens: number,
  avgdl: number,
): number {
  let score = 0.0;
  for (let i = 0; i < idfs.length; i++) {
    const f = freqs[i] as number;
    score +=
      (idfs[i] as number) * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * rowTokens) / avgdl)));
  }
  return -1.0 * score;
}
