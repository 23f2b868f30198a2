/**
 * The administration records as the REST API `/api/v1/admin/…` carries them (snake_case
 * fields and ISO 8601 times, like the rest of `/api/v1`), and back: the routes answer
 * `toWire…` of what the local administration returns, the remote administration reads
 * `fromWire…`, so both ends of `lore user|token|…` see the same records. Pure.
 */
import type {
  AdminAccessList,
  AdminBranchRule,
  AdminCreatedToken,
  AdminGroup,
  AdminKey,
  AdminRepo,
  AdminToken,
  AdminUser,
} from "./admin-records.js";
import type { AccessLevel, Scope } from "./rights.js";

/** A user over the API. */
export interface UserWire {
  id: number;
  name: string;
  site_admin: boolean;
  /** ISO 8601. */
  created_at: string;
}

/** A token over the API (never its secret or hash). */
export interface TokenWire {
  id: number;
  user_id: number;
  user: string;
  prefix: string;
  scopes: Scope[];
  label: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

/** `POST /api/v1/admin/tokens`' answer: the secret, shown this once. */
export interface CreatedTokenWire {
  secret: string;
  token: TokenWire;
}

/** A group over the API. */
export interface GroupWire {
  id: number;
  name: string;
  created_at: string;
  members: string[];
}

/** The grants on a repository over the API. */
export interface AccessListWire {
  repo: string;
  public: boolean;
  grants: { subject: string; level: AccessLevel }[];
}

/** An SSH key over the API. */
export interface KeyWire {
  id: number;
  user_id: number;
  user: string;
  algorithm: string;
  public_key: string;
  fingerprint: string;
  comment: string;
  created_at: string;
}

/** A hosted repository over the API. */
export interface RepoWire {
  id: number;
  owner: string;
  name: string;
  full_name: string;
  public: boolean;
  default_branch: string;
  created_at: string;
  path: string;
}

/** A branch rule over the API. */
export interface BranchRuleWire {
  pattern: string;
  push: string[];
  allow_force_push: boolean;
  required_approvals: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
const ms = (text: string): number => Date.parse(text);
const msOrNull = (text: string | null): number | null => (text === null ? null : ms(text));

/** A user for the API. */
export function toWireUser(user: AdminUser): UserWire {
  return {
    id: user.id,
    name: user.name,
    site_admin: user.siteAdmin,
    created_at: iso(user.createdAt),
  };
}

/** A user from the API. */
export function fromWireUser(user: UserWire): AdminUser {
  return {
    id: user.id,
    name: user.name,
    siteAdmin: user.site_admin,
    createdAt: ms(user.created_at),
  };
}

/** A token for the API. */
export function toWireToken(token: AdminToken): TokenWire {
  return {
    id: token.id,
    user_id: token.userId,
    user: token.user,
    prefix: token.prefix,
    scopes: [...token.scopes],
    label: token.label,
    created_at: iso(token.createdAt),
    expires_at: isoOrNull(token.expiresAt),
    last_used_at: isoOrNull(token.lastUsedAt),
  };
}

/** A token from the API (the fields in the order the local records have them). */
export function fromWireToken(token: TokenWire): AdminToken {
  return {
    id: token.id,
    userId: token.user_id,
    prefix: token.prefix,
    scopes: [...token.scopes],
    label: token.label,
    createdAt: ms(token.created_at),
    expiresAt: msOrNull(token.expires_at),
    lastUsedAt: msOrNull(token.last_used_at),
    user: token.user,
  };
}

/** A new token for the API. */
export function toWireCreatedToken(created: AdminCreatedToken): CreatedTokenWire {
  return { secret: created.secret, token: toWireToken(created.token) };
}

/** A new token from the API. */
export function fromWireCreatedToken(created: CreatedTokenWire): AdminCreatedToken {
  return { secret: created.secret, token: fromWireToken(created.token) };
}

/** A group for the API. */
export function toWireGroup(group: AdminGroup): GroupWire {
  return {
    id: group.id,
    name: group.name,
    created_at: iso(group.createdAt),
    members: [...group.members],
  };
}

/** A group from the API. */
export function fromWireGroup(group: GroupWire): AdminGroup {
  return {
    id: group.id,
    name: group.name,
    createdAt: ms(group.created_at),
    members: [...group.members],
  };
}

/** The grants on a repository, both ways (the shape is the same). */
export function wireAccessList(list: AdminAccessList | AccessListWire): AdminAccessList {
  return { repo: list.repo, public: list.public, grants: list.grants.map((g) => ({ ...g })) };
}

/** A key for the API. */
export function toWireKey(key: AdminKey): KeyWire {
  return {
    id: key.id,
    user_id: key.userId,
    user: key.user,
    algorithm: key.algorithm,
    public_key: key.publicKey,
    fingerprint: key.fingerprint,
    comment: key.comment,
    created_at: iso(key.createdAt),
  };
}

/** A key from the API (the fields in the order the local records have them). */
export function fromWireKey(key: KeyWire): AdminKey {
  return {
    id: key.id,
    userId: key.user_id,
    algorithm: key.algorithm,
    publicKey: key.public_key,
    fingerprint: key.fingerprint,
    comment: key.comment,
    createdAt: ms(key.created_at),
    user: key.user,
  };
}

/** A repository for the API. */
export function toWireRepo(repo: AdminRepo): RepoWire {
  return {
    id: repo.id,
    owner: repo.owner,
    name: repo.name,
    full_name: repo.fullName,
    public: repo.public,
    default_branch: repo.defaultBranch,
    created_at: iso(repo.createdAt),
    path: repo.path,
  };
}

/** A repository from the API. */
export function fromWireRepo(repo: RepoWire): AdminRepo {
  return {
    id: repo.id,
    owner: repo.owner,
    name: repo.name,
    fullName: repo.full_name,
    public: repo.public,
    defaultBranch: repo.default_branch,
    createdAt: ms(repo.created_at),
    path: repo.path,
  };
}

/** A branch rule for the API. */
export function toWireRule(rule: AdminBranchRule): BranchRuleWire {
  return {
    pattern: rule.pattern,
    push: [...rule.push],
    allow_force_push: rule.allowForcePush,
    required_approvals: rule.requiredApprovals,
  };
}

/** A branch rule from the API. */
export function fromWireRule(rule: BranchRuleWire): AdminBranchRule {
  return {
    pattern: rule.pattern,
    push: [...rule.push],
    allowForcePush: rule.allow_force_push,
    requiredApprovals: rule.required_approvals,
  };
}
