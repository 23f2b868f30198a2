/**
 * Migration 9: load receipts (seed 004 "Контракт извлечения"; README "Load receipts"): what
 * each recall surfaced, for whom and why. Additive: nothing is dropped.
 *
 * - `receipts`: one row per recall — when (`at`, ms since the epoch), who (`user`), the
 *   client (`cli`, `http`, an MCP client's name, a hook event), the agent session (`NULL`
 *   when none), the query text and/or tool, and the page's place in the result: `page_offset`,
 *   `page_limit` and `total` (the candidates the recall counted), which tell an entry that
 *   matched but fell below the page (outranked) from one that never matched. The rowid is the
 *   receipt id; it grows with time, so it is the listing order and the cursor.
 * - `receipt_hits`: one row per surfaced hit, keyed by (receipt, rank): the repository (a
 *   draft's folded into its repository, `draft` = 1), the entry id, its revision (the file's
 *   blob sha; for a draft, the git blob sha of the draft's text, which changes with every
 *   edit), the score and why it fired (JSON of `MatchReason[]`).
 *
 * A hits table rather than a JSON column on the receipt: `lore why <id>` looks receipts up
 * by entry (`receipt_hits_by_entry`) and the per-repository route lists one repository's
 * receipts (`receipt_hits_by_repo`) through an index, never scanning every receipt's JSON;
 * a hit row is ~80 bytes, a receipt ~100 + its query. Receipts are pruned after
 * `[receipts] keep_days` (`receipts_by_at`).
 */
export const MIGRATION_009 = `
CREATE TABLE receipts (
  receipt_id  INTEGER PRIMARY KEY,
  at          INTEGER NOT NULL,
  user        TEXT NOT NULL,
  client      TEXT NOT NULL,
  session     TEXT,
  query       TEXT,
  tool        TEXT,
  page_offset INTEGER NOT NULL,
  page_limit  INTEGER NOT NULL,
  total       INTEGER NOT NULL
);
CREATE INDEX receipts_by_user ON receipts (user);
CREATE INDEX receipts_by_at ON receipts (at);

CREATE TABLE receipt_hits (
  receipt_id INTEGER NOT NULL REFERENCES receipts (receipt_id) ON DELETE CASCADE,
  rank       INTEGER NOT NULL,
  repo       TEXT NOT NULL,
  entry_id   TEXT NOT NULL,
  revision   TEXT NOT NULL,
  draft      INTEGER NOT NULL,
  score      REAL NOT NULL,
  why        TEXT NOT NULL,
  PRIMARY KEY (receipt_id, rank)
) WITHOUT ROWID;
CREATE INDEX receipt_hits_by_entry ON receipt_hits (repo, entry_id);
CREATE INDEX receipt_hits_by_repo ON receipt_hits (repo, receipt_id);
`;
