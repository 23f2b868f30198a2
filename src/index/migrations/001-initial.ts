/**
 * Migration 1: the first schema of the index.
 *
 * - `files`: every stored file of a repository, entry or skipped, with its blob sha and its
 *   parse report (diagnostics as JSON); the incremental indexer compares shas here.
 * - `entries`: the entry of a file that parsed (at most one per file); `id` is unique across
 *   all repositories, so `get(id)` names one entry. JSON columns hold values as written.
 * - `entry_text`: FTS5 over the normalised, stemmed summary and body. Contentless: the text
 *   lives in `entries`; `contentless_delete` lets a re-index replace a row; the `ascii`
 *   tokenizer splits only on spaces, since Lore tokenises itself. Its rowid is
 *   `files.file_id`. `entry_terms`: its vocabulary (for prefix queries).
 * - `contract_words`, `contract_tools`: lookup tables for contracts, filled only for
 *   reachable entries: an `on_query` word by the stem of its first token (`stems` holds the
 *   whole stem sequence of a word of several tokens, NULL for one token), an `on_tool` name
 *   exactly; each row repeats the entry id so a lookup needs no join.
 * - `counters`: shown and read per user per entry id, with first and last times (ms since
 *   the epoch); keyed by id, not file, so counts survive renames and re-indexing.
 */
export const MIGRATION_001 = `
CREATE TABLE files (
  file_id   INTEGER PRIMARY KEY,
  repo      TEXT NOT NULL,
  path      TEXT NOT NULL,
  blob_sha  TEXT NOT NULL,
  report    TEXT NOT NULL,
  UNIQUE (repo, path)
);

CREATE TABLE entries (
  file_id          INTEGER PRIMARY KEY REFERENCES files (file_id) ON DELETE CASCADE,
  id               TEXT NOT NULL UNIQUE,
  origin           TEXT NOT NULL,
  links            TEXT NOT NULL,
  summary          TEXT NOT NULL,
  summary_override TEXT,
  body             TEXT NOT NULL,
  contract         TEXT NOT NULL,
  unknown_keys     TEXT NOT NULL,
  reachable        INTEGER NOT NULL,
  unmet_mechanisms TEXT NOT NULL
);

CREATE VIRTUAL TABLE entry_text USING fts5 (
  summary, body,
  content = '', contentless_delete = 1, tokenize = 'ascii'
);
CREATE VIRTUAL TABLE entry_terms USING fts5vocab (entry_text, 'row');

CREATE TABLE contract_words (
  first_stem TEXT NOT NULL,
  file_id    INTEGER NOT NULL REFERENCES entries (file_id) ON DELETE CASCADE,
  entry_id   TEXT NOT NULL,
  word       TEXT NOT NULL,
  stems      TEXT,
  PRIMARY KEY (first_stem, file_id, word)
) WITHOUT ROWID;
CREATE INDEX contract_words_by_file ON contract_words (file_id);

CREATE TABLE contract_tools (
  name     TEXT NOT NULL,
  file_id  INTEGER NOT NULL REFERENCES entries (file_id) ON DELETE CASCADE,
  entry_id TEXT NOT NULL,
  PRIMARY KEY (name, file_id)
) WITHOUT ROWID;
CREATE INDEX contract_tools_by_file ON contract_tools (file_id);

CREATE TABLE counters (
  user           TEXT NOT NULL,
  entry_id       TEXT NOT NULL,
  shown          INTEGER NOT NULL DEFAULT 0,
  read           INTEGER NOT NULL DEFAULT 0,
  first_shown_at INTEGER,
  last_shown_at  INTEGER,
  first_read_at  INTEGER,
  last_read_at   INTEGER,
  PRIMARY KEY (user, entry_id)
) WITHOUT ROWID;
CREATE INDEX counters_by_entry ON counters (entry_id);
`;
