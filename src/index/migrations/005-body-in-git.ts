/**
 * Migration 5: the body of a git-backed entry is no longer stored twice (the benchmark's
 * index size target: ≤ 1.5× the entry files' bytes).
 *
 * Git holds every indexed blob; the index kept a copy of each entry's body in
 * `entries.body` for `get` and for FTS5's exact delete (migration 2), which must replay the
 * analysed text of the row it removes. Now `entries.body` is `NULL` for an entry indexed
 * from a git commit: its body is read back from git by `files.blob_sha` (through the
 * folder in `repositories.path`) and cut out of the file by `core/entry/entry-body.ts`, the
 * same fence split the parser uses (the repository's folder is kept in the new table
 * `body_sources`, written as a run starts, since `repositories` gets its row only after
 * the run), when an entry is opened, replaced, removed or
 * re-evaluated — never on the recall or search path, which reads only `summary`. Entries
 * of plain folders (`--worktree`, a folder without git) and of knowledge roots keep their
 * body: their old text is gone from the disk once the file changes.
 *
 * The index is derived data: `files`, `entries`, the contract lookup tables and the full
 * text are dropped and recreated empty, and `repositories` and `meta` are emptied so the
 * next `lore index` / server start rebuilds everything from git (a kept `commit_sha`
 * would let a server skip the rebuild); `counters` (usage, keyed by entry id) are kept.
 */
export const MIGRATION_005 = `
DROP TABLE IF EXISTS contract_words;
DROP TABLE IF EXISTS contract_tools;
DROP TABLE IF EXISTS entries;
DROP TABLE IF EXISTS files;
DROP TABLE IF EXISTS entry_terms;
DROP TABLE IF EXISTS entry_text;
DROP TABLE IF EXISTS body_sources;
DELETE FROM repositories;
DELETE FROM meta;

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
  repo             TEXT NOT NULL,
  id               TEXT NOT NULL,
  origin           TEXT NOT NULL,
  links            TEXT NOT NULL,
  summary          TEXT NOT NULL,
  summary_override TEXT,
  body             TEXT,
  contract         TEXT NOT NULL,
  unknown_keys     TEXT NOT NULL,
  reachable        INTEGER NOT NULL,
  unmet_mechanisms TEXT NOT NULL,
  UNIQUE (repo, id)
);
CREATE INDEX entries_by_id ON entries (id);

CREATE VIRTUAL TABLE entry_text USING fts5 (
  summary, body,
  content = '', tokenize = 'ascii'
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

CREATE TABLE body_sources (
  repo   TEXT PRIMARY KEY,
  folder TEXT NOT NULL
) WITHOUT ROWID;
`;
