/**
 * The team server's reads, rights-checked (seed 004 "Интерфейс": «Права — knowledge:read и
 * knowledge:write; они же выводятся из уровня доступа к репозиторию»; every answer filtered
 * per repository by the caller's rights): the {@link ServerApi} the HTTP application calls.
 *
 * The sources a caller may see are the hosted repositories they can read (index repository
 * name = `owner/name`), plus — for site admins only — the OS user's sources this server
 * serves: its `--repo` folders (else `[index] repos`) and the knowledge roots; another
 * repository the OS user indexed into the same index file (`lore index`) is not seen. Each
 * repository seen brings its drafts (source `draft:<repo>`, seed 004): whoever can read a
 * repository sees its drafts, nobody else sees anything of them.
 */

import { join } from "node:path";
import { bareMergeGit } from "../adapters/git-cli/merge-git.js";
import type { Principal } from "../core/access/rights.js";
import { draftSourceOf } from "../core/drafts/draft.js";
import type { Edition } from "../core/editions/edition.js";
import { isLoreError, LoreError } from "../core/errors/lore-error.js";
import { parseRepoName } from "../core/repos/repo-name.js";
import { rootOfRepo, rootRepoName } from "../core/roots/root-repo-name.js";
import { resolveRoot } from "../core/roots/root-resolution.js";
import { DEFAULT_SHOWN_RATE_LIMIT } from "../core/stats/usage-stats.js";
import type { DraftsApi } from "../http/drafts-api.js";
import type { RepoView, ServerApi, UserView } from "../http/server-api.js";
import type { EntryIndex } from "../index/entry-index.js";
import { sqliteIndexStore } from "../index/index-store/sqlite-index-store.js";
import type { DraftsPort, KnowledgePort, RecallArgs } from "../mcp/knowledge-port.js";
import type { DraftStore } from "../ports/draft-store.js";
import type { IndexStore } from "../ports/index-store.js";
import type { RepoRecord, ServerStore } from "../ports/server-store.js";
import { requireServerAdmin } from "../services/access/admin-rights.js";
import { authenticateToken } from "../services/access/authenticate.js";
import { authorizeRepo, grantedLevels, levelOn } from "../services/access/authorize.js";
import { bareRepoPath } from "../services/access/hosted-repos.js";
import { type FileAtRef, readRawFile } from "../services/api/raw-file.js";
import { MirroredDraftStore } from "../services/drafts/mirrored-draft-store.js";
import { sqliteDraftStore } from "../services/drafts/sqlite-draft-store.js";
import { writeWhenFree } from "../services/indexing/write-when-free.js";
import { getEntry } from "../services/knowledge/get-entry.js";
import { listKnowledge } from "../services/knowledge/list-knowledge.js";
import { recallWithin } from "../services/knowledge/recall-within.js";
import { mergeRequestCalls } from "../services/merge-requests/merge-request-calls.js";
import { openMergeRequest } from "../services/merge-requests/open-merge-request.js";
import { buildReceipt } from "../services/receipts/record-receipt.js";
import { closeWebSession, openWebSession, resumeWebSession } from "../services/web/web-session.js";
import type { Lore } from "./compose.js";
import { hostedStats } from "./hosted-stats.js";
import { createLocalAdmin } from "./local-admin.js";
import { realPathOr } from "./real-path.js";
import { createDraftsApi, createLimitsApi, type OpenMachineMergeRequest } from "./server-drafts.js";
import { createReceiptsApi } from "./server-receipts.js";
import { createStatsApi } from "./server-stats.js";

/** A hosted repository as the index upkeep needs it. */
export interface HostedRepo {
  /** `owner/name`: also its index repository name. */
  fullName: string;
  /** The bare repository's folder. */
  dir: string;
  defaultBranch: string;
}

/** What {@link createServerApi} needs. */
export interface ServerApiDeps {
  store: ServerStore;
  index: EntryIndex;
  /** The server's data folder (`[server] data`): the bare repositories are under `repos/`. */
  dataDir: string;
  /**
   * Brings a hosted repository's index up to its default branch's head before it is read
   * (the self-healing of parse on push); does nothing when they agree.
   */
  freshen: (repo: HostedRepo) => Promise<void>;
  /** Reads a file at a ref of a bare repository (the git CLI adapter's `readFileAt`). */
  readFile: FileAtRef;
  /**
   * The OS user's own Lore (local sources, knowledge roots): its port serves site admins'
   * root tools (read_file, write_file, route_context, status). Absent: none.
   */
  local?: { lore: Lore; port: KnowledgePort; targets?: readonly string[] };
  /** What `GET /healthz` adds. Default: nothing. */
  health?: () => Record<string, unknown>;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Opens a delivery's merge request. Default: the server's own, with origin `machine`. */
  openMergeRequest?: OpenMachineMergeRequest;
  /** Writes a line to the server's log (a failed parse after a merge). Default: none. */
  log?: (line: string) => void;
  /** The server's edition (from `[server] license`, seed 004 editions). Default `community`. */
  edition?: Edition;
  /** Calls of `POST …/knowledge/shown` per token per minute (`[server] shown_rate_limit`); 0 = none. Default 600. */
  shownRateLimit?: number;
  /**
   * Runs after a repository created over `POST /api/v1/admin/repos` exists: installs Lore's
   * push hooks (`lore serve` passes it). Default: none.
   */
  afterCreateRepo?: (dir: string) => Promise<void>;
  /**
   * The index's records shared by every server on the database (`IndexStore`: durable
   * shown/read counts, the delivery lock of a branch, load receipts; PostgreSQL with
   * `[server] database`): counted into, read by the stats reports, each recall's receipt
   * stored in and listed from, and told of a removed user or repository.
   * Default: the SQLite view of `index` (its counters; locks of the data folder).
   */
  indexStore?: IndexStore;
  /**
   * The index the heals write through when it is another connection than `index`
   * (`lore serve`'s writer): with drafts on PostgreSQL, a draft a file replaces there is
   * removed from PostgreSQL too. Default: `index` only.
   */
  healIndex?: EntryIndex;
}

/**
 * The drafts port of the server: with shared records (`[server] database`), the records
 * mirrored into `deps.index` (and watched in `deps.healIndex`); else the index's own.
 */
function sharedDraftStore(deps: ServerApiDeps): DraftStore {
  const records = deps.indexStore?.drafts;
  if (records === undefined) return sqliteDraftStore(deps.index);
  const mirrored = new MirroredDraftStore({
    records,
    index: deps.index,
    hostedRepos: async () => (await deps.store.listRepos()).map((repo) => repo.fullName),
  });
  if (deps.healIndex !== undefined && deps.healIndex !== deps.index) {
    mirrored.watch(deps.healIndex);
  }
  return mirrored;
}

/** The refusal of a root tool to a caller who is not a site admin. */
export function rootsForbidden(): LoreError {
  const missing = "site admin rights (knowledge roots belong to the server's owner)";
  const missingRu = "права администратора сервера (корни знаний принадлежат владельцу сервера)";
  return new LoreError(
    "forbidden",
    { missing, missing_ru: missingRu },
    { data: { missing: "site_admin" } },
  );
}

/**
 * Builds the team server's reads over the store, the index and the hosted repositories.
 *
 * @param deps - see {@link ServerApiDeps}.
 */
export function createServerApi(deps: ServerApiDeps): ServerApi {
  const now = deps.now ?? Date.now;
  // Several servers may share the data folder: their delivery locks meet in its `locks/`.
  const indexStore =
    deps.indexStore ?? sqliteIndexStore(deps.index, { lockDir: join(deps.dataDir, "locks") });
  // The drafts: PostgreSQL's, mirrored into this server's index, with `[server] database`;
  // else the index's own.
  const draftStore = sharedDraftStore(deps);
  const hosted = (repo: RepoRecord): HostedRepo => ({
    fullName: repo.fullName,
    dir: bareRepoPath(deps.dataDir, repo.fullName),
    defaultBranch: repo.defaultBranch,
  });
  /** Reads need `knowledge:read`; a token that only carries `repo:read` reads files too. */
  const authorizeRead = async (principal: Principal, fullName: string, files: boolean) => {
    try {
      return await authorizeRepo(deps.store, principal, fullName, "knowledge:read");
    } catch (error) {
      if (!files || !isLoreError(error) || error.code !== "forbidden") throw error;
      return authorizeRepo(deps.store, principal, fullName, "repo:read").catch(() => {
        throw error;
      });
    }
  };
  /** The last failure logged per repository, so a read-heavy client does not flood the log. */
  const failedFreshen = new Map<string, string>();
  const freshenOrKeep = async (repo: RepoRecord): Promise<void> => {
    try {
      await deps.freshen(hosted(repo));
      failedFreshen.delete(repo.fullName);
    } catch (error) {
      const reason = isLoreError(error) ? `${error.text.en} [${error.code}]` : String(error);
      if (failedFreshen.get(repo.fullName) === reason) return;
      failedFreshen.set(repo.fullName, reason);
      deps.log?.(
        `lore: the index of ${repo.fullName} could not be brought up to date; its last index is read: ${reason}`,
      );
    }
  };
  const servedFolders = new Set((deps.local?.targets ?? []).map(realPathOr));
  /** The index sources the caller may see (see the module header), each brought fresh. */
  const visibleSources = async (principal: Principal): Promise<string[]> => {
    if (!principal.scopes.includes("knowledge:read")) return [];
    const all = await deps.store.listRepos();
    const granted = await grantedLevels(deps.store, principal);
    const readable = all.filter(
      (repo) => principal.siteAdmin || levelOn(repo, granted) !== undefined,
    );
    // One repository that cannot be brought fresh (its folder gone, git failing) does not
    // take the others' answers with it: its last index is read, the failure logged once.
    for (const repo of readable) await freshenOrKeep(repo);
    // The drafts other servers wrote or removed meanwhile (PostgreSQL; nothing on SQLite).
    await draftStore.refresh();
    // A repository's drafts (source `draft:<repo>`) are read with the same right as it.
    const names = readable.flatMap((repo) => [repo.fullName, draftSourceOf(repo.fullName)]);
    if (principal.siteAdmin) {
      // The OS user's sources this server serves: its `--repo` folders and the knowledge
      // roots — never another repository the user indexed into the same index file.
      const hostedNames = new Set(all.map((repo) => repo.fullName));
      for (const source of deps.index.repositoryRecords()) {
        if (hostedNames.has(source.repo)) continue;
        if (rootOfRepo(source.repo) !== undefined || servedFolders.has(realPathOr(source.path))) {
          names.push(source.repo);
        }
      }
    }
    // A repository's drafts (source `draft:<repo>`) are seen by exactly those who can read
    // it (seed 004: «черновик сразу виден всей команде с доступом к репозиторию»).
    return names.flatMap((name) =>
      rootOfRepo(name) === undefined ? [name, draftSourceOf(name)] : [name],
    );
  };
  /**
   * The source a `repo` argument names among the caller's (a hosted `owner/name`, or for a
   * site admin a local source's identity or folder); `undefined` for none given. A name of
   * a hosted repository's shape (`owner/name`; for anyone but a site admin, any name) is
   * checked as the REST routes and git check it, then answers as a missing repository
   * whether it is missing or only hidden from the caller (no leak: the same code and
   * message but for the name).
   * @throws LoreError `invalid_repo_name` (not a repository name: `PRIV/ALICE` gets the
   *   lower-case hint), `repo_not_found` (missing, or one the caller cannot read),
   *   `repo_not_indexed` (a site admin's local folder or identity not in the index).
   */
  const withinRepo = (
    principal: Principal,
    sources: readonly string[],
    repo: string | undefined,
  ): string | undefined => {
    if (repo === undefined || repo.trim() === "") return undefined;
    const name = repo.trim();
    const local = principal.siteAdmin ? tryResolve(deps.local?.lore, name) : undefined;
    const found = [name, local].find((n) => n !== undefined && sources.includes(n));
    if (found !== undefined) return found;
    if (!principal.siteAdmin || /^[^/.~][^/]*\/[^/]+$/.test(name)) {
      parseRepoName(name);
      throw new LoreError("repo_not_found", { repo: name });
    }
    throw new LoreError("repo_not_indexed", { repo: name });
  };
  /**
   * Knowledge reads over MCP need `knowledge:read`, as the REST knowledge routes do: a token
   * without it is refused (`forbidden`, `data.missing` `scope knowledge:read`), not answered
   * with nothing. The refusal does not depend on any repository, so it reveals none.
   * @throws LoreError `forbidden`.
   */
  const requireKnowledgeRead = (principal: Principal): void => {
    if (principal.scopes.includes("knowledge:read")) return;
    const missing = "scope knowledge:read";
    throw new LoreError("forbidden", { missing }, { data: { missing } });
  };
  const recallFor = async (principal: Principal, args: RecallArgs) => {
    requireKnowledgeRead(principal);
    const sources = await visibleSources(principal);
    const { repo, knowledge_root_id, count_shown, ...query } = args;
    let within = sources;
    const found = withinRepo(principal, sources, repo);
    if (found !== undefined) {
      within = [found, draftSourceOf(found)].filter((n) => sources.includes(n));
    } else if (knowledge_root_id !== undefined && knowledge_root_id.trim() !== "") {
      const roots = principal.siteAdmin ? (deps.local?.lore.roots ?? []) : [];
      const root = resolveRoot(roots, { knowledge_root_id });
      within = [rootRepoName(root.id)].filter((n) => sources.includes(n));
    }
    const at = now();
    const input = { ...query, user: principal.user, now: at };
    const answer = recallWithin(deps.index, {
      ...input,
      repos: within,
      countShown: false,
      receipt: false,
    });
    // The load receipt is stored durably before the answer, as the shown counts are (on
    // PostgreSQL every server lists it at once); a receipt that cannot be stored never
    // fails the recall: reported once on stderr, as the index's own are.
    const receipt = (async () => {
      try {
        await indexStore.receipts.record(buildReceipt(deps.index, input, answer));
      } catch (error) {
        deps.index.receipts.onError(error);
      }
    })();
    // Counted for the token's user durably, the way `POST …/knowledge/shown` counts (seed
    // 004: «Чтение счётчиков всегда точное»), unless the client marks shown itself.
    try {
      if (count_shown !== false) {
        await indexStore.counters.recordShown(
          principal.user,
          answer.hits.map((hit) => ({ repo: hit.repo, id: hit.id })),
          at,
        );
      }
    } finally {
      await receipt;
    }
    return answer;
  };
  const receipts = createReceiptsApi({ store: deps.store, receipts: indexStore.receipts });
  const localPort = (principal: Principal): KnowledgePort | undefined =>
    principal.siteAdmin ? deps.local?.port : undefined;
  const drafts = createDraftsApi({
    store: deps.store,
    index: deps.index,
    drafts: draftStore,
    dataDir: deps.dataDir,
    freshen: deps.freshen,
    now,
    locks: indexStore.locks,
    openMergeRequest:
      deps.openMergeRequest ??
      // A delivery's separate branch gets its merge request with origin `machine`, set
      // here by the server alone (seed 004, "Происхождение запроса ставит сервер").
      (async ({ repo, principal, source, target, title, body }) =>
        (
          await openMergeRequest(
            {
              store: deps.store,
              gitOf: (r) => bareMergeGit(bareRepoPath(deps.dataDir, r.fullName)),
              now,
            },
            {
              repo,
              author: { userId: principal.userId, user: principal.user },
              source,
              target,
              title,
              body,
              origin: "machine",
            },
          )
        ).number),
  });
  const admin = createLocalAdmin({
    store: deps.store,
    dataDir: deps.dataDir,
    now,
    ...(deps.afterCreateRepo === undefined ? {} : { afterCreateRepo: deps.afterCreateRepo }),
    // A store of its own (PostgreSQL) forgets its counters and receipts too; the SQLite
    // view's are the index's.
    beforeRemoveRepo: async (fullName) => {
      await writeWhenFree(deps.index, () => deps.index.forgetHostedRepository(fullName));
      await deps.indexStore?.counters.forgetRepo(fullName);
      await deps.indexStore?.receipts.forgetRepo(fullName);
      await deps.indexStore?.drafts?.forgetRepo(fullName);
    },
    afterRemoveUser: async (name) => {
      await writeWhenFree(deps.index, () => deps.index.forgetUserCounters(name));
      await deps.indexStore?.counters.forgetUser(name);
      await deps.indexStore?.receipts.forgetUser(name);
    },
  });

  const stats = createStatsApi({
    store: deps.store,
    index: deps.index,
    counters: indexStore.counters,
    freshen: async (repo) => {
      await deps.freshen(hosted(repo));
      await draftStore.refresh();
    },
    edition: deps.edition ?? "community",
    shownRateLimit: deps.shownRateLimit ?? DEFAULT_SHOWN_RATE_LIMIT,
    now,
  });

  return {
    admin(principal) {
      requireServerAdmin(principal);
      return admin;
    },
    authenticate: (secret) => authenticateToken(deps.store, secret, now()),
    async user(principal): Promise<UserView> {
      return {
        name: principal.user,
        site_admin: principal.siteAdmin,
        scopes: [...principal.scopes],
      };
    },
    async repos(principal): Promise<RepoView[]> {
      const canRead =
        principal.scopes.includes("knowledge:read") || principal.scopes.includes("repo:read");
      if (!canRead) return [];
      const granted = await grantedLevels(deps.store, principal);
      const out: RepoView[] = [];
      for (const repo of await deps.store.listRepos()) {
        const level = principal.siteAdmin ? "admin" : levelOn(repo, granted);
        if (level === undefined) continue;
        out.push({
          full_name: repo.fullName,
          public: repo.public,
          default_branch: repo.defaultBranch,
          permission: level,
        });
      }
      return out;
    },
    async knowledge(principal, fullName) {
      const repo = await authorizeRead(principal, fullName, false);
      await deps.freshen(hosted(repo));
      await draftStore.refresh();
      return listKnowledge(deps.index, repo.fullName);
    },
    async raw(principal, fullName, path, ref) {
      const repo = await authorizeRead(principal, fullName, true);
      return readRawFile(
        deps.readFile,
        bareRepoPath(deps.dataDir, repo.fullName),
        path,
        ref ?? repo.defaultBranch,
      );
    },
    mcpPort(principal): KnowledgePort {
      const local = localPort(principal);
      const refuse = async (): Promise<never> => {
        throw rootsForbidden();
      };
      return {
        ready: local?.ready ?? Promise.resolve(),
        ...(local?.fresh === undefined ? {} : { fresh: local.fresh.bind(local) }),
        recall: (args) => recallFor(principal, args),
        open: async (id, options = {}) => {
          requireKnowledgeRead(principal);
          const at = now();
          const sources = await visibleSources(principal);
          const view = getEntry(
            deps.index,
            id,
            principal.user,
            at,
            withinRepo(principal, sources, options.repo),
            sources,
            { countRead: false },
          );
          // The read is counted durably for the token's user before the answer.
          await indexStore.counters.recordRead(
            principal.user,
            { repo: view.repo, id: view.id },
            at,
          );
          return view;
        },
        check: async (text, path) =>
          (await import("../core/entry/parse-entry.js")).parseEntry(
            text,
            path === undefined ? { mode: "strict" } : { mode: "strict", path },
          ),
        readFile: (input) => (local === undefined ? refuse() : local.readFile(input)),
        writeFile: (input) => (local === undefined ? refuse() : local.writeFile(input)),
        routeContext: (query) => (local === undefined ? refuse() : local.routeContext(query)),
        status: () => (local === undefined ? refuse() : local.status()),
        drafts: hostedDraftsPort(drafts, principal),
        // knowledge_stats: the REST routes' stats API, edition first, then rights.
        stats: hostedStats(stats, principal),
        // knowledge_receipts: the caller's own, as `GET /api/v1/receipts`.
        receipts: (args) => receipts.own(principal, args),
      };
    },
    drafts,
    stats,
    receipts,
    sessions: {
      open: (token) => openWebSession(deps.store, token, now()),
      resume: (secret) => resumeWebSession(deps.store, secret, now()),
      close: (session) => closeWebSession(deps.store, session, now()),
      now,
    },
    limits: createLimitsApi(deps.store, deps.edition ?? "community"),
    health: () => deps.health?.() ?? {},
    pulls: mergeRequestCalls({
      store: deps.store,
      gitOf: (repo) => bareMergeGit(bareRepoPath(deps.dataDir, repo.fullName)),
      now,
      // A merge is parsed like a push (seed 004, "Разбор при отправке"): the index upkeep
      // of post-receive, at once, so the merged knowledge is found right after the merge.
      afterMerge: (repo) => deps.freshen(hosted(repo)),
      ...(deps.log === undefined ? {} : { log: deps.log }),
    }),
  };
}

/**
 * The draft tools over `/mcp`: the hosted repositories with the caller's rights; `repo`
 * (`owner/name`) is needed, and `branch` to write or deliver (no checkout to default to).
 */
function hostedDraftsPort(drafts: DraftsApi, principal: Principal): DraftsPort {
  const repoOf = (repo: string | undefined): string => {
    if (repo !== undefined && repo.trim() !== "") return repo.trim();
    throw new LoreError("invalid_input", {
      reason: "`repo` is needed on a team server: owner/name",
      reason_ru: "на сервере команды нужен `repo`: владелец/имя",
    });
  };
  const branchOf = (branch: string | undefined): string => {
    if (branch !== undefined && branch.trim() !== "") return branch.trim();
    throw new LoreError("invalid_input", {
      reason: "`branch` is needed on a team server: the branch you work on",
      reason_ru: "на сервере команды нужна `branch`: ветка, в которой вы работаете",
    });
  };
  return {
    write: ({ repo, branch, draft }) =>
      drafts.write(principal, repoOf(repo), { branch: branchOf(branch), ...draft }),
    list: ({ repo, branch, per_page, after }) =>
      drafts.list(principal, repoOf(repo), {
        ...(per_page === undefined ? {} : { perPage: per_page }),
        ...(after === undefined ? {} : { after }),
        ...(branch === undefined ? {} : { branch }),
      }),
    discard: ({ repo, id }) => drafts.discard(principal, repoOf(repo), id),
    deliver: ({ repo, branch, mode, label }) =>
      drafts.deliver(principal, repoOf(repo), {
        branch: branchOf(branch),
        mode,
        ...(label === undefined ? {} : { label }),
      }),
  };
}

/** A local source's identity by identity or folder, or `undefined`. */
function tryResolve(lore: Lore | undefined, name: string): string | undefined {
  try {
    return lore?.resolveRepo(name);
  } catch {
    return undefined;
  }
}
