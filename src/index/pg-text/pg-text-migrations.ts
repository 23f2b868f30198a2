/**
 * Schema of Lore's full text on PostgreSQL (scale-out: PostgreSQL; the same hits as
 * SQLite's `entry_text`). Tables of their own, beside the server store's in one database:
 *
 * - `text_docs`: one row per entry (`doc_id` = the SQLite index's `file_id`), its entry id
 *   (bm25 ties are ordered by it, as `text-search.ts` does), the analysed summary and body
 *   (`entryText`: stems joined by spaces — what phrases of several stems are matched and
 *   counted on, and what a delete takes out of the postings), and the row's tokens over
 *   both columns (FTS5's `xColumnSize(-1)`).
 * - `text_postings`: each stem of each row with its occurrences in the summary and in the
 *   body (bm25's term frequencies of one-stem phrases, read from the covering primary key
 *   without touching the text; several-stem phrases are counted on the text).
 * - `text_terms`: the vocabulary, each stem with the number of rows holding it (FTS5's
 *   `fts5vocab` `row` table: prefix expansion and idf).
 * - `text_totals`: one row, the rows and tokens of the table (bm25's N and avgdl).
 *
 * Stems are stored under `COLLATE "C"`: byte order of UTF-8, as SQLite's BINARY compares
 * the vocabulary's terms. The version lives in `text_schema`. Append only.
 */

/** Migration 1: documents, vocabulary, totals. */
export const PG_TEXT_MIGRATION_001 = `
CREATE TABLE text_docs (
  doc_id BIGINT PRIMARY KEY,
  entry_id TEXT COLLATE "C" NOT NULL,
  summary TEXT NOT NULL,
  body TEXT NOT NULL,
  tokens INTEGER NOT NULL
);
CREATE TABLE text_postings (
  term TEXT COLLATE "C" NOT NULL,
  doc_id BIGINT NOT NULL,
  summary_tf INTEGER NOT NULL,
  body_tf INTEGER NOT NULL,
  PRIMARY KEY (term, doc_id) INCLUDE (summary_tf, body_tf)
);
CREATE TABLE text_terms (
  term TEXT COLLATE "C" PRIMARY KEY,
  docs BIGINT NOT NULL
);
CREATE TABLE text_totals (
  docs BIGINT NOT NULL,
  tokens BIGINT NOT NULL
);
INSERT INTO text_totals (docs, tokens) VALUES (0, 0);
`;

/** Every migration of the full text on PostgreSQL, in order (index *i* = version *i + 1*). */
export const PG_TEXT_MIGRATIONS: readonly string[] = [PG_TEXT_MIGRATION_001];

/** The tables of the full text on PostgreSQL (besides `text_schema`). */
export const PG_TEXT_TABLES = ["text_docs", "text_postings", "text_terms", "text_totals"] as const;

/**
 * The key of the transaction-level advisory lock the migrations run under (two servers
 * starting at once migrate once): "lore" in ASCII, then 2 (the full text; 1 is the server
 * store's).
 */
export const PG_TEXT_MIGRATION_LOCK_KEY = 0x6c6f726502;
