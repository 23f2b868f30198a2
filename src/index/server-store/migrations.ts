/**
 * Schema migrations of the team server's database `<data>/server.db` (seed 004, team
 * server: users, groups, tokens, SSH keys, hosted repositories, grants, branch protection),
 * run through `PRAGMA user_version` like the index's (`index/migrate.ts`). Append only;
 * never edit a shipped one.
 */
import type { Migration } from "../migrate.js";

/**
 * Migration 1: every table of the server. Deleting a user, group or repository removes
 * what hangs on it (`ON DELETE CASCADE`): tokens, keys, memberships, grants, branch rules.
 *
 * - `tokens.hash`: SHA-256 (hex) of the secret; the secret itself is never stored.
 *   `scopes` is a comma-separated list. Times are ms since the epoch, `NULL` = never.
 * - `grants`: one level per (repository, user) or (repository, group); exactly one of
 *   `user_id` / `group_id` is set.
 * - `branch_rules` + `branch_rule_pushers`: a protected pattern of a repository and who
 *   may push to it (users or groups; none listed = anyone with write access).
 */
export const SERVER_MIGRATION_001 = `
CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  site_admin INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE TABLE groups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);
CREATE TABLE members (
  group_id INTEGER NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, user_id)
) WITHOUT ROWID;
CREATE INDEX members_by_user ON members (user_id);
CREATE TABLE tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  scopes TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  last_used_at INTEGER
);
CREATE INDEX tokens_by_user ON tokens (user_id);
CREATE TABLE ssh_keys (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  algorithm TEXT NOT NULL,
  public_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL UNIQUE,
  comment TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE INDEX ssh_keys_by_user ON ssh_keys (user_id);
CREATE TABLE repos (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  owner TEXT NOT NULL,
  name TEXT NOT NULL,
  public INTEGER NOT NULL DEFAULT 0,
  default_branch TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (owner, name)
);
CREATE TABLE grants (
  repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
  user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES groups (id) ON DELETE CASCADE,
  level TEXT NOT NULL CHECK (level IN ('read', 'write', 'admin')),
  CHECK ((user_id IS NULL) <> (group_id IS NULL))
);
CREATE UNIQUE INDEX grants_of_user ON grants (repo_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX grants_of_group ON grants (repo_id, group_id) WHERE group_id IS NOT NULL;
CREATE INDEX grants_by_user ON grants (user_id);
CREATE INDEX grants_by_group ON grants (group_id);
CREATE TABLE branch_rules (
  repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
  pattern TEXT NOT NULL,
  allow_force_push INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (repo_id, pattern)
);
CREATE TABLE branch_rule_pushers (
  repo_id INTEGER NOT NULL,
  pattern TEXT NOT NULL,
  user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES groups (id) ON DELETE CASCADE,
  CHECK ((user_id IS NULL) <> (group_id IS NULL)),
  FOREIGN KEY (repo_id, pattern) REFERENCES branch_rules (repo_id, pattern) ON DELETE CASCADE
);
CREATE INDEX branch_rule_pushers_by_rule ON branch_rule_pushers (repo_id, pattern);
CREATE INDEX branch_rule_pushers_by_user ON branch_rule_pushers (user_id);
CREATE INDEX branch_rule_pushers_by_group ON branch_rule_pushers (group_id);
`;

/**
 * Migration 2: drafts and merge requests (seed 004, "Как знание выходит наружу",
 * "Происхождение запроса ставит сервер", "Интерфейс").
 *
 * - `draft_limits`: the draft limit of a user or a group (exactly one of the two set).
 * - `merge_requests`: per repository `number` (1, 2, …; `next_mr_number` on `repos` hands
 *   them out, so a number is never given twice); `origin` is `machine` only for a request
 *   the server opened. `mr_approvals`: one row per approving user.
 * - `branch_rules.required_approvals`: approvals a merge into a matching branch needs.
 */
export const SERVER_MIGRATION_002 = `
CREATE TABLE draft_limits (
  user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES groups (id) ON DELETE CASCADE,
  draft_limit INTEGER NOT NULL CHECK (draft_limit >= 0),
  CHECK ((user_id IS NULL) <> (group_id IS NULL))
);
CREATE UNIQUE INDEX draft_limits_of_user ON draft_limits (user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX draft_limits_of_group ON draft_limits (group_id) WHERE group_id IS NOT NULL;
ALTER TABLE repos ADD COLUMN next_mr_number INTEGER NOT NULL DEFAULT 1;
CREATE TABLE merge_requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  source TEXT NOT NULL,
  target TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL DEFAULT '',
  origin TEXT NOT NULL CHECK (origin IN ('human', 'machine')),
  state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closed', 'merged')),
  author_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  ended_at INTEGER,
  ended_by_id INTEGER,
  merge_commit TEXT,
  UNIQUE (repo_id, number)
);
CREATE INDEX merge_requests_by_source ON merge_requests (repo_id, source);
CREATE TABLE mr_approvals (
  mr_id INTEGER NOT NULL REFERENCES merge_requests (id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  at INTEGER NOT NULL,
  PRIMARY KEY (mr_id, user_id)
) WITHOUT ROWID;
ALTER TABLE branch_rules ADD COLUMN required_approvals INTEGER NOT NULL DEFAULT 0;
`;

/**
 * Migration 3: fixed-window rate limits per token and route (seed 004 "Интерфейс": the
 * `shown` call's 600 a minute per token). One row per token and route: the window it counts
 * and the calls taken in it; the row is reset when a later window begins.
 */
export const SERVER_MIGRATION_003 = `
CREATE TABLE rate_windows (
  token_id INTEGER NOT NULL,
  route TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  calls INTEGER NOT NULL,
  PRIMARY KEY (token_id, route)
) WITHOUT ROWID;
`;

/**
 * Migration 4: the web view's sign-in sessions (`lore serve` at `/`). A session is opened
 * with a Lore token and lives on that token: revoking the token or removing its user ends
 * it. Only a hash of the cookie's secret is kept, as for tokens; `csrf` is the session's
 * anti-forgery token, sent back by every form and write.
 */
export const SERVER_MIGRATION_004 = `
CREATE TABLE web_sessions (
  hash TEXT PRIMARY KEY,
  token_id INTEGER NOT NULL REFERENCES tokens(id) ON DELETE CASCADE,
  csrf TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX web_sessions_token ON web_sessions(token_id);
`;

/**
 * The server database's migrations in order: migration `i` (0-based) brings the schema
 * from version `i` to `i + 1`.
 */
export const SERVER_MIGRATIONS: readonly Migration[] = [
  SERVER_MIGRATION_001,
  SERVER_MIGRATION_002,
  SERVER_MIGRATION_003,
  SERVER_MIGRATION_004,
];
