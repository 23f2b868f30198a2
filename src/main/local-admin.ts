/**
 * The team server's administration on its database directly (seed 004, team server): the
 * {@link AdminPort} over the access services and the {@link ServerStore}. What `lore
 * user|token|…` use when no team server is configured (set-up), and what the REST routes
 * `/api/v1/admin/…` call once the caller is known to be a site admin.
 */
import { parseExpiry } from "../core/access/parse-expiry.js";
import type { AdminKey, AdminPort, AdminRepo, AdminToken } from "../ports/admin-port.js";
import type { KeyRecord, RepoRecord, ServerStore, TokenRecord } from "../ports/server-store.js";
import {
  listBranchRules,
  protectBranch,
  unprotectBranch,
} from "../services/access/branch-rules.js";
import { grantAccess, listAccess, revokeAccess } from "../services/access/grants.js";
import {
  addGroup,
  addMember,
  listGroups,
  removeGroup,
  removeMember,
  requireGroup,
} from "../services/access/groups.js";
import {
  bareRepoPath,
  createRepo,
  listRepos,
  removeRepo,
} from "../services/access/hosted-repos.js";
import { addKey, listKeys, removeKey } from "../services/access/ssh-keys.js";
import { createToken, listTokens, revokeToken } from "../services/access/tokens.js";
import { addUser, removeUser, requireUser } from "../services/access/users.js";
import { syncProtectionMarker } from "../services/push/protection-marker.js";
import { hostedRepoDeps } from "./open-server.js";

/** What {@link createLocalAdmin} needs. */
export interface LocalAdminDeps {
  store: ServerStore;
  /** The server's data folder (`[server] data`): the bare repositories are under `repos/`. */
  dataDir: string;
  /** Runs after a new bare repository exists: installs Lore's push hooks. Default: none. */
  afterCreateRepo?: (dir: string) => Promise<void>;
  /**
   * Runs before a hosted repository is removed, while its folder still exists: drops its
   * knowledge from the index (entries, drafts, counters; `EntryIndex.forgetHostedRepository`)
   * so a repository made again under the name starts empty. Default: none.
   */
  beforeRemoveRepo?: (fullName: string) => Promise<void>;
  /** Runs after a user is removed: drops their usage counters from the index. Default: none. */
  afterRemoveUser?: (name: string) => Promise<void>;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

/**
 * The administration over the server's records, with no rights check (whoever holds the
 * database holds the server; the REST routes check the caller first).
 *
 * @param deps - see {@link LocalAdminDeps}.
 */
export function createLocalAdmin(deps: LocalAdminDeps): AdminPort {
  const { store, dataDir } = deps;
  const now = deps.now ?? Date.now;
  const repoView = (repo: RepoRecord): AdminRepo => ({
    ...repo,
    path: bareRepoPath(dataDir, repo.fullName),
  });
  return {
    addUser: (request) => addUser(store, { ...request, now: now() }),
    listUsers: () => store.listUsers(),
    removeUser: async (name) => {
      await removeUser(store, name);
      await deps.afterRemoveUser?.(name);
    },

    async createToken(request) {
      // The lifetime is read before anything is written (a bad one is invalid_input).
      const expiresInMs = request.expires === undefined ? undefined : parseExpiry(request.expires);
      const created = await createToken(store, {
        user: request.user,
        scopes: request.scopes,
        ...(expiresInMs === undefined ? {} : { expiresInMs }),
        ...(request.label === undefined ? {} : { label: request.label }),
        now: now(),
      });
      return { secret: created.secret, token: tokenView(created.token, created.user.name) };
    },
    listTokens: async (user) =>
      (await listTokens(store, user)).map((token) => tokenView(token, token.user)),
    revokeToken: (id) => revokeToken(store, id),

    addGroup: async (name) => ({ ...(await addGroup(store, { name, now: now() })), members: [] }),
    listGroups: () => listGroups(store),
    removeGroup: (name) => removeGroup(store, name),
    addMember: (group, user) => addMember(store, group, user),
    removeMember: (group, user) => removeMember(store, group, user),
    async listMembers(group) {
      const found = await requireGroup(store, group);
      return (await store.listMembers(found.id)).map((user) => user.name);
    },

    grantAccess: (request) => grantAccess(store, request),
    revokeAccess: (request) => revokeAccess(store, request),
    async listAccess(repo) {
      const { repo: record, grants } = await listAccess(store, repo);
      return { repo: record.fullName, public: record.public, grants };
    },

    async addKey(request) {
      const user = await requireUser(store, request.user);
      return keyView(await addKey(store, { ...request, now: now() }), user.name);
    },
    listKeys: async (user) => (await listKeys(store, user)).map((key) => keyView(key, key.user)),
    async removeKey(idOrFingerprint) {
      const key = await removeKey(store, idOrFingerprint);
      return keyView(key, (await store.getUserById(key.userId))?.name ?? "");
    },

    async createRepo(request) {
      const { repo } = await createRepo(hostedRepoDeps(store, dataDir, deps.afterCreateRepo), {
        fullName: request.fullName,
        public: request.public,
        ...(request.defaultBranch === undefined ? {} : { defaultBranch: request.defaultBranch }),
        now: now(),
      });
      return repoView(repo);
    },
    listRepos: async () => (await listRepos({ store })).map(repoView),
    removeRepo: async (fullName) => {
      if ((await store.getRepo(fullName)) !== undefined) await deps.beforeRemoveRepo?.(fullName);
      return removeRepo({ store, dataDir }, fullName);
    },

    async protectBranch(request) {
      await protectBranch(store, request);
      // The pre-receive script refuses what it cannot check only where the marker is.
      await syncProtectionMarker(store, dataDir, request.repo);
      const rules = await listBranchRules(store, request.repo);
      // The stored rule, named as listed (users and groups by name).
      return (
        rules.find((rule) => rule.pattern === request.pattern) ?? {
          pattern: request.pattern,
          push: [...request.push],
          allowForcePush: request.allowForcePush,
          requiredApprovals: request.requiredApprovals,
        }
      );
    },
    async unprotectBranch(request) {
      const removed = await unprotectBranch(store, request);
      await syncProtectionMarker(store, dataDir, request.repo);
      return removed;
    },
    listBranchRules: (repo) => listBranchRules(store, repo),
  };
}

/** A token's record without its hash, with its user's name. */
function tokenView(token: TokenRecord, user: string): AdminToken {
  const { hash: _hash, ...rest } = token as TokenRecord & { user?: string };
  return { ...rest, user };
}

/** A key's record with its user's name. */
function keyView(key: KeyRecord, user: string): AdminKey {
  return { ...key, user };
}
