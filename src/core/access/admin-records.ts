/**
 * The team server's administration records (seed 004, team server: users, groups, API
 * tokens, access levels, SSH keys, hosted repositories, branch protection) as the
 * administration port answers them (`ports/admin-port.ts`). Times are ms since the epoch.
 */
import type { AccessLevel, Scope } from "./rights.js";

/** A user of the server. */
export interface AdminUser {
  id: number;
  name: string;
  /** Administers the server (admin on every repository). */
  siteAdmin: boolean;
  createdAt: number;
}

/** An API token as listed: never the secret, nor its hash. */
export interface AdminToken {
  id: number;
  userId: number;
  /** The user's name. */
  user: string;
  /** The token's first 12 characters (`lore_AbC1234`), to tell tokens apart. */
  prefix: string;
  scopes: Scope[];
  label: string;
  createdAt: number;
  /** `null`: never expires. */
  expiresAt: number | null;
  /** `null`: never used. */
  lastUsedAt: number | null;
}

/** A token just made: its secret, shown this once, and its record. */
export interface AdminCreatedToken {
  /** `lore_` + 43 characters; the server keeps only its SHA-256. */
  secret: string;
  token: AdminToken;
}

/** A group with its members' names (in name order). */
export interface AdminGroup {
  id: number;
  name: string;
  createdAt: number;
  members: string[];
}

/** The grants on one repository. */
export interface AdminAccessList {
  /** `owner/name`. */
  repo: string;
  public: boolean;
  /** Users first, then groups (`group:NAME`), each by name. */
  grants: { subject: string; level: AccessLevel }[];
}

/** A registered SSH public key. */
export interface AdminKey {
  id: number;
  userId: number;
  /** The user's name. */
  user: string;
  /** `ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256` … */
  algorithm: string;
  /** The key blob, base64 as in the `.pub` file. */
  publicKey: string;
  /** `SHA256:…` as `ssh-keygen -lf` prints it. */
  fingerprint: string;
  comment: string;
  createdAt: number;
}

/** A hosted repository with its bare folder on the server. */
export interface AdminRepo {
  id: number;
  owner: string;
  name: string;
  /** `owner/name`. */
  fullName: string;
  public: boolean;
  defaultBranch: string;
  createdAt: number;
  /** The bare repository's folder on the server (`<data>/repos/<owner>/<name>.git`). */
  path: string;
}

/** One branch protection rule. */
export interface AdminBranchRule {
  /** A branch name where `*` and `?` match (`main`, `release/*`). */
  pattern: string;
  /** Who may push: `anna`, `group:leads`; empty = anyone with write access. */
  push: string[];
  allowForcePush: boolean;
  /** Approvals a merge request into a matching branch needs (0–100). */
  requiredApprovals: number;
}
