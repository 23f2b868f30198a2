/**
 * The team server's administration over its REST API (`/api/v1/admin/…`): the
 * {@link AdminPort} `lore user|token|group|access|key|repo|branch` use when a team server
 * is configured and its data folder is not on this machine. The token must be a site
 * admin's with the `admin` scope; the server's refusals come back as the same LoreError
 * codes as on the database directly.
 */
import {
  type AccessListWire,
  type BranchRuleWire,
  type CreatedTokenWire,
  fromWireCreatedToken,
  fromWireGroup,
  fromWireKey,
  fromWireRepo,
  fromWireRule,
  fromWireToken,
  fromWireUser,
  type GroupWire,
  type KeyWire,
  type RepoWire,
  type TokenWire,
  type UserWire,
  wireAccessList,
} from "../../core/access/admin-wire.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { parseRepoName } from "../../core/repos/repo-name.js";
import type { AdminPort } from "../../ports/admin-port.js";
import type { TeamClient } from "./team-client.js";

const BASE = "/api/v1/admin";

/** One path segment, encoded (`group:leads`, `SHA256:…/…`, `release/*`). */
const seg = (text: string): string => encodeURIComponent(text);

/**
 * `owner/name` as two path segments, checked here first: a name such as `acme/..` would be
 * folded by the URL parser before the server could refuse it. A name that is not a
 * repository name answers as on the database: `invalid_repo_name` where the name is parsed
 * there (`removeRepo`), `repo_not_found` where it is only looked up (access, branch rules).
 *
 * @throws LoreError `invalid_repo_name` or `repo_not_found`.
 */
function repoPath(fullName: string, bad: "refuse" | "not_found" = "not_found"): string {
  let parts: { owner: string; name: string };
  try {
    parts = parseRepoName(fullName);
  } catch (error) {
    if (bad === "refuse") throw error;
    throw new LoreError("repo_not_found", { repo: fullName });
  }
  return `${seg(parts.owner)}/${seg(parts.name)}`;
}

/** `?user=NAME` when a user is given. */
const userQuery = (user: string | undefined): string =>
  user === undefined ? "" : `?user=${encodeURIComponent(user)}`;

/**
 * The administration over a team server's API.
 *
 * @param client - the configured team server (`main/team-client.ts`).
 */
export function remoteAdmin(client: TeamClient): AdminPort {
  const call = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    client.request<T>(method, `${BASE}${path}`, body);
  return {
    addUser: async ({ name, siteAdmin }) =>
      fromWireUser(await call<UserWire>("POST", "/users", { name, site_admin: siteAdmin })),
    listUsers: async () => (await call<UserWire[]>("GET", "/users")).map(fromWireUser),
    removeUser: async (name) => {
      await call("DELETE", `/users/${seg(name)}`);
    },

    createToken: async ({ user, scopes, expires, label }) =>
      fromWireCreatedToken(
        await call<CreatedTokenWire>("POST", "/tokens", {
          user,
          scopes,
          ...(expires === undefined ? {} : { expires }),
          ...(label === undefined ? {} : { label }),
        }),
      ),
    listTokens: async (user) =>
      (await call<TokenWire[]>("GET", `/tokens${userQuery(user)}`)).map(fromWireToken),
    revokeToken: async (id) => {
      await call("DELETE", `/tokens/${id}`);
    },

    addGroup: async (name) => fromWireGroup(await call<GroupWire>("POST", "/groups", { name })),
    listGroups: async () => (await call<GroupWire[]>("GET", "/groups")).map(fromWireGroup),
    removeGroup: async (name) => {
      await call("DELETE", `/groups/${seg(name)}`);
    },
    addMember: async (group, user) => {
      await call("PUT", `/groups/${seg(group)}/members/${seg(user)}`);
    },
    removeMember: async (group, user) =>
      (await call<{ removed: boolean }>("DELETE", `/groups/${seg(group)}/members/${seg(user)}`))
        .removed,
    listMembers: async (group) =>
      (await call<{ members: string[] }>("GET", `/groups/${seg(group)}/members`)).members,

    grantAccess: async ({ subject, repo, level }) => {
      await call("PUT", `/repos/${repoPath(repo)}/access/${seg(subject)}`, { level });
    },
    revokeAccess: async ({ subject, repo }) =>
      (
        await call<{ revoked: boolean }>(
          "DELETE",
          `/repos/${repoPath(repo)}/access/${seg(subject)}`,
        )
      ).revoked,
    listAccess: async (repo) =>
      wireAccessList(await call<AccessListWire>("GET", `/repos/${repoPath(repo)}/access`)),

    addKey: async ({ user, text }) =>
      fromWireKey(await call<KeyWire>("POST", "/keys", { user, key: text })),
    listKeys: async (user) =>
      (await call<KeyWire[]>("GET", `/keys${userQuery(user)}`)).map(fromWireKey),
    removeKey: async (idOrFingerprint) =>
      fromWireKey(await call<KeyWire>("DELETE", `/keys/${seg(idOrFingerprint)}`)),

    createRepo: async ({ fullName, public: isPublic, defaultBranch }) =>
      fromWireRepo(
        await call<RepoWire>("POST", "/repos", {
          full_name: fullName,
          public: isPublic,
          ...(defaultBranch === undefined ? {} : { default_branch: defaultBranch }),
        }),
      ),
    listRepos: async () => (await call<RepoWire[]>("GET", "/repos")).map(fromWireRepo),
    removeRepo: async (fullName) =>
      (await call<{ path: string }>("DELETE", `/repos/${repoPath(fullName, "refuse")}`)).path,

    protectBranch: async ({ repo, pattern, push, allowForcePush, requiredApprovals }) =>
      fromWireRule(
        await call<BranchRuleWire>(
          "PUT",
          `/repos/${repoPath(repo)}/protected-branches/${seg(pattern)}`,
          {
            push,
            allow_force_push: allowForcePush,
            required_approvals: requiredApprovals,
          },
        ),
      ),
    unprotectBranch: async ({ repo, pattern }) =>
      (
        await call<{ removed: boolean }>(
          "DELETE",
          `/repos/${repoPath(repo)}/protected-branches/${seg(pattern)}`,
        )
      ).removed,
    listBranchRules: async (repo) =>
      (await call<BranchRuleWire[]>("GET", `/repos/${repoPath(repo)}/protected-branches`)).map(
        fromWireRule,
      ),
  };
}
