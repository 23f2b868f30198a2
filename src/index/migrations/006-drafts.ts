/**
 * Migration 6: drafts (seed 004, "Как знание выходит наружу", "Что происходит с
 * черновиком"). Additive: nothing is dropped.
 *
 * A draft's entry is stored like a file's — `files`, `entries`, full text, contract lookup
 * — under the source `draft:<repo>` at its future path `.gitriver/knowledge/<id>.md`, so
 * recall, search and open find it with no second code path, and the heal of a repository's
 * default branch (which compares the source `<repo>` with the tree) never sees it. `drafts`
 * holds what a file does not have: the branch, the author, when, the future file's text
 * and size, and where it was delivered (`delivered_*`, all `NULL` until then). Keyed by
 * (`repo`, `id`), `repo` being the repository's own index name (`owner/name` hosted).
 * Times are ms since the epoch.
 */
export const MIGRATION_006 = `
CREATE TABLE drafts (
  repo             TEXT NOT NULL,
  id               TEXT NOT NULL,
  branch           TEXT NOT NULL,
  author           TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  size             INTEGER NOT NULL,
  text             TEXT NOT NULL,
  delivered_branch TEXT,
  delivered_commit TEXT,
  delivered_at     INTEGER,
  delivered_mr     INTEGER,
  PRIMARY KEY (repo, id)
) WITHOUT ROWID;
CREATE INDEX drafts_by_branch ON drafts (repo, branch);
CREATE INDEX drafts_by_author ON drafts (author);
`;
