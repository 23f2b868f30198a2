/**
 * The drafts of `lore mcp`, `lore draft` and `lore deliver` on this machine (seed 004 "Как
 * знание выходит наружу"; the "Agents and the CLI"): with no `[server] url`, the
 * local index holds the drafts of the current repository and its checked-out branch, and a
 * delivery commits into the working repository (never touching uncommitted work); with
 * `[server] url`, every draft call goes to the team server (`TeamClient`), the repository
 * being `owner/name` of the origin remote that points at it, or the `repo` argument.
 */
import { resolve } from "node:path";
import { headBranch } from "../adapters/git-cli/delivery-plumbing.js";
import { openGitRepo } from "../adapters/git-cli/git-cli-repo.js";
import { runGit } from "../adapters/git-cli/run-git.js";
import { worktreeDeliveryTarget } from "../adapters/git-cli/worktree-delivery-target.js";
import type { TeamClient } from "../adapters/team-server/team-client.js";
import type { DeliverAnswer, DraftView } from "../core/drafts/draft.js";
import { draftView } from "../core/drafts/draft-view.js";
import { LoreError } from "../core/errors/lore-error.js";
import type { DraftsPort } from "../mcp/knowledge-port.js";
import { type DeliveryDeps, deliverDrafts } from "../services/drafts/deliver-drafts.js";
import { discardDraft } from "../services/drafts/discard-draft.js";
import { localDraftLimit } from "../services/drafts/draft-limit.js";
import { listDrafts } from "../services/drafts/list-drafts.js";
import { sqliteDraftStore } from "../services/drafts/sqlite-draft-store.js";
import { writeDraft } from "../services/drafts/write-draft.js";
import type { Lore } from "./compose.js";
import { currentHostedRepo } from "./current-repo.js";
import { authFilePath, type ForgeEnv } from "./load-forge.js";
import { configuredTeamClient, serverNotConfigured } from "./team-client.js";

/** A repository of this machine as the local drafts see it. */
interface WorkRepo {
  /** The work tree's top. */
  top: string;
  /** Its identity: the index name of its drafts. */
  identity: string;
}

/**
 * The drafts port for this machine: the team server's when `[server] url` is set, else the
 * local one. The client is made at the first call, so a missing token is refused by the
 * draft tools (`server_not_configured`) while recall goes on.
 *
 * @param lore - the composed Lore (settings, index).
 * @param options - `cwd` (the current folder: its repository is the default), `env`
 *   (`LORE_TOKEN`, `HOME`, `XDG_CONFIG_HOME`).
 */
export function machineDraftsPort(lore: Lore, options: { cwd: string; env: ForgeEnv }): DraftsPort {
  if (lore.settings.server.url === undefined) {
    return localDraftsPort(lore, options.cwd, options.env);
  }
  let client: TeamClient | undefined;
  const connect = (): TeamClient => {
    client ??= configuredTeamClient(lore.settings, options.env) ?? undefined;
    if (client === undefined) throw serverNotConfigured("url", authFilePath(options.env));
    return client;
  };
  return remoteDraftsPort(connect, options.cwd);
}

/**
 * Local drafts: the index of this machine, the repository of `repo` (a folder) or of the
 * current folder, its checked-out branch, the configured user as author, the default limit.
 *
 * @param lore - the composed Lore.
 * @param cwd - the current folder.
 */
export function localDraftsPort(lore: Lore, cwd: string, env: ForgeEnv = process.env): DraftsPort {
  const index = lore.entryIndex;
  const user = lore.settings.user;
  const repoOf = async (repo: string | undefined): Promise<WorkRepo> => {
    const git = await openGitRepo(resolve(cwd, repo ?? "."));
    try {
      if (git.bare) {
        throw new LoreError("invalid_input", {
          reason: `${git.dir} is a bare repository; local drafts need a working repository`,
          reason_ru: `${git.dir} — голый репозиторий; локальным черновикам нужен рабочий`,
        });
      }
      return { top: git.dir, identity: await git.identity() };
    } finally {
      await git.close();
    }
  };
  const branchOf = async (work: WorkRepo, branch: string | undefined): Promise<string> => {
    if (branch !== undefined) return branch;
    const current = await headBranch(work.top);
    if (current !== undefined) return current;
    throw new LoreError("invalid_input", {
      reason: `HEAD of ${work.top} is detached: check out a branch or pass a branch`,
      reason_ru: `HEAD в ${work.top} отсоединён: переключитесь на ветку или укажите ветку`,
    });
  };
  return {
    async write({ repo, branch, draft }) {
      const work = await repoOf(repo);
      const record = await writeDraft(
        { index, limitFor: localDraftLimit },
        {
          repo: work.identity,
          author: user,
          input: { branch: await branchOf(work, branch), ...draft },
        },
      );
      return draftView(record, true);
    },
    async list({ repo, branch, per_page, after }) {
      const work = await repoOf(repo);
      const page = await listDrafts(sqliteDraftStore(index), {
        repos: [work.identity],
        ...(branch === undefined ? {} : { branch }),
        ...(per_page === undefined ? {} : { perPage: per_page }),
        ...(after === undefined ? {} : { after }),
      });
      return { items: page.items.map((d) => draftView(d, true)), next_cursor: page.next_cursor };
    },
    async discard({ repo, id }) {
      const work = await repoOf(repo);
      await discardDraft(sqliteDraftStore(index), {
        repo: work.identity,
        id,
        caller: user,
        callerMayWrite: true,
      });
    },
    async deliver({ repo, branch, mode, label, forge }) {
      const work = await repoOf(repo);
      return deliverDrafts(
        forge === true
          ? await giteaDeliveryDeps(lore, env, work.top)
          : {
              index,
              target: worktreeDeliveryTarget(work.top),
              indexDefault: (branch) => indexCheckedOut(lore, work.top, branch),
            },
        {
          repo: work.identity,
          input: {
            branch: await branchOf(work, branch),
            mode,
            ...(label === undefined ? {} : { label }),
          },
          author: { user, ...(await gitPerson(work.top, user)) },
        },
      );
    },
  };
}

/**
 * The delivery into the repository the origin remote names on the configured Gitea.
 *
 * @throws LoreError `config_invalid` when no Gitea is configured or the origin is not on it.
 */
async function giteaDeliveryDeps(lore: Lore, env: ForgeEnv, top: string): Promise<DeliveryDeps> {
  const { giteaDeliveryFor } = await import("./gitea-delivery.js");
  const gitea = await giteaDeliveryFor(lore.settings, env, top);
  if (gitea === null) {
    throw new LoreError("config_invalid", {
      reason: `--forge delivers through the configured Gitea, but ${top} has no origin remote on a [forge] kind = "gitea" server`,
      reason_ru: `--forge доставляет через настроенный Gitea, но у ${top} нет удалённого origin на сервере [forge] kind = "gitea"`,
    });
  }
  return {
    index: lore.entryIndex,
    target: gitea.target,
    openMergeRequest: gitea.openMergeRequest,
    checkWrite: gitea.checkWrite,
    isStale: gitea.isStale,
  };
}

/**
 * After a local delivery into the default branch: when that branch is the checked-out one,
 * indexes the repository at its new HEAD (incrementally), so recall finds the delivered
 * entries the moment their drafts are removed. Returns whether it indexed; a default branch
 * not checked out is left to the next `lore index` of a checkout of it (the drafts stay
 * until then).
 *
 * @throws LoreError as {@link Lore.index} (`git_failed`, `index_failed`).
 */
async function indexCheckedOut(lore: Lore, top: string, branch: string): Promise<boolean> {
  if ((await headBranch(top)) !== branch) return false;
  await lore.index(top);
  return true;
}

/** The repository's `user.name` / `user.email`, else the configured user. */
async function gitPerson(top: string, user: string): Promise<{ name: string; email: string }> {
  const read = async (key: string) => {
    const out = await runGit({
      cwd: top,
      args: ["config", "--get", key],
      okExitCodes: [1],
      home: process.env.HOME ?? top,
    }).catch(() => undefined);
    const value = out?.exitCode === 0 ? out.stdout.toString("utf8").trim() : "";
    return value === "" ? undefined : value;
  };
  return {
    name: (await read("user.name")) ?? user,
    email: (await read("user.email")) ?? `${user}@localhost`,
  };
}

/**
 * Drafts on the team server: every call is one request of the REST API.
 *
 * @param connect - the configured client (made at the first call).
 * @param cwd - the current folder: its origin remote names the default repository, its
 *   checked-out branch the default branch.
 */
export function remoteDraftsPort(connect: () => TeamClient, cwd: string): DraftsPort {
  const repoPath = async (repo: string | undefined): Promise<string> => {
    const client = connect();
    const name = repo?.trim() || (await originRepo(cwd, client.url));
    const [owner, rest, ...more] = name.split("/");
    if (!owner || !rest || more.length > 0) {
      throw new LoreError("invalid_input", {
        reason: `the repository on the team server is owner/name, not “${name}”`,
        reason_ru: `репозиторий на сервере команды — владелец/имя, а не «${name}»`,
      });
    }
    return `/api/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(rest)}/knowledge/drafts`;
  };
  const branchOf = async (branch: string | undefined): Promise<string> => {
    if (branch !== undefined) return branch;
    const current = await currentBranch(cwd);
    if (current !== undefined) return current;
    throw new LoreError("invalid_input", {
      reason: "no branch: pass one (no checked-out branch here)",
      reason_ru: "нет ветки: укажите её (здесь нет ветки в работе)",
    });
  };
  return {
    async write({ repo, branch, draft }) {
      const path = await repoPath(repo);
      return connect().request<DraftView>("POST", path, {
        branch: await branchOf(branch),
        ...draft,
      });
    },
    async list({ repo, branch, per_page, after }) {
      const path = await repoPath(repo);
      const query = new URLSearchParams();
      if (per_page !== undefined) query.set("per_page", String(per_page));
      if (after !== undefined) query.set("after", after);
      if (branch !== undefined) query.set("branch", branch);
      const qs = query.size === 0 ? "" : `?${query}`;
      return connect().request<{ items: DraftView[]; next_cursor: string | null }>(
        "GET",
        `${path}${qs}`,
      );
    },
    async discard({ repo, id }) {
      const path = await repoPath(repo);
      await connect().request<undefined>("DELETE", `${path}/${encodeURIComponent(id)}`);
    },
    async deliver({ repo, branch, mode, label, forge }) {
      if (forge === true) {
        throw new LoreError("invalid_input", {
          reason:
            "--forge is for local mode; with [server] url the team server delivers into the repository it hosts",
          reason_ru:
            "--forge — для локального режима; с [server] url доставляет сервер команды в свой репозиторий",
        });
      }
      const path = await repoPath(repo);
      return connect().request<DeliverAnswer>("POST", `${path}/deliver`, {
        branch: await branchOf(branch),
        mode,
        ...(label === undefined ? {} : { label }),
      });
    },
  };
}

/** The checked-out branch of the repository at `cwd`, or `undefined`. */
async function currentBranch(cwd: string): Promise<string | undefined> {
  try {
    const git = await openGitRepo(cwd);
    await git.close();
    return await headBranch(git.dir);
  } catch {
    return undefined;
  }
}

/**
 * `owner/name` of the origin remote when it points at the team server (`server` = its base
 * URL), through the same reading as `lore mr` (`currentHostedRepo`).
 *
 * @throws LoreError `invalid_input` when there is no such remote (pass `repo`).
 */
async function originRepo(cwd: string, server: string): Promise<string> {
  const name = await currentHostedRepo(cwd, server);
  if (name !== undefined) return name;
  throw new LoreError("invalid_input", {
    reason: `no repository named: with [server] url set, drafts go to ${server}; pass --repo owner/name (the repo argument of the draft tools), or run inside a clone whose origin is on ${server}`,
    reason_ru: `репозиторий не указан: при заданном [server] url черновики идут на ${server}; укажите --repo владелец/имя (аргумент repo инструментов черновиков) или работайте в клоне, чей origin — на ${server}`,
  });
}
