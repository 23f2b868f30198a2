/**
 * Migration 4: repositories you can see, ids unique per source, and the mechanism set the
 * index was evaluated with (seed 004, "Указатель", "Строго на запись, терпимо на чтение").
 *
 * - `repositories`: one row per indexed source — a git repository, a plain folder or a
 *   knowledge root — keyed by its identity (`repo`, the name its files are stored under:
 *   the normalised origin URL, else `commit:<root commit>`, else the absolute path; a root
 *   is `root:<id>`), with the folder it was last read from, its kind, the commit indexed
 *   (`NULL` for a folder or the working files) and when (ms since the epoch). `lore repos`
 *   lists it; a server compares `commit_sha` with HEAD to skip a restart with nothing new.
 * - `entries` gains `repo` and loses the global `UNIQUE (id)`: an id is unique per source
 *   (`UNIQUE (repo, id)`), so a note of a read-only root can never shadow a team entry
 *   that holds the same id; both are kept and the clash is reported.
 * - `meta`: small key/value facts about the index; `mechanisms` holds the mechanism set the
 *   stored reachability was computed with, so an upgrade that knows more mechanisms
 *   re-evaluates the affected entries when it opens the file (see `entry-index.ts`).
 *
 * The index is derived data: `files`, `entries`, the contract lookup tables and the full
 * text are dropped and recreated empty (the next `lore index` / server start rebuilds them
 * from git); `counters` (usage, keyed by entry id) are kept.
 */
export const MIGRATION_004 = `
DROP TABLE IF EXISTS contract_words;
DROP TABLE IF EXISTS contract_tools;
DROP TABLE IF EXISTS entries;
DROP TABLE IF EXISTS files;
DROP TABLE IF EXISTS entry_terms;
DROP TABLE IF EXISTS entry_text;

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
  body             TEXT NOT NULL,
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

CREATE TABLE repositories (
  repo       TEXT PRIMARY KEY,
  path       TEXT NOT NULL,
  kind       TEXT NOT NULL,
  commit_sha TEXT,
  indexed_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX repositories_by_path ON repositories (path);

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
`;
