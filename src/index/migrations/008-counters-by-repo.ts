/**
 * Migration 8: usage counters and entry ages are kept per repository and entry id, not per
 * entry id alone. Ids are unique per source (migration 4), not across them: a repository
 * may hold a file (or a draft) with the id of another repository's entry, and counters
 * keyed by the id alone then mixed the two — a team summary of one repository showed the
 * counts of an entry of another the caller may not read (seed 004: every read filtered by
 * the caller's rights, nothing of a hidden repository leaks, not even a count).
 *
 * The key's `repo` is the repository the entry belongs to: its source name, a draft's
 * (`draft:<repo>`) folded into its repository, so a draft's counts carry over when its file
 * lands (seed 004 «счётчики показов и чтений переживают превращение черновика в файл»).
 * Existing rows get the repository of the entry holding the id (the first by source name
 * when several do), `''` for an id no entry holds now (kept, never listed).
 */
export const MIGRATION_008 = `
CREATE TABLE counters_by_repo (
  user           TEXT NOT NULL,
  repo           TEXT NOT NULL,
  entry_id       TEXT NOT NULL,
  shown          INTEGER NOT NULL DEFAULT 0,
  read           INTEGER NOT NULL DEFAULT 0,
  first_shown_at INTEGER,
  last_shown_at  INTEGER,
  first_read_at  INTEGER,
  last_read_at   INTEGER,
  PRIMARY KEY (user, repo, entry_id)
) WITHOUT ROWID;
INSERT INTO counters_by_repo
  SELECT c.user,
    coalesce((SELECT CASE WHEN f.repo LIKE 'draft:%' THEN substr(f.repo, 7) ELSE f.repo END
              FROM entries e JOIN files f USING (file_id) WHERE e.id = c.entry_id
              ORDER BY f.repo LIMIT 1), ''),
    c.entry_id, c.shown, c.read, c.first_shown_at, c.last_shown_at, c.first_read_at,
    c.last_read_at
  FROM counters c;
DROP TABLE counters;
ALTER TABLE counters_by_repo RENAME TO counters;
CREATE INDEX counters_by_entry ON counters (repo, entry_id);

CREATE TABLE entry_ages_by_repo (
  repo          TEXT NOT NULL,
  entry_id      TEXT NOT NULL,
  first_seen_at INTEGER NOT NULL,
  PRIMARY KEY (repo, entry_id)
) WITHOUT ROWID;
INSERT OR IGNORE INTO entry_ages_by_repo
  SELECT CASE WHEN f.repo LIKE 'draft:%' THEN substr(f.repo, 7) ELSE f.repo END, e.id,
    a.first_seen_at
  FROM entries e JOIN files f USING (file_id) JOIN entry_ages a ON a.entry_id = e.id;
DROP TABLE entry_ages;
ALTER TABLE entry_ages_by_repo RENAME TO entry_ages;
`;
