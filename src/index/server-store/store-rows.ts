/**
 * The rows of the server store's tables as both engines answer them, and their mapping to
 * the port's records (`ports/server-store.ts`): one definition for the SQLite and the
 * PostgreSQL store. A flag column is `0`/`1` on SQLite and a boolean on PostgreSQL
 * ({@link Flag}); every other column has the same type on both (PostgreSQL's BIGINT is
 * parsed to a number by the PostgreSQL store's pool).
 */
import type { AccessLevel, Scope } from "../../core/access/rights.js";
import type {
  GrantRecord,
  GroupRecord,
  KeyRecord,
  MergeRequestState,
  RepoRecord,
  TokenRecord,
  UserRecord,
} from "../../ports/server-store.js";

/** A boolean column: `0`/`1` (SQLite) or `false`/`true` (PostgreSQL). */
export type Flag = number | boolean;

/** A row of `users`. */
export interface UserRow {
  id: number;
  name: string;
  site_admin: Flag;
  created_at: number;
}
/** A row of `groups`. */
export interface GroupRow {
  id: number;
  name: string;
  created_at: number;
}
/** A row of `tokens` (`scopes` comma-separated). */
export interface TokenRow {
  id: number;
  user_id: number;
  hash: string;
  prefix: string;
  scopes: string;
  label: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
}
/** A row of `ssh_keys`. */
export interface KeyRow {
  id: number;
  user_id: number;
  algorithm: string;
  public_key: string;
  fingerprint: string;
  comment: string;
  created_at: number;
}
/** A row of `repos`. */
export interface RepoRow {
  id: number;
  owner: string;
  name: string;
  public: Flag;
  default_branch: string;
  created_at: number;
}
/** A row of `grants`: exactly one of `user_id`, `group_id` is set. */
export interface GrantRow {
  repo_id: number;
  user_id: number | null;
  group_id: number | null;
  level: AccessLevel;
}
/** A row of `branch_rules`. */
export interface RuleRow {
  repo_id: number;
  pattern: string;
  allow_force_push: Flag;
  required_approvals: number;
}
/** A row of `merge_requests`. */
export interface MergeRequestRow {
  id: number;
  repo_id: number;
  number: number;
  source: string;
  target: string;
  title: string;
  body: string;
  origin: "human" | "machine";
  state: MergeRequestState;
  author_id: number;
  created_at: number;
  ended_at: number | null;
  ended_by_id: number | null;
  merge_commit: string | null;
}
/** A row of `branch_rule_pushers`: exactly one of `user_id`, `group_id` is set. */
export interface PusherRow {
  pattern: string;
  user_id: number | null;
  group_id: number | null;
}

/** A user's record. */
export const toUser = (row: UserRow): UserRecord => ({
  id: row.id,
  name: row.name,
  siteAdmin: Boolean(row.site_admin),
  createdAt: row.created_at,
});
/** A group's record. */
export const toGroup = (row: GroupRow): GroupRecord => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
});
/** A token's record (no secret: only its hash is stored). */
export const toToken = (row: TokenRow): TokenRecord => ({
  id: row.id,
  userId: row.user_id,
  hash: row.hash,
  prefix: row.prefix,
  scopes: row.scopes === "" ? [] : (row.scopes.split(",") as Scope[]),
  label: row.label,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
});
/** An SSH key's record. */
export const toKey = (row: KeyRow): KeyRecord => ({
  id: row.id,
  userId: row.user_id,
  algorithm: row.algorithm,
  publicKey: row.public_key,
  fingerprint: row.fingerprint,
  comment: row.comment,
  createdAt: row.created_at,
});
/** A hosted repository's record. */
export const toRepo = (row: RepoRow): RepoRecord => ({
  id: row.id,
  owner: row.owner,
  name: row.name,
  fullName: `${row.owner}/${row.name}`,
  public: Boolean(row.public),
  defaultBranch: row.default_branch,
  createdAt: row.created_at,
});
/** A grant's record. */
export const toGrant = (row: GrantRow): GrantRecord => ({
  repoId: row.repo_id,
  subject:
    row.user_id !== null
      ? { kind: "user", id: row.user_id }
      : { kind: "group", id: row.group_id as number },
  level: row.level,
});
