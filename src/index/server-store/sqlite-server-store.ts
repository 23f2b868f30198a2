/**
 * The team server's records in SQLite (`<data>/server.db`): the embedded implementation of
 * the {@link ServerStore} port. Every SQL statement of the server's own records lives here,
 * so a PostgreSQL implementation can follow without touching a service.
 */
import type { Statement } from "better-sqlite3";
import type { AccessLevel, Scope } from "../../core/access/rights.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type {
  BranchRule,
  GrantRecord,
  GroupRecord,
  KeyRecord,
  MergeRequestRecord,
  MergeRequestState,
  RepoRecord,
  ServerStore,
  Subject,
  TokenRecord,
  UserRecord,
  WebSessionRecord,
} from "../../ports/server-store.js";
import { applyMigrations } from "../migrate.js";
import { openSqliteDatabase, type SqliteDatabase } from "../sqlite-database.js";
import { SERVER_MIGRATIONS } from "./migrations.js";
import { serverDbError } from "./server-db-error.js";
import {
  type GrantRow,
  type GroupRow,
  type KeyRow,
  type MergeRequestRow,
  type PusherRow,
  type RepoRow,
  type RuleRow,
  type TokenRow,
  toGrant,
  toGroup,
  toKey,
  toRepo,
  toToken,
  toUser,
  type UserRow,
} from "./store-rows.js";

/** The file name of the server database inside the data folder. */
export const SERVER_DB_FILE = "server.db";

/** True for a UNIQUE or PRIMARY KEY violation of SQLite. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/**
 * Runs one store operation; turns SQLite's errors into LoreErrors: a unique violation into
 * `duplicate()` when given, anything else of the engine into `index_failed`.
 */
function guarded<T>(file: string, operation: () => T, duplicate?: () => LoreError): Promise<T> {
  try {
    return Promise.resolve(operation());
  } catch (error) {
    if (duplicate !== undefined && isUniqueViolation(error)) return Promise.reject(duplicate());
    return Promise.reject(serverDbError(error, file));
  }
}

/** Splits `owner/name` (as stored; names never hold a `/`). */
function splitFullName(fullName: string): [string, string] | undefined {
  const slash = fullName.indexOf("/");
  if (slash < 0 || fullName.indexOf("/", slash + 1) >= 0) return undefined;
  return [fullName.slice(0, slash), fullName.slice(slash + 1)];
}

/** The two nullable subject columns of a grant or a pusher. */
function subjectColumns(subject: Subject): { user_id: number | null; group_id: number | null } {
  return subject.kind === "user"
    ? { user_id: subject.id, group_id: null }
    : { user_id: null, group_id: subject.id };
}

/**
 * Opens (creating and migrating when needed) the server database at `file`: WAL journal,
 * a busy timeout, foreign keys on (as every SQLite file of Lore, `openSqliteDatabase`).
 * Several processes may open it at once (`lore serve` and the `lore user|token|…` CLI).
 *
 * @param file - path of `server.db`, or `:memory:`.
 * @returns the store; close it with `close()`.
 * @throws LoreError `index_failed` when the file cannot be opened, was written by a newer
 *   Lore, or a migration fails.
 */
export function openSqliteServerStore(file: string): ServerStore {
  let db: SqliteDatabase;
  try {
    db = openSqliteDatabase(file);
  } catch (error) {
    throw openError(error, file);
  }
  try {
    applyMigrations(db, SERVER_MIGRATIONS, {
      what: "the server database",
      newer: "use a newer Lore",
    });
  } catch (error) {
    db.close();
    throw openError(error, file);
  }
  return new SqliteServerStore(db, file);
}

/**
 * An error opening or migrating the file: an engine error under an `index_failed` (whose
 * message would speak of the index) gets the server database's message.
 */
function openError(error: unknown, file: string): unknown {
  const cause = error instanceof LoreError ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_")
    ? serverDbError(cause, file)
    : error;
}

/** {@link ServerStore} over one better-sqlite3 connection (synchronous under the promises). */
class SqliteServerStore implements ServerStore {
  private closed = false;

  /** Prepared statements by SQL text: preparing costs more than running most of them. */
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
  ) {}

  private stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // --- users -------------------------------------------------------------------------
  addUser(user: { name: string; siteAdmin: boolean; createdAt: number }): Promise<UserRecord> {
    return guarded(
      this.file,
      () => {
        const row = this.db
          .prepare("INSERT INTO users (name, site_admin, created_at) VALUES (?, ?, ?) RETURNING *")
          .get(user.name, user.siteAdmin ? 1 : 0, user.createdAt) as UserRow;
        return toUser(row);
      },
      () => new LoreError("user_exists", { user: user.name }),
    );
  }

  getUser(name: string): Promise<UserRecord | undefined> {
    return guarded(this.file, () => {
      const row = this.stmt("SELECT * FROM users WHERE name = ?").get(name) as UserRow | undefined;
      return row === undefined ? undefined : toUser(row);
    });
  }

  getUserById(id: number): Promise<UserRecord | undefined> {
    return guarded(this.file, () => {
      const row = this.stmt("SELECT * FROM users WHERE id = ?").get(id) as UserRow | undefined;
      return row === undefined ? undefined : toUser(row);
    });
  }

  listUsers(): Promise<UserRecord[]> {
    return guarded(this.file, () =>
      (this.stmt("SELECT * FROM users ORDER BY name").all() as UserRow[]).map(toUser),
    );
  }

  removeUser(name: string): Promise<boolean> {
    return guarded(
      this.file,
      () => this.stmt("DELETE FROM users WHERE name = ?").run(name).changes > 0,
    );
  }

  countUsers(): Promise<number> {
    return guarded(
      this.file,
      () => (this.stmt("SELECT count(*) AS n FROM users").get() as { n: number }).n,
    );
  }

  // --- groups ------------------------------------------------------------------------
  addGroup(group: { name: string; createdAt: number }): Promise<GroupRecord> {
    return guarded(
      this.file,
      () =>
        toGroup(
          this.db
            .prepare("INSERT INTO groups (name, created_at) VALUES (?, ?) RETURNING *")
            .get(group.name, group.createdAt) as GroupRow,
        ),
      () => new LoreError("group_exists", { group: group.name }),
    );
  }

  getGroup(name: string): Promise<GroupRecord | undefined> {
    return guarded(this.file, () => {
      const row = this.stmt("SELECT * FROM groups WHERE name = ?").get(name) as
        | GroupRow
        | undefined;
      return row === undefined ? undefined : toGroup(row);
    });
  }

  listGroups(): Promise<GroupRecord[]> {
    return guarded(this.file, () =>
      (this.stmt("SELECT * FROM groups ORDER BY name").all() as GroupRow[]).map(toGroup),
    );
  }

  removeGroup(name: string): Promise<boolean> {
    return guarded(
      this.file,
      () => this.stmt("DELETE FROM groups WHERE name = ?").run(name).changes > 0,
    );
  }

  addMember(groupId: number, userId: number): Promise<void> {
    return guarded(this.file, () => {
      this.db
        .prepare("INSERT OR IGNORE INTO members (group_id, user_id) VALUES (?, ?)")
        .run(groupId, userId);
    });
  }

  removeMember(groupId: number, userId: number): Promise<boolean> {
    return guarded(
      this.file,
      () =>
        this.db
          .prepare("DELETE FROM members WHERE group_id = ? AND user_id = ?")
          .run(groupId, userId).changes > 0,
    );
  }

  listMembers(groupId: number): Promise<UserRecord[]> {
    return guarded(this.file, () =>
      (
        this.db
          .prepare(
            "SELECT u.* FROM users u JOIN members m ON m.user_id = u.id WHERE m.group_id = ? ORDER BY u.name",
          )
          .all(groupId) as UserRow[]
      ).map(toUser),
    );
  }

  groupsOf(userId: number): Promise<number[]> {
    return guarded(this.file, () =>
      (
        this.db
          .prepare("SELECT group_id FROM members WHERE user_id = ? ORDER BY group_id")
          .all(userId) as { group_id: number }[]
      ).map((row) => row.group_id),
    );
  }

  // --- tokens ------------------------------------------------------------------------
  addToken(token: {
    userId: number;
    hash: string;
    prefix: string;
    scopes: readonly Scope[];
    label: string;
    createdAt: number;
    expiresAt: number | null;
  }): Promise<TokenRecord> {
    return guarded(this.file, () =>
      toToken(
        this.db
          .prepare(
            `INSERT INTO tokens (user_id, hash, prefix, scopes, label, created_at, expires_at)
             VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
          )
          .get(
            token.userId,
            token.hash,
            token.prefix,
            token.scopes.join(","),
            token.label,
            token.createdAt,
            token.expiresAt,
          ) as TokenRow,
      ),
    );
  }

  findTokenByHash(hash: string): Promise<TokenRecord | undefined> {
    return guarded(this.file, () => {
      const row = this.stmt("SELECT * FROM tokens WHERE hash = ?").get(hash) as
        | TokenRow
        | undefined;
      return row === undefined ? undefined : toToken(row);
    });
  }

  listTokens(userId?: number): Promise<TokenRecord[]> {
    return guarded(this.file, () => {
      const rows =
        userId === undefined
          ? this.stmt("SELECT * FROM tokens ORDER BY id").all()
          : this.stmt("SELECT * FROM tokens WHERE user_id = ? ORDER BY id").all(userId);
      return (rows as TokenRow[]).map(toToken);
    });
  }

  revokeToken(id: number): Promise<boolean> {
    return guarded(
      this.file,
      () => this.stmt("DELETE FROM tokens WHERE id = ?").run(id).changes > 0,
    );
  }

  touchToken(id: number, usedAt: number): Promise<void> {
    return guarded(this.file, () => {
      this.stmt("UPDATE tokens SET last_used_at = ? WHERE id = ?").run(usedAt, id);
    });
  }

  // --- SSH keys ----------------------------------------------------------------------
  addKey(key: {
    userId: number;
    algorithm: string;
    publicKey: string;
    fingerprint: string;
    comment: string;
    createdAt: number;
  }): Promise<KeyRecord> {
    return guarded(
      this.file,
      () =>
        toKey(
          this.db
            .prepare(
              `INSERT INTO ssh_keys (user_id, algorithm, public_key, fingerprint, comment, created_at)
               VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
            )
            .get(
              key.userId,
              key.algorithm,
              key.publicKey,
              key.fingerprint,
              key.comment,
              key.createdAt,
            ) as KeyRow,
        ),
      () => new LoreError("key_exists", { fingerprint: key.fingerprint }),
    );
  }

  findKeyByFingerprint(fingerprint: string): Promise<KeyRecord | undefined> {
    return guarded(this.file, () => {
      const row = this.db
        .prepare("SELECT * FROM ssh_keys WHERE fingerprint = ?")
        .get(fingerprint) as KeyRow | undefined;
      return row === undefined ? undefined : toKey(row);
    });
  }

  listKeys(userId?: number): Promise<KeyRecord[]> {
    return guarded(this.file, () => {
      const rows =
        userId === undefined
          ? this.stmt("SELECT * FROM ssh_keys ORDER BY id").all()
          : this.stmt("SELECT * FROM ssh_keys WHERE user_id = ? ORDER BY id").all(userId);
      return (rows as KeyRow[]).map(toKey);
    });
  }

  removeKey(id: number): Promise<boolean> {
    return guarded(
      this.file,
      () => this.stmt("DELETE FROM ssh_keys WHERE id = ?").run(id).changes > 0,
    );
  }

  // --- hosted repositories -----------------------------------------------------------
  addRepo(repo: {
    owner: string;
    name: string;
    public: boolean;
    defaultBranch: string;
    createdAt: number;
  }): Promise<RepoRecord> {
    return guarded(
      this.file,
      () =>
        toRepo(
          this.db
            .prepare(
              `INSERT INTO repos (owner, name, public, default_branch, created_at)
               VALUES (?, ?, ?, ?, ?) RETURNING *`,
            )
            .get(
              repo.owner,
              repo.name,
              repo.public ? 1 : 0,
              repo.defaultBranch,
              repo.createdAt,
            ) as RepoRow,
        ),
      () => new LoreError("repo_exists", { repo: `${repo.owner}/${repo.name}` }),
    );
  }

  getRepo(fullName: string): Promise<RepoRecord | undefined> {
    return guarded(this.file, () => {
      const parts = splitFullName(fullName);
      if (parts === undefined) return undefined;
      const row = this.db
        .prepare("SELECT * FROM repos WHERE owner = ? AND name = ?")
        .get(parts[0], parts[1]) as RepoRow | undefined;
      return row === undefined ? undefined : toRepo(row);
    });
  }

  listRepos(): Promise<RepoRecord[]> {
    return guarded(this.file, () =>
      (this.stmt("SELECT * FROM repos ORDER BY owner, name").all() as RepoRow[]).map(toRepo),
    );
  }

  removeRepo(fullName: string): Promise<boolean> {
    return guarded(this.file, () => {
      const parts = splitFullName(fullName);
      if (parts === undefined) return false;
      return (
        this.stmt("DELETE FROM repos WHERE owner = ? AND name = ?").run(parts[0], parts[1])
          .changes > 0
      );
    });
  }

  // --- access grants -----------------------------------------------------------------
  grant(grant: { repoId: number; subject: Subject; level: AccessLevel }): Promise<void> {
    return guarded(this.file, () => {
      const { user_id, group_id } = subjectColumns(grant.subject);
      this.db.transaction(() => {
        this.deleteGrant(grant.repoId, user_id, group_id);
        this.db
          .prepare("INSERT INTO grants (repo_id, user_id, group_id, level) VALUES (?, ?, ?, ?)")
          .run(grant.repoId, user_id, group_id, grant.level);
      })();
    });
  }

  revoke(grant: { repoId: number; subject: Subject }): Promise<boolean> {
    return guarded(this.file, () => {
      const { user_id, group_id } = subjectColumns(grant.subject);
      return this.deleteGrant(grant.repoId, user_id, group_id);
    });
  }

  private deleteGrant(repoId: number, userId: number | null, groupId: number | null): boolean {
    return (
      this.db
        .prepare("DELETE FROM grants WHERE repo_id = ? AND user_id IS ? AND group_id IS ?")
        .run(repoId, userId, groupId).changes > 0
    );
  }

  listGrants(repoId: number): Promise<GrantRecord[]> {
    return guarded(this.file, () =>
      (
        this.db
          .prepare(
            "SELECT * FROM grants WHERE repo_id = ? ORDER BY user_id IS NULL, user_id, group_id",
          )
          .all(repoId) as GrantRow[]
      ).map(toGrant),
    );
  }

  grantsFor(userId: number): Promise<GrantRecord[]> {
    return guarded(this.file, () =>
      (
        this.db
          .prepare(
            // Two indexed lookups; an OR of both would scan every grant.
            `SELECT * FROM grants WHERE user_id = ?
             UNION ALL
             SELECT g.* FROM members m JOIN grants g ON g.group_id = m.group_id WHERE m.user_id = ?
             ORDER BY repo_id`,
          )
          .all(userId, userId) as GrantRow[]
      ).map(toGrant),
    );
  }

  // --- branch protection -------------------------------------------------------------
  protectBranch(rule: BranchRule): Promise<void> {
    return guarded(this.file, () => {
      this.db.transaction(() => {
        // Deleting first drops the old rule's pushers with it (ON DELETE CASCADE).
        this.db
          .prepare("DELETE FROM branch_rules WHERE repo_id = ? AND pattern = ?")
          .run(rule.repoId, rule.pattern);
        this.db
          .prepare(
            "INSERT INTO branch_rules (repo_id, pattern, allow_force_push, required_approvals) VALUES (?, ?, ?, ?)",
          )
          .run(rule.repoId, rule.pattern, rule.allowForcePush ? 1 : 0, rule.requiredApprovals ?? 0);
        const pusher = this.stmt(
          "INSERT INTO branch_rule_pushers (repo_id, pattern, user_id, group_id) VALUES (?, ?, ?, ?)",
        );
        for (const id of new Set(rule.pushUserIds)) pusher.run(rule.repoId, rule.pattern, id, null);
        for (const id of new Set(rule.pushGroupIds))
          pusher.run(rule.repoId, rule.pattern, null, id);
      })();
    });
  }

  unprotectBranch(repoId: number, pattern: string): Promise<boolean> {
    return guarded(
      this.file,
      () =>
        this.db
          .prepare("DELETE FROM branch_rules WHERE repo_id = ? AND pattern = ?")
          .run(repoId, pattern).changes > 0,
    );
  }

  listBranchRules(repoId: number): Promise<BranchRule[]> {
    return guarded(this.file, () => {
      const rules = this.db
        .prepare("SELECT * FROM branch_rules WHERE repo_id = ? ORDER BY pattern")
        .all(repoId) as RuleRow[];
      const pushers = this.db
        .prepare(
          "SELECT pattern, user_id, group_id FROM branch_rule_pushers WHERE repo_id = ? ORDER BY user_id, group_id",
        )
        .all(repoId) as PusherRow[];
      return rules.map((row) => ({
        repoId: row.repo_id,
        pattern: row.pattern,
        pushUserIds: pushers
          .filter((p) => p.pattern === row.pattern && p.user_id !== null)
          .map((p) => p.user_id as number),
        pushGroupIds: pushers
          .filter((p) => p.pattern === row.pattern && p.group_id !== null)
          .map((p) => p.group_id as number),
        allowForcePush: Boolean(row.allow_force_push),
        requiredApprovals: row.required_approvals,
      }));
    });
  }

  // --- draft limits ------------------------------------------------------------------
  setDraftLimit(subject: Subject, limit: number): Promise<void> {
    return guarded(this.file, () => {
      const { user_id, group_id } = subjectColumns(subject);
      this.db.transaction(() => {
        this.stmt("DELETE FROM draft_limits WHERE user_id IS ? AND group_id IS ?").run(
          user_id,
          group_id,
        );
        this.stmt("INSERT INTO draft_limits (user_id, group_id, draft_limit) VALUES (?, ?, ?)").run(
          user_id,
          group_id,
          limit,
        );
      })();
    });
  }

  getDraftLimit(subject: Subject): Promise<number | undefined> {
    return guarded(this.file, () => {
      const { user_id, group_id } = subjectColumns(subject);
      return this.stmt("SELECT draft_limit FROM draft_limits WHERE user_id IS ? AND group_id IS ?")
        .pluck()
        .get(user_id, group_id) as number | undefined;
    });
  }

  removeDraftLimit(subject: Subject): Promise<boolean> {
    return guarded(this.file, () => {
      const { user_id, group_id } = subjectColumns(subject);
      return (
        this.stmt("DELETE FROM draft_limits WHERE user_id IS ? AND group_id IS ?").run(
          user_id,
          group_id,
        ).changes > 0
      );
    });
  }

  // --- merge requests ----------------------------------------------------------------
  addMergeRequest(request: {
    repoId: number;
    source: string;
    target: string;
    title: string;
    body: string;
    origin: "human" | "machine";
    authorId: number;
    createdAt: number;
  }): Promise<MergeRequestRecord> {
    return guarded(this.file, () =>
      this.db.transaction(() => {
        const number = this.stmt(
          "UPDATE repos SET next_mr_number = next_mr_number + 1 WHERE id = ? RETURNING next_mr_number - 1",
        )
          .pluck()
          .get(request.repoId) as number | undefined;
        if (number === undefined)
          throw new LoreError("repo_not_found", { repo: String(request.repoId) });
        const row = this.stmt(
          `INSERT INTO merge_requests (repo_id, number, source, target, title, body, origin, author_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        ).get(
          request.repoId,
          number,
          request.source,
          request.target,
          request.title,
          request.body,
          request.origin,
          request.authorId,
          request.createdAt,
        ) as MergeRequestRow;
        return this.toMergeRequest(row);
      })(),
    );
  }

  getMergeRequest(repoId: number, number: number): Promise<MergeRequestRecord | undefined> {
    return guarded(this.file, () => {
      const row = this.stmt("SELECT * FROM merge_requests WHERE repo_id = ? AND number = ?").get(
        repoId,
        number,
      ) as MergeRequestRow | undefined;
      return row === undefined ? undefined : this.toMergeRequest(row);
    });
  }

  listMergeRequests(
    repoId: number,
    filter: { state?: MergeRequestState; source?: string } = {},
  ): Promise<MergeRequestRecord[]> {
    return guarded(this.file, () =>
      (
        this.stmt(
          `SELECT * FROM merge_requests WHERE repo_id = ? AND (? IS NULL OR state = ?)
             AND (? IS NULL OR source = ?) ORDER BY number DESC`,
        ).all(
          repoId,
          filter.state ?? null,
          filter.state ?? null,
          filter.source ?? null,
          filter.source ?? null,
        ) as MergeRequestRow[]
      ).map((row) => this.toMergeRequest(row)),
    );
  }

  finishMergeRequest(
    repoId: number,
    number: number,
    end: { state: "closed" | "merged"; at: number; byId: number; mergeCommit?: string },
  ): Promise<boolean> {
    return guarded(
      this.file,
      () =>
        this.stmt(
          `UPDATE merge_requests SET state = ?, ended_at = ?, ended_by_id = ?, merge_commit = ?
           WHERE repo_id = ? AND number = ? AND state = 'open'`,
        ).run(end.state, end.at, end.byId, end.mergeCommit ?? null, repoId, number).changes > 0,
    );
  }

  approveMergeRequest(repoId: number, number: number, userId: number, at: number): Promise<void> {
    return guarded(this.file, () => {
      this.stmt(
        `INSERT OR IGNORE INTO mr_approvals (mr_id, user_id, at)
         SELECT id, ?, ? FROM merge_requests WHERE repo_id = ? AND number = ?`,
      ).run(userId, at, repoId, number);
    });
  }

  private toMergeRequest(row: MergeRequestRow): MergeRequestRecord {
    const approvals = this.stmt(
      "SELECT user_id AS userId, at FROM mr_approvals WHERE mr_id = ? ORDER BY at, user_id",
    ).all(row.id) as { userId: number; at: number }[];
    return {
      id: row.id,
      repoId: row.repo_id,
      number: row.number,
      source: row.source,
      target: row.target,
      title: row.title,
      body: row.body,
      origin: row.origin,
      state: row.state,
      authorId: row.author_id,
      createdAt: row.created_at,
      endedAt: row.ended_at,
      endedById: row.ended_by_id,
      mergeCommit: row.merge_commit,
      approvals,
    };
  }

  takeRateSlot(slot: {
    tokenId: number;
    route: string;
    windowStart: number;
    limit: number;
  }): Promise<boolean> {
    return guarded(this.file, () => {
      if (slot.limit < 1) return false;
      // One statement, so two processes can never both take the last call of a window:
      // a later window resets the row, a full one is left as it is (no row returned).
      const row = this.stmt(
        `INSERT INTO rate_windows (token_id, route, window_start, calls) VALUES (?, ?, ?, 1)
         ON CONFLICT (token_id, route) DO UPDATE SET
           calls = CASE WHEN window_start < excluded.window_start THEN 1 ELSE calls + 1 END,
           window_start = max(window_start, excluded.window_start)
         WHERE window_start < excluded.window_start OR calls < ?
         RETURNING calls`,
      ).get(slot.tokenId, slot.route, slot.windowStart, slot.limit);
      return row !== undefined;
    });
  }

  addWebSession(session: WebSessionRecord): Promise<void> {
    return guarded(this.file, () => {
      this.stmt(
        "INSERT INTO web_sessions (hash, token_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
      ).run(session.hash, session.tokenId, session.csrf, session.createdAt, session.expiresAt);
    });
  }

  findWebSession(hash: string, now: number): Promise<WebSessionRecord | undefined> {
    return guarded(this.file, () => {
      const row = this.stmt(
        `SELECT s.hash, s.token_id, s.csrf, s.created_at, s.expires_at FROM web_sessions s
         JOIN tokens t ON t.id = s.token_id WHERE s.hash = ? AND s.expires_at > ?`,
      ).get(hash, now) as
        | { hash: string; token_id: number; csrf: string; created_at: number; expires_at: number }
        | undefined;
      if (row === undefined) return undefined;
      return {
        hash: row.hash,
        tokenId: row.token_id,
        csrf: row.csrf,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
      };
    });
  }

  removeWebSession(hash: string, now: number): Promise<boolean> {
    return guarded(this.file, () => {
      const removed = this.stmt("DELETE FROM web_sessions WHERE hash = ?").run(hash).changes > 0;
      this.stmt("DELETE FROM web_sessions WHERE expires_at <= ?").run(now);
      return removed;
    });
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.db.close();
    }
    return Promise.resolve();
  }
}
