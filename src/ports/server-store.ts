import type { AccessLevel, Scope } from "../core/access/rights.js";

/**
 * The team server's own records (seed 004, team server: users, groups, tokens, SSH keys,
 * hosted repositories, access grants, branch protection). Services reach them only through
 * this port, so that SQLite (`index/server-store/`, the embedded default) and PostgreSQL
 * (scale-out) are two implementations of one interface and no SQL lives in a service.
 *
 * Every method is async (a PostgreSQL pool answers later); names are compared as given
 * (they are validated lower-case by the services before they get here). Times are ms since
 * the epoch. Methods that look one record up return `undefined` when it does not exist;
 * writes that would duplicate a unique name throw LoreError `user_exists`, `group_exists`,
 * `repo_exists` or `key_exists`.
 */
export interface ServerStore {
  // --- users -------------------------------------------------------------------------
  /** Adds a user. @throws LoreError `user_exists`. */
  addUser(user: { name: string; siteAdmin: boolean; createdAt: number }): Promise<UserRecord>;
  getUser(name: string): Promise<UserRecord | undefined>;
  getUserById(id: number): Promise<UserRecord | undefined>;
  listUsers(): Promise<UserRecord[]>;
  /** Removes a user with their tokens, keys, grants and memberships; false when none. */
  removeUser(name: string): Promise<boolean>;
  countUsers(): Promise<number>;

  // --- groups ------------------------------------------------------------------------
  /** @throws LoreError `group_exists`. */
  addGroup(group: { name: string; createdAt: number }): Promise<GroupRecord>;
  getGroup(name: string): Promise<GroupRecord | undefined>;
  listGroups(): Promise<GroupRecord[]>;
  removeGroup(name: string): Promise<boolean>;
  /** Adds a member; adding one twice is a no-op. */
  addMember(groupId: number, userId: number): Promise<void>;
  removeMember(groupId: number, userId: number): Promise<boolean>;
  listMembers(groupId: number): Promise<UserRecord[]>;
  /** The ids of the groups a user belongs to. */
  groupsOf(userId: number): Promise<number[]>;

  // --- tokens ------------------------------------------------------------------------
  /**
   * Stores a token by the hash of its secret (the secret itself is never stored).
   * `expiresAt` null = never.
   */
  addToken(token: {
    userId: number;
    hash: string;
    prefix: string;
    scopes: readonly Scope[];
    label: string;
    createdAt: number;
    expiresAt: number | null;
  }): Promise<TokenRecord>;
  /** The live or expired token with this hash; revoked tokens are gone. */
  findTokenByHash(hash: string): Promise<TokenRecord | undefined>;
  listTokens(userId?: number): Promise<TokenRecord[]>;
  /** Deletes a token by id; false when there was none. */
  revokeToken(id: number): Promise<boolean>;
  /** Records when a token was last used (ms), for `lore token list`. */
  touchToken(id: number, usedAt: number): Promise<void>;

  // --- SSH keys ----------------------------------------------------------------------
  /** @throws LoreError `key_exists` (a key belongs to one user only). */
  addKey(key: {
    userId: number;
    /** `ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256` … */
    algorithm: string;
    /** The key blob as in the `.pub` file (base64). */
    publicKey: string;
    /** `SHA256:` + unpadded base64 of the blob's SHA-256, as `ssh-keygen -l` prints it. */
    fingerprint: string;
    comment: string;
    createdAt: number;
  }): Promise<KeyRecord>;
  findKeyByFingerprint(fingerprint: string): Promise<KeyRecord | undefined>;
  listKeys(userId?: number): Promise<KeyRecord[]>;
  removeKey(id: number): Promise<boolean>;

  // --- hosted repositories -----------------------------------------------------------
  /** @throws LoreError `repo_exists`. */
  addRepo(repo: {
    owner: string;
    name: string;
    public: boolean;
    defaultBranch: string;
    createdAt: number;
  }): Promise<RepoRecord>;
  /** By `owner/name`. */
  getRepo(fullName: string): Promise<RepoRecord | undefined>;
  listRepos(): Promise<RepoRecord[]>;
  removeRepo(fullName: string): Promise<boolean>;

  // --- access grants -----------------------------------------------------------------
  /** Sets (or replaces) the level of one user or group on one repository. */
  grant(grant: { repoId: number; subject: Subject; level: AccessLevel }): Promise<void>;
  revoke(grant: { repoId: number; subject: Subject }): Promise<boolean>;
  listGrants(repoId: number): Promise<GrantRecord[]>;
  /**
   * Every grant that applies to a user: their own and their groups', over all repositories
   * (the rights service folds them into one level per repository).
   */
  grantsFor(userId: number): Promise<GrantRecord[]>;

  // --- branch protection -------------------------------------------------------------
  /** Adds or replaces the rule for one pattern of one repository. */
  protectBranch(rule: BranchRule): Promise<void>;
  unprotectBranch(repoId: number, pattern: string): Promise<boolean>;
  listBranchRules(repoId: number): Promise<BranchRule[]>;

  // --- draft limits (seed 004 "Интерфейс": /admin/knowledge/limits/{users|groups}/{id}) ---
  /** Sets (or replaces) the draft limit of one user or group. */
  setDraftLimit(subject: Subject, limit: number): Promise<void>;
  /** The draft limit set for one user or group; `undefined` when none is set. */
  getDraftLimit(subject: Subject): Promise<number | undefined>;
  /** Removes a draft limit; false when none was set. */
  removeDraftLimit(subject: Subject): Promise<boolean>;

  // --- merge requests (hosted repositories) ------------------------------------------
  /**
   * Opens a merge request; its `number` is the repository's next (1, 2, …; never given
   * again after a deletion of the repository's requests).
   */
  addMergeRequest(request: {
    repoId: number;
    source: string;
    target: string;
    title: string;
    body: string;
    /** `machine` only when the server opened it (delivery); clients cannot set it. */
    origin: "human" | "machine";
    authorId: number;
    createdAt: number;
  }): Promise<MergeRequestRecord>;
  getMergeRequest(repoId: number, number: number): Promise<MergeRequestRecord | undefined>;
  /** A repository's requests, newest first; `state`/`source` filter when given. */
  listMergeRequests(
    repoId: number,
    filter?: { state?: MergeRequestState; source?: string },
  ): Promise<MergeRequestRecord[]>;
  /**
   * Moves an open request to `closed` or `merged` (with the merge commit); false when it
   * was not open (nothing changes).
   */
  finishMergeRequest(
    repoId: number,
    number: number,
    end: { state: "closed" | "merged"; at: number; byId: number; mergeCommit?: string },
  ): Promise<boolean>;
  /** Records a user's approval; approving twice is a no-op. */
  approveMergeRequest(repoId: number, number: number, userId: number, at: number): Promise<void>;

  // --- rate limits (seed 004: «600 обращений в минуту на токен») -------------------------
  /**
   * Takes one call of a rate-limited route for a token in a fixed window, atomically across
   * every process sharing the store: counted and `true` while fewer than `limit` calls were
   * taken in that window, else `false` (not counted). Rows of the token and route for
   * earlier windows are dropped.
   *
   * @param slot - `windowStart`: ms since the epoch, a multiple of the window length.
   */
  takeRateSlot(slot: {
    tokenId: number;
    route: string;
    windowStart: number;
    limit: number;
  }): Promise<boolean>;

  // --- web view sessions (`lore serve` at `/`) -----------------------------------------
  /**
   * Opens a sign-in session on a token. `hash` is the SHA-256 hex of the cookie's secret
   * (the secret itself is never stored); `csrf` the session's anti-forgery token.
   */
  addWebSession(session: WebSessionRecord): Promise<void>;
  /**
   * The session of a cookie secret's hash, while it has not expired at `now` (ms) and its
   * token still exists (a revoked token or a removed user ends its sessions); else `undefined`.
   */
  findWebSession(hash: string, now: number): Promise<WebSessionRecord | undefined>;
  /** Ends one session (sign-out); false when there was none. Also drops expired sessions. */
  removeWebSession(hash: string, now: number): Promise<boolean>;

  /** Closes the connection. Idempotent. */
  close(): Promise<void>;
}

/** A web view sign-in session (server store migration 4). */
export interface WebSessionRecord {
  /** SHA-256 hex of the cookie's secret. */
  hash: string;
  /** The token the session was opened with; its user and scopes apply. */
  tokenId: number;
  /** The anti-forgery token every write of the session carries. */
  csrf: string;
  /** ms since the epoch. */
  createdAt: number;
  /** ms since the epoch; the session ends then. */
  expiresAt: number;
}

/** A user of the team server. */
export interface UserRecord {
  id: number;
  name: string;
  siteAdmin: boolean;
  createdAt: number;
}

/** A group of users; grants to a group apply to every member. */
export interface GroupRecord {
  id: number;
  name: string;
  createdAt: number;
}

/** An API token, without its secret. */
export interface TokenRecord {
  id: number;
  userId: number;
  hash: string;
  /** The first characters of the secret (`lore_ab12…`), to tell tokens apart in lists. */
  prefix: string;
  scopes: Scope[];
  label: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

/** An SSH public key of a user. */
export interface KeyRecord {
  id: number;
  userId: number;
  algorithm: string;
  publicKey: string;
  fingerprint: string;
  comment: string;
  createdAt: number;
}

/** A repository hosted by `lore serve`, stored at `<data>/repos/<owner>/<name>.git`. */
export interface RepoRecord {
  id: number;
  owner: string;
  name: string;
  /** `owner/name`. */
  fullName: string;
  /** Readable by every user of the server (still with a token). */
  public: boolean;
  defaultBranch: string;
  createdAt: number;
}

/** Who a grant is for. */
export type Subject = { kind: "user"; id: number } | { kind: "group"; id: number };

/** One access grant. */
export interface GrantRecord {
  repoId: number;
  subject: Subject;
  level: AccessLevel;
}

/**
 * One branch-protection rule: branches matching `pattern` (a glob: `main`, `release/*`) may
 * be pushed to (and written by the server) only by the users and groups listed — by
 * anyone with write access when both lists are empty — and force pushes (and deletions)
 * are refused unless `allowForcePush`.
 */
export interface BranchRule {
  repoId: number;
  pattern: string;
  pushUserIds: number[];
  pushGroupIds: number[];
  allowForcePush: boolean;
  /**
   * Approvals a merge request into a matching branch needs before a writer may merge it.
   * Default (absent) 0.
   */
  requiredApprovals?: number;
}

/** Where a merge request stands. */
export type MergeRequestState = "open" | "closed" | "merged";

/** A merge request of a hosted repository. */
export interface MergeRequestRecord {
  id: number;
  repoId: number;
  /** Per repository: 1, 2, … */
  number: number;
  source: string;
  target: string;
  title: string;
  body: string;
  origin: "human" | "machine";
  state: MergeRequestState;
  authorId: number;
  createdAt: number;
  /** When it was closed or merged; `null` while open. */
  endedAt: number | null;
  /** Who closed or merged it; `null` while open. */
  endedById: number | null;
  mergeCommit: string | null;
  /** Approvals, oldest first. */
  approvals: { userId: number; at: number }[];
}
