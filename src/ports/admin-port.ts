/**
 * The team server's administration (seed 004, team server: users, groups, API tokens,
 * access levels, SSH keys, hosted repositories, branch protection), one method per
 * operation of `lore user|token|group|access|key|repo|branch`. Two implementations: on the
 * server's database directly (`main/local-admin.ts`, for set-up, no server running) and
 * over the REST API `/api/v1/admin/…` (`adapters/team-server/remote-admin.ts`). Both answer
 * the same shapes and throw the same LoreError codes, so the CLI prints the same either way.
 *
 * Times are ms since the epoch. Names are validated by the implementation (the services),
 * never here.
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
} from "../core/access/admin-records.js";
import type { AccessLevel, Scope } from "../core/access/rights.js";

export type {
  AdminAccessList,
  AdminBranchRule,
  AdminCreatedToken,
  AdminGroup,
  AdminKey,
  AdminRepo,
  AdminToken,
  AdminUser,
};

/**
 * The administration operations. Every method may also throw what its transport throws:
 * over the API `server_unreachable`, `token_*`, and `forbidden` (the token is not a site
 * admin's, or lacks the `admin` scope).
 */
export interface AdminPort {
  /** @throws LoreError `invalid_input` (bad name), `user_exists`. */
  addUser(request: { name: string; siteAdmin: boolean }): Promise<AdminUser>;
  /** Every user, by name. */
  listUsers(): Promise<AdminUser[]>;
  /** Removes a user with their tokens, keys, grants, memberships. @throws LoreError `user_not_found`. */
  removeUser(name: string): Promise<void>;

  /**
   * Creates a token.
   * @param request - `expires`: a lifetime as `lore token create --expires` takes it
   *   (`90m`, `12h`, `30d`); omitted = never.
   * @throws LoreError `user_not_found`, `invalid_input` (no scopes, bad lifetime or label).
   */
  createToken(request: {
    user: string;
    scopes: readonly Scope[];
    expires?: string;
    label?: string;
  }): Promise<AdminCreatedToken>;
  /** One user's tokens, or everyone's. @throws LoreError `user_not_found`. */
  listTokens(user?: string): Promise<AdminToken[]>;
  /** @throws LoreError `token_not_found`. */
  revokeToken(id: number): Promise<void>;

  /** @throws LoreError `invalid_input`, `group_exists`. */
  addGroup(name: string): Promise<AdminGroup>;
  /** Every group with its members, by name. */
  listGroups(): Promise<AdminGroup[]>;
  /** Removes a group with its memberships and grants. @throws LoreError `group_not_found`. */
  removeGroup(name: string): Promise<void>;
  /** Makes a user a member (already one: nothing changes). @throws LoreError `group_not_found`, `user_not_found`. */
  addMember(group: string, user: string): Promise<void>;
  /** @returns false when the user was not a member. @throws LoreError as {@link addMember}. */
  removeMember(group: string, user: string): Promise<boolean>;
  /** The members' names, by name. @throws LoreError `group_not_found`. */
  listMembers(group: string): Promise<string[]>;

  /**
   * Sets (replaces) the level of `anna` or `group:leads` on a repository.
   * @throws LoreError `invalid_input`, `user_not_found`, `group_not_found`, `repo_not_found`.
   */
  grantAccess(request: { subject: string; repo: string; level: AccessLevel }): Promise<void>;
  /** @returns false when there was no grant. @throws LoreError as {@link grantAccess}. */
  revokeAccess(request: { subject: string; repo: string }): Promise<boolean>;
  /** @throws LoreError `repo_not_found`. */
  listAccess(repo: string): Promise<AdminAccessList>;

  /**
   * Registers a user's OpenSSH public key.
   * @param request - `text`: the `.pub` file's text.
   * @throws LoreError `user_not_found`, `key_invalid`, `key_exists`.
   */
  addKey(request: { user: string; text: string }): Promise<AdminKey>;
  /** One user's keys, or everyone's. @throws LoreError `user_not_found`. */
  listKeys(user?: string): Promise<AdminKey[]>;
  /** Removes a key by id (`3`) or fingerprint (`SHA256:…`). @throws LoreError `key_not_found`. */
  removeKey(idOrFingerprint: string): Promise<AdminKey>;

  /**
   * Creates a hosted repository (the record, the bare repository, Lore's push hooks).
   * @throws LoreError `invalid_repo_name`, `invalid_input`, `repo_exists`, `git_failed`.
   */
  createRepo(request: {
    fullName: string;
    public: boolean;
    defaultBranch?: string;
  }): Promise<AdminRepo>;
  /** Every hosted repository, by `owner/name`. */
  listRepos(): Promise<AdminRepo[]>;
  /**
   * Removes a repository's record, grants, rules and bare folder with its history.
   * @returns the removed folder.
   * @throws LoreError `invalid_repo_name`, `repo_not_found`.
   */
  removeRepo(fullName: string): Promise<string>;

  /**
   * Protects the branches matching a pattern (replacing that pattern's rule).
   * @throws LoreError `invalid_input`, `repo_not_found`, `user_not_found`, `group_not_found`.
   */
  protectBranch(request: {
    repo: string;
    pattern: string;
    push: readonly string[];
    allowForcePush: boolean;
    requiredApprovals: number;
  }): Promise<AdminBranchRule>;
  /** @returns false when the pattern had no rule. @throws LoreError `repo_not_found`. */
  unprotectBranch(request: { repo: string; pattern: string }): Promise<boolean>;
  /** The rules of a repository, by pattern. @throws LoreError `repo_not_found`. */
  listBranchRules(repo: string): Promise<AdminBranchRule[]>;
}
