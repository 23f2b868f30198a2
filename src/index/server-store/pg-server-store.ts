/**
 * The team server's records on PostgreSQL (`[server] database = "postgres://…"`; scale-out:
 * several `lore serve` over one database): the second implementation of the
 * {@link ServerStore} port, beside SQLite's (`sqlite-server-store.ts`), with the same
 * answers and refusals (one contract suite runs against both). Every SQL statement of the
 * PostgreSQL store lives here.
 *
 * Atomicity across servers: each write that must not interleave is one statement
 * (`takeRateSlot`'s upsert, `addMergeRequest`'s numbering, grants and limits as upserts)
 * or one transaction (`protectBranch`); the migrations run under an advisory lock.
 */
import pg from "pg";
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
import { applyPgMigrations } from "../pg-apply-migrations.js";
import { inPgTransaction } from "../pg-transaction.js";
import { passwordOf, pgServerDbError } from "./pg-db-error.js";
import { PG_MIGRATION_LOCK_KEY, PG_SERVER_MIGRATIONS } from "./pg-migrations.js";
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

/** How long a connection attempt may take before the store answers `database_unavailable`. */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * How long a query may wait for a connection of a pool whose connections are all in use
 * (a burst of requests: each server answers a hundred at once over a pool of ten) before
 * it answers `database_unavailable`. A wait is not a refused connection: it is bounded
 * apart from {@link CONNECT_TIMEOUT_MS}, and longer.
 */
export const POOL_WAIT_MS = 60_000;

/** Connections per process: `lore serve` answers many requests at once, the CLI few. */
const DEFAULT_POOL_SIZE = 10;

/** PostgreSQL's type id of `int8` (BIGINT, and `count(*)`). */
const INT8_OID = 20;

/**
 * Type parsers of this store's pools: BIGINT (ids, ms times, counts) as a JavaScript
 * number — pg gives int8 as a string by default, since it may exceed 2^53; Lore's ids
 * and ms times never come near. Per pool, so no other user of `pg` in the process changes.
 */
const TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID && format !== "binary") return (value: string) => Number(value);
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads of getTypeParser differ by format; the default parser is what it returns.
    return (pg.types.getTypeParser as any)(oid, format);
  },
};

interface ApprovalRow {
  mr_id: number;
  user_id: number;
  at: number;
}

/** Splits `owner/name` (as stored; names never hold a `/`). */
function splitFullName(fullName: string): [string, string] | undefined {
  const slash = fullName.indexOf("/");
  if (slash < 0 || fullName.indexOf("/", slash + 1) >= 0) return undefined;
  return [fullName.slice(0, slash), fullName.slice(slash + 1)];
}

/** The two nullable subject columns of a grant, a pusher or a draft limit. */
function subjectColumns(subject: Subject): [number | null, number | null] {
  return subject.kind === "user" ? [subject.id, null] : [null, subject.id];
}

/** SQLSTATE of a unique violation. */
const UNIQUE_VIOLATION = "23505";

/** Options of {@link openPgServerStore}. */
export interface PgServerStoreOptions {
  /** Connections of the pool; default 10. */
  poolSize?: number;
}

/**
 * Opens the server store on a PostgreSQL database: a pool of connections, then the schema
 * brought to the latest version (see {@link migratePgServerSchema}).
 *
 * @param url - `postgres://user[:password]@host[:port]/database[?host=/socket/dir&…]` (any
 *   connection string `pg` accepts; `options=-c search_path=…` picks a schema).
 * @returns the store; close it with `close()` (ends the pool).
 * @throws LoreError `database_unavailable` (503: refused, unknown host, wrong password, no
 *   such database — the reason says which, never the password), `index_failed` (the schema
 *   was written by a newer Lore, or a migration failed).
 */
export async function openPgServerStore(
  url: string,
  options: PgServerStoreOptions = {},
): Promise<ServerStore> {
  const password = passwordOf(url);
  const pool = createPool(url, options.poolSize ?? DEFAULT_POOL_SIZE);
  try {
    await migratePgServerSchema(pool, password);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw pgServerDbError(error, password);
  }
  return new PgServerStore(pool, password);
}

/**
 * A client of this store's pools: `pg`'s, with its connection attempt bounded by
 * {@link CONNECT_TIMEOUT_MS} whatever the pool's own wait ({@link POOL_WAIT_MS}).
 */
class TimedClient extends pg.Client {
  /** @param config - what the pool gives each client (its own options). */
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/**
 * A pool of this store's kind (numbers for BIGINT, idle errors kept from crashing the
 * process): a new connection's attempt times out after {@link CONNECT_TIMEOUT_MS}; a query
 * finding every connection in use waits for one up to {@link POOL_WAIT_MS} (pg-pool's
 * `connectionTimeoutMillis` bounds that wait; `pgServerDbError` says which ran out).
 *
 * @param url - the connection string.
 * @param max - connections.
 */
export function createPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: POOL_WAIT_MS,
    Client: TimedClient,
    types: TYPES,
  });
  // An idle connection the server drops (a restart, a failover) emits here; without a
  // listener that would crash `lore serve`. The next query gets a fresh connection or
  // answers `database_unavailable` itself.
  pool.on("error", () => undefined);
  return pool;
}

/**
 * Brings the schema to the latest version ({@link PG_SERVER_MIGRATIONS}) in ONE
 * transaction under a transaction-level advisory lock: two servers starting at once over
 * one database migrate it once (the second waits for the first's commit, then finds the
 * schema current), and a failed migration leaves the version it started from.
 *
 * @param pool - the store's pool.
 * @param password - scrubbed from messages.
 * @returns the version before migrating (0 for an empty database).
 * @throws LoreError `index_failed` when the schema's version is above this Lore's, or a
 *   migration fails; `database_unavailable` when the database cannot be reached.
 */
export async function migratePgServerSchema(pool: pg.Pool, password?: string): Promise<number> {
  return applyPgMigrations(pool, {
    migrations: PG_SERVER_MIGRATIONS,
    lockKey: PG_MIGRATION_LOCK_KEY,
    versionTable: "server_schema",
    what: "the server database",
    stepError: (error, version) => {
      const failed = pgServerDbError(error, password);
      if (failed.code === "database_unavailable") return failed;
      return new LoreError(
        "index_failed",
        { reason: `migration of the server database to schema version ${version} failed` },
        { data: failed.data },
      );
    },
  });
}

/** {@link ServerStore} over a `pg` pool. */
class PgServerStore implements ServerStore {
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly password: string | undefined,
  ) {}

  /**
   * Runs one statement; turns the engine's errors into LoreErrors: a unique violation into
   * `duplicate()` when given, a lost connection into `database_unavailable`, anything else
   * into `index_failed`.
   */
  private async q<R extends pg.QueryResultRow>(
    sql: string,
    params: unknown[] = [],
    duplicate?: () => LoreError,
  ): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (error) {
      throw this.fail(error, duplicate);
    }
  }

  /** Like {@link q}, answering the number of rows the statement changed. */
  private async changes(sql: string, params: unknown[] = []): Promise<number> {
    try {
      return (await this.pool.query(sql, params)).rowCount ?? 0;
    } catch (error) {
      throw this.fail(error);
    }
  }

  private fail(error: unknown, duplicate?: () => LoreError): LoreError {
    const code = (error as { code?: unknown } | null)?.code;
    if (duplicate !== undefined && code === UNIQUE_VIOLATION) return duplicate();
    return pgServerDbError(error, this.password);
  }

  /** Runs `work` in one transaction on one connection of the pool. */
  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inPgTransaction(this.pool, work, (error) => this.fail(error));
  }

  // --- users -------------------------------------------------------------------------
  async addUser(user: {
    name: string;
    siteAdmin: boolean;
    createdAt: number;
  }): Promise<UserRecord> {
    const rows = await this.q<UserRow>(
      "INSERT INTO users (name, site_admin, created_at) VALUES ($1, $2, $3) RETURNING *",
      [user.name, user.siteAdmin, user.createdAt],
      () => new LoreError("user_exists", { user: user.name }),
    );
    return toUser(rows[0] as UserRow);
  }

  async getUser(name: string): Promise<UserRecord | undefined> {
    const rows = await this.q<UserRow>("SELECT * FROM users WHERE name = $1", [name]);
    return rows[0] === undefined ? undefined : toUser(rows[0]);
  }

  async getUserById(id: number): Promise<UserRecord | undefined> {
    const rows = await this.q<UserRow>("SELECT * FROM users WHERE id = $1", [id]);
    return rows[0] === undefined ? undefined : toUser(rows[0]);
  }

  async listUsers(): Promise<UserRecord[]> {
    // COLLATE "C": byte order, as SQLite's, whatever the database's locale.
    return (await this.q<UserRow>('SELECT * FROM users ORDER BY name COLLATE "C"')).map(toUser);
  }

  async removeUser(name: string): Promise<boolean> {
    return (await this.changes("DELETE FROM users WHERE name = $1", [name])) > 0;
  }

  async countUsers(): Promise<number> {
    const rows = await this.q<{ n: number }>("SELECT count(*) AS n FROM users");
    return rows[0]?.n ?? 0;
  }

  // --- groups ------------------------------------------------------------------------
  async addGroup(group: { name: string; createdAt: number }): Promise<GroupRecord> {
    const rows = await this.q<GroupRow>(
      "INSERT INTO groups (name, created_at) VALUES ($1, $2) RETURNING *",
      [group.name, group.createdAt],
      () => new LoreError("group_exists", { group: group.name }),
    );
    return toGroup(rows[0] as GroupRow);
  }

  async getGroup(name: string): Promise<GroupRecord | undefined> {
    const rows = await this.q<GroupRow>("SELECT * FROM groups WHERE name = $1", [name]);
    return rows[0] === undefined ? undefined : toGroup(rows[0]);
  }

  async listGroups(): Promise<GroupRecord[]> {
    return (await this.q<GroupRow>('SELECT * FROM groups ORDER BY name COLLATE "C"')).map(toGroup);
  }

  async removeGroup(name: string): Promise<boolean> {
    return (await this.changes("DELETE FROM groups WHERE name = $1", [name])) > 0;
  }

  async addMember(groupId: number, userId: number): Promise<void> {
    await this.q("INSERT INTO members (group_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [
      groupId,
      userId,
    ]);
  }

  async removeMember(groupId: number, userId: number): Promise<boolean> {
    return (
      (await this.changes("DELETE FROM members WHERE group_id = $1 AND user_id = $2", [
        groupId,
        userId,
      ])) > 0
    );
  }

  async listMembers(groupId: number): Promise<UserRecord[]> {
    return (
      await this.q<UserRow>(
        `SELECT u.* FROM users u JOIN members m ON m.user_id = u.id WHERE m.group_id = $1
         ORDER BY u.name COLLATE "C"`,
        [groupId],
      )
    ).map(toUser);
  }

  async groupsOf(userId: number): Promise<number[]> {
    return (
      await this.q<{ group_id: number }>(
        "SELECT group_id FROM members WHERE user_id = $1 ORDER BY group_id",
        [userId],
      )
    ).map((row) => row.group_id);
  }

  // --- tokens ------------------------------------------------------------------------
  async addToken(token: {
    userId: number;
    hash: string;
    prefix: string;
    scopes: readonly Scope[];
    label: string;
    createdAt: number;
    expiresAt: number | null;
  }): Promise<TokenRecord> {
    const rows = await this.q<TokenRow>(
      `INSERT INTO tokens (user_id, hash, prefix, scopes, label, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [
        token.userId,
        token.hash,
        token.prefix,
        token.scopes.join(","),
        token.label,
        token.createdAt,
        token.expiresAt,
      ],
    );
    return toToken(rows[0] as TokenRow);
  }

  async findTokenByHash(hash: string): Promise<TokenRecord | undefined> {
    const rows = await this.q<TokenRow>("SELECT * FROM tokens WHERE hash = $1", [hash]);
    return rows[0] === undefined ? undefined : toToken(rows[0]);
  }

  async listTokens(userId?: number): Promise<TokenRecord[]> {
    const rows =
      userId === undefined
        ? await this.q<TokenRow>("SELECT * FROM tokens ORDER BY id")
        : await this.q<TokenRow>("SELECT * FROM tokens WHERE user_id = $1 ORDER BY id", [userId]);
    return rows.map(toToken);
  }

  async revokeToken(id: number): Promise<boolean> {
    return (await this.changes("DELETE FROM tokens WHERE id = $1", [id])) > 0;
  }

  async touchToken(id: number, usedAt: number): Promise<void> {
    await this.q("UPDATE tokens SET last_used_at = $1 WHERE id = $2", [usedAt, id]);
  }

  // --- SSH keys ----------------------------------------------------------------------
  async addKey(key: {
    userId: number;
    algorithm: string;
    publicKey: string;
    fingerprint: string;
    comment: string;
    createdAt: number;
  }): Promise<KeyRecord> {
    const rows = await this.q<KeyRow>(
      `INSERT INTO ssh_keys (user_id, algorithm, public_key, fingerprint, comment, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [key.userId, key.algorithm, key.publicKey, key.fingerprint, key.comment, key.createdAt],
      () => new LoreError("key_exists", { fingerprint: key.fingerprint }),
    );
    return toKey(rows[0] as KeyRow);
  }

  async findKeyByFingerprint(fingerprint: string): Promise<KeyRecord | undefined> {
    const rows = await this.q<KeyRow>("SELECT * FROM ssh_keys WHERE fingerprint = $1", [
      fingerprint,
    ]);
    return rows[0] === undefined ? undefined : toKey(rows[0]);
  }

  async listKeys(userId?: number): Promise<KeyRecord[]> {
    const rows =
      userId === undefined
        ? await this.q<KeyRow>("SELECT * FROM ssh_keys ORDER BY id")
        : await this.q<KeyRow>("SELECT * FROM ssh_keys WHERE user_id = $1 ORDER BY id", [userId]);
    return rows.map(toKey);
  }

  async removeKey(id: number): Promise<boolean> {
    return (await this.changes("DELETE FROM ssh_keys WHERE id = $1", [id])) > 0;
  }

  // --- hosted repositories -----------------------------------------------------------
  async addRepo(repo: {
    owner: string;
    name: string;
    public: boolean;
    defaultBranch: string;
    createdAt: number;
  }): Promise<RepoRecord> {
    const rows = await this.q<RepoRow>(
      `INSERT INTO repos (owner, name, public, default_branch, created_at)
       VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [repo.owner, repo.name, repo.public, repo.defaultBranch, repo.createdAt],
      () => new LoreError("repo_exists", { repo: `${repo.owner}/${repo.name}` }),
    );
    return toRepo(rows[0] as RepoRow);
  }

  async getRepo(fullName: string): Promise<RepoRecord | undefined> {
    const parts = splitFullName(fullName);
    if (parts === undefined) return undefined;
    const rows = await this.q<RepoRow>("SELECT * FROM repos WHERE owner = $1 AND name = $2", parts);
    return rows[0] === undefined ? undefined : toRepo(rows[0]);
  }

  async listRepos(): Promise<RepoRecord[]> {
    return (
      await this.q<RepoRow>('SELECT * FROM repos ORDER BY owner COLLATE "C", name COLLATE "C"')
    ).map(toRepo);
  }

  async removeRepo(fullName: string): Promise<boolean> {
    const parts = splitFullName(fullName);
    if (parts === undefined) return false;
    return (await this.changes("DELETE FROM repos WHERE owner = $1 AND name = $2", parts)) > 0;
  }

  // --- access grants -----------------------------------------------------------------
  async grant(grant: { repoId: number; subject: Subject; level: AccessLevel }): Promise<void> {
    // One upsert on the partial unique index of the subject's kind: two servers granting
    // at once leave one row, the later level.
    const sql =
      grant.subject.kind === "user"
        ? `INSERT INTO grants (repo_id, user_id, level) VALUES ($1, $2, $3)
           ON CONFLICT (repo_id, user_id) WHERE user_id IS NOT NULL DO UPDATE SET level = excluded.level`
        : `INSERT INTO grants (repo_id, group_id, level) VALUES ($1, $2, $3)
           ON CONFLICT (repo_id, group_id) WHERE group_id IS NOT NULL DO UPDATE SET level = excluded.level`;
    await this.q(sql, [grant.repoId, grant.subject.id, grant.level]);
  }

  async revoke(grant: { repoId: number; subject: Subject }): Promise<boolean> {
    const [userId, groupId] = subjectColumns(grant.subject);
    return (
      (await this.changes(
        `DELETE FROM grants WHERE repo_id = $1
           AND user_id IS NOT DISTINCT FROM $2::bigint AND group_id IS NOT DISTINCT FROM $3::bigint`,
        [grant.repoId, userId, groupId],
      )) > 0
    );
  }

  async listGrants(repoId: number): Promise<GrantRecord[]> {
    return (
      await this.q<GrantRow>(
        "SELECT * FROM grants WHERE repo_id = $1 ORDER BY user_id IS NULL, user_id, group_id",
        [repoId],
      )
    ).map(toGrant);
  }

  async grantsFor(userId: number): Promise<GrantRecord[]> {
    return (
      await this.q<GrantRow>(
        // Two indexed lookups; an OR of both would scan every grant.
        `SELECT * FROM (
           SELECT * FROM grants WHERE user_id = $1
           UNION ALL
           SELECT g.* FROM members m JOIN grants g ON g.group_id = m.group_id WHERE m.user_id = $1
         ) AS applying ORDER BY repo_id, user_id IS NULL, user_id, group_id`,
        [userId],
      )
    ).map(toGrant);
  }

  // --- branch protection -------------------------------------------------------------
  async protectBranch(rule: BranchRule): Promise<void> {
    await this.transaction(async (client) => {
      // Deleting first drops the old rule's pushers with it (ON DELETE CASCADE).
      await client.query("DELETE FROM branch_rules WHERE repo_id = $1 AND pattern = $2", [
        rule.repoId,
        rule.pattern,
      ]);
      await client.query(
        "INSERT INTO branch_rules (repo_id, pattern, allow_force_push, required_approvals) VALUES ($1, $2, $3, $4)",
        [rule.repoId, rule.pattern, rule.allowForcePush, rule.requiredApprovals ?? 0],
      );
      const users = [...new Set(rule.pushUserIds)];
      const groups = [...new Set(rule.pushGroupIds)];
      if (users.length > 0 || groups.length > 0) {
        await client.query(
          `INSERT INTO branch_rule_pushers (repo_id, pattern, user_id, group_id)
           SELECT $1::bigint, $2::text, u, NULL FROM unnest($3::bigint[]) AS u
           UNION ALL
           SELECT $1::bigint, $2::text, NULL, g FROM unnest($4::bigint[]) AS g`,
          [rule.repoId, rule.pattern, users, groups],
        );
      }
    });
  }

  async unprotectBranch(repoId: number, pattern: string): Promise<boolean> {
    return (
      (await this.changes("DELETE FROM branch_rules WHERE repo_id = $1 AND pattern = $2", [
        repoId,
        pattern,
      ])) > 0
    );
  }

  async listBranchRules(repoId: number): Promise<BranchRule[]> {
    const rules = await this.q<RuleRow>(
      'SELECT * FROM branch_rules WHERE repo_id = $1 ORDER BY pattern COLLATE "C"',
      [repoId],
    );
    const pushers = await this.q<PusherRow>(
      "SELECT pattern, user_id, group_id FROM branch_rule_pushers WHERE repo_id = $1 ORDER BY user_id, group_id",
      [repoId],
    );
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
  }

  // --- draft limits ------------------------------------------------------------------
  async setDraftLimit(subject: Subject, limit: number): Promise<void> {
    const sql =
      subject.kind === "user"
        ? `INSERT INTO draft_limits (user_id, draft_limit) VALUES ($1, $2)
           ON CONFLICT (user_id) WHERE user_id IS NOT NULL DO UPDATE SET draft_limit = excluded.draft_limit`
        : `INSERT INTO draft_limits (group_id, draft_limit) VALUES ($1, $2)
           ON CONFLICT (group_id) WHERE group_id IS NOT NULL DO UPDATE SET draft_limit = excluded.draft_limit`;
    await this.q(sql, [subject.id, limit]);
  }

  async getDraftLimit(subject: Subject): Promise<number | undefined> {
    const [userId, groupId] = subjectColumns(subject);
    const rows = await this.q<{ draft_limit: number }>(
      `SELECT draft_limit FROM draft_limits
       WHERE user_id IS NOT DISTINCT FROM $1::bigint AND group_id IS NOT DISTINCT FROM $2::bigint`,
      [userId, groupId],
    );
    return rows[0]?.draft_limit;
  }

  async removeDraftLimit(subject: Subject): Promise<boolean> {
    const [userId, groupId] = subjectColumns(subject);
    return (
      (await this.changes(
        `DELETE FROM draft_limits
         WHERE user_id IS NOT DISTINCT FROM $1::bigint AND group_id IS NOT DISTINCT FROM $2::bigint`,
        [userId, groupId],
      )) > 0
    );
  }

  // --- merge requests ----------------------------------------------------------------
  async addMergeRequest(request: {
    repoId: number;
    source: string;
    target: string;
    title: string;
    body: string;
    origin: "human" | "machine";
    authorId: number;
    createdAt: number;
  }): Promise<MergeRequestRecord> {
    // One statement: the repository's row lock (the UPDATE) orders servers numbering at
    // once, and the number taken is never handed out again, even if the request is deleted.
    const rows = await this.q<MergeRequestRow>(
      `WITH taken AS (
         UPDATE repos SET next_mr_number = next_mr_number + 1 WHERE id = $1
         RETURNING next_mr_number - 1 AS number
       )
       INSERT INTO merge_requests (repo_id, number, source, target, title, body, origin, author_id, created_at)
       SELECT $1, taken.number, $2, $3, $4, $5, $6, $7, $8 FROM taken
       RETURNING *`,
      [
        request.repoId,
        request.source,
        request.target,
        request.title,
        request.body,
        request.origin,
        request.authorId,
        request.createdAt,
      ],
    );
    const row = rows[0];
    if (row === undefined) throw new LoreError("repo_not_found", { repo: String(request.repoId) });
    return (await this.withApprovals([row]))[0] as MergeRequestRecord;
  }

  async getMergeRequest(repoId: number, number: number): Promise<MergeRequestRecord | undefined> {
    const rows = await this.q<MergeRequestRow>(
      "SELECT * FROM merge_requests WHERE repo_id = $1 AND number = $2",
      [repoId, number],
    );
    return (await this.withApprovals(rows))[0];
  }

  async listMergeRequests(
    repoId: number,
    filter: { state?: MergeRequestState; source?: string } = {},
  ): Promise<MergeRequestRecord[]> {
    const rows = await this.q<MergeRequestRow>(
      `SELECT * FROM merge_requests WHERE repo_id = $1 AND ($2::text IS NULL OR state = $2)
         AND ($3::text IS NULL OR source = $3) ORDER BY number DESC`,
      [repoId, filter.state ?? null, filter.source ?? null],
    );
    return this.withApprovals(rows);
  }

  async finishMergeRequest(
    repoId: number,
    number: number,
    end: { state: "closed" | "merged"; at: number; byId: number; mergeCommit?: string },
  ): Promise<boolean> {
    return (
      (await this.changes(
        `UPDATE merge_requests SET state = $1, ended_at = $2, ended_by_id = $3, merge_commit = $4
         WHERE repo_id = $5 AND number = $6 AND state = 'open'`,
        [end.state, end.at, end.byId, end.mergeCommit ?? null, repoId, number],
      )) > 0
    );
  }

  async approveMergeRequest(
    repoId: number,
    number: number,
    userId: number,
    at: number,
  ): Promise<void> {
    await this.q(
      `INSERT INTO mr_approvals (mr_id, user_id, at)
       SELECT id, $1, $2 FROM merge_requests WHERE repo_id = $3 AND number = $4
       ON CONFLICT DO NOTHING`,
      [userId, at, repoId, number],
    );
  }

  /** The records of merge request rows, with their approvals (one query for all rows). */
  private async withApprovals(rows: MergeRequestRow[]): Promise<MergeRequestRecord[]> {
    if (rows.length === 0) return [];
    const approvals = await this.q<ApprovalRow>(
      "SELECT mr_id, user_id, at FROM mr_approvals WHERE mr_id = ANY($1::bigint[]) ORDER BY at, user_id",
      [rows.map((row) => row.id)],
    );
    return rows.map((row) => ({
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
      approvals: approvals
        .filter((a) => a.mr_id === row.id)
        .map((a) => ({ userId: a.user_id, at: a.at })),
    }));
  }

  // --- rate limits -------------------------------------------------------------------
  async takeRateSlot(slot: {
    tokenId: number;
    route: string;
    windowStart: number;
    limit: number;
  }): Promise<boolean> {
    if (slot.limit < 1) return false;
    // One statement, so two servers can never both take the last call of a window: the
    // upsert locks the row and re-checks the WHERE on its newest version. A later window
    // resets the row; a full one is left as it is (no row returned).
    const rows = await this.q(
      `INSERT INTO rate_windows AS w (token_id, route, window_start, calls) VALUES ($1, $2, $3, 1)
       ON CONFLICT (token_id, route) DO UPDATE SET
         calls = CASE WHEN w.window_start < excluded.window_start THEN 1 ELSE w.calls + 1 END,
         window_start = GREATEST(w.window_start, excluded.window_start)
       WHERE w.window_start < excluded.window_start OR w.calls < $4
       RETURNING calls`,
      [slot.tokenId, slot.route, slot.windowStart, slot.limit],
    );
    return rows.length > 0;
  }

  // --- web view sessions -------------------------------------------------------------
  async addWebSession(session: WebSessionRecord): Promise<void> {
    await this.q(
      "INSERT INTO web_sessions (hash, token_id, csrf, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
      [session.hash, session.tokenId, session.csrf, session.createdAt, session.expiresAt],
    );
  }

  async findWebSession(hash: string, now: number): Promise<WebSessionRecord | undefined> {
    const rows = await this.q<{
      hash: string;
      token_id: number;
      csrf: string;
      created_at: number;
      expires_at: number;
    }>(
      `SELECT s.hash, s.token_id, s.csrf, s.created_at, s.expires_at FROM web_sessions s
       JOIN tokens t ON t.id = s.token_id WHERE s.hash = $1 AND s.expires_at > $2`,
      [hash, now],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return {
      hash: row.hash,
      tokenId: row.token_id,
      csrf: row.csrf,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  async removeWebSession(hash: string, now: number): Promise<boolean> {
    // Both deletions in one statement (data-modifying CTEs all run).
    const rows = await this.q<{ n: number }>(
      `WITH gone AS (DELETE FROM web_sessions WHERE hash = $1 RETURNING 1),
            expired AS (DELETE FROM web_sessions WHERE expires_at <= $2 AND hash <> $1 RETURNING 1)
       SELECT (SELECT count(*) FROM gone) AS n`,
      [hash, now],
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
