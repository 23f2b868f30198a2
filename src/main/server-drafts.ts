/**
 * The team server's drafts and draft limits, rights-checked (seed 004 "Интерфейс", "Как
 * знание выходит наружу", "Что происходит с черновиком", "Пределы"): the {@link DraftsApi}
 * and {@link LimitsApi} the HTTP routes and `/mcp` call, over the drafts services, the
 * delivery into the hosted bare repository, and the server's records.
 *
 * Delivery on the team server: the target is the hosted bare repository; a write obeys
 * branch protection exactly like a push by the caller (the same rule object,
 * `decideBranchPush`); a commit into the default branch is parsed like a push at once, so
 * its drafts become files (and stop being drafts) right away; a separate branch gets a
 * merge request with origin `machine` when the merge-request service is wired.
 */
import { bareDeliveryTarget } from "../adapters/git-cli/bare-delivery-target.js";
import type { Principal } from "../core/access/rights.js";
import { DRAFT_LIMIT_DEFAULT, type DraftDelivery } from "../core/drafts/draft.js";
import { draftView } from "../core/drafts/draft-view.js";
import { type Edition, PAID_FEATURES, requireEdition } from "../core/editions/edition.js";
import { isLoreError, LoreError } from "../core/errors/lore-error.js";
import { decideBranchPush } from "../core/push/branch-protection.js";
import type { DraftsApi, LimitSubject, LimitsApi, LimitView } from "../http/drafts-api.js";
import type { EntryIndex } from "../index/entry-index.js";
import type { DraftStore } from "../ports/draft-store.js";
import type { StoreLocks } from "../ports/index-store.js";
import type { RepoRecord, ServerStore, Subject } from "../ports/server-store.js";
import { authorizeRepo } from "../services/access/authorize.js";
import { bareRepoPath } from "../services/access/hosted-repos.js";
import { deliverDrafts } from "../services/drafts/deliver-drafts.js";
import { discardDraft } from "../services/drafts/discard-draft.js";
import { serverDraftLimit } from "../services/drafts/draft-limit.js";
import { listDrafts } from "../services/drafts/list-drafts.js";
import { sqliteDraftStore } from "../services/drafts/sqlite-draft-store.js";
import { writeDraft } from "../services/drafts/write-draft.js";
import type { HostedRepo } from "./server-api.js";

/**
 * Opens the merge request of a separate delivery branch (origin `machine`, set by the
 * server alone), returning its number.
 */
export type OpenMachineMergeRequest = (args: {
  repo: RepoRecord;
  principal: Principal;
  source: string;
  target: string;
  title: string;
  body: string;
}) => Promise<number>;

/** What {@link createDraftsApi} needs. */
export interface ServerDraftsDeps {
  store: ServerStore;
  index: EntryIndex;
  /**
   * The drafts: PostgreSQL's mirrored into `index` with `[server] database`
   * (`mirrored-draft-store.ts`), else the index's own. Default: the index's own.
   */
  drafts?: DraftStore;
  /** The data folder: the bare repositories are under `repos/`. */
  dataDir: string;
  /** Parses a hosted repository's default branch into the index (the heal of a push). */
  freshen: (repo: HostedRepo) => Promise<void>;
  /** Opens a delivery's merge request; absent: a separate branch gets none. */
  openMergeRequest?: OpenMachineMergeRequest;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /** The store's locks: a delivery runs under its branch's delivery lock. Default: none. */
  locks?: StoreLocks;
}

/**
 * Builds the drafts part of the server's API.
 *
 * @param deps - see {@link ServerDraftsDeps}.
 */
export function createDraftsApi(deps: ServerDraftsDeps): DraftsApi {
  const now = deps.now ?? Date.now;
  const drafts = deps.drafts ?? sqliteDraftStore(deps.index);
  const limitFor = serverDraftLimit(deps.store);
  const hosted = (repo: RepoRecord): HostedRepo => ({
    fullName: repo.fullName,
    dir: bareRepoPath(deps.dataDir, repo.fullName),
    defaultBranch: repo.defaultBranch,
  });
  const mayWrite = async (principal: Principal, fullName: string): Promise<boolean> =>
    authorizeRepo(deps.store, principal, fullName, "knowledge:write").then(
      () => true,
      (error: unknown) => {
        if (isLoreError(error) && error.code === "forbidden") return false;
        throw error;
      },
    );
  return {
    async list(principal, fullName, page) {
      const repo = await authorizeRepo(deps.store, principal, fullName, "knowledge:read");
      // Drafts whose files reached the default branch stop being drafts at the next read
      // (on PostgreSQL the refresh removes them there too).
      await deps.freshen(hosted(repo));
      await drafts.refresh();
      const answer = await listDrafts(drafts, {
        repos: [repo.fullName],
        ...(page.perPage === undefined ? {} : { perPage: page.perPage }),
        ...(page.after === undefined ? {} : { after: page.after }),
        ...(page.branch === undefined ? {} : { branch: page.branch }),
      });
      return { items: answer.items.map((d) => draftView(d)), next_cursor: answer.next_cursor };
    },
    async write(principal, fullName, input) {
      const repo = await authorizeRepo(deps.store, principal, fullName, "knowledge:write");
      const draft = await writeDraft(
        { index: deps.index, drafts, now, limitFor },
        { repo: repo.fullName, author: principal.user, input },
      );
      return draftView(draft);
    },
    async discard(principal, fullName, id) {
      const repo = await authorizeRepo(deps.store, principal, fullName, "knowledge:read");
      // Removing is a write: a read-only token removes nothing, not even its user's drafts.
      if (!principal.scopes.includes("knowledge:write")) {
        throw new LoreError(
          "forbidden",
          { missing: "scope knowledge:write" },
          { data: { missing: "scope knowledge:write" } },
        );
      }
      const callerMayWrite = await mayWrite(principal, fullName);
      await discardDraft(drafts, {
        repo: repo.fullName,
        id,
        caller: principal.user,
        callerMayWrite,
      });
    },
    async deliver(principal, fullName, input) {
      const repo = await authorizeRepo(deps.store, principal, fullName, "knowledge:write");
      const target = bareDeliveryTarget(bareRepoPath(deps.dataDir, repo.fullName));
      const open = deps.openMergeRequest;
      return deliverDrafts(
        {
          index: deps.index,
          drafts,
          target,
          now,
          ...(deps.locks === undefined ? {} : { locks: deps.locks }),
          checkWrite: (branch) => checkServerWrite(deps.store, repo, principal, branch),
          afterWrite: async (branch) => {
            if (branch === repo.defaultBranch) await deps.freshen(hosted(repo));
          },
          isStale: (delivery) => isStaleDelivery(deps.store, repo, target, delivery),
          ...(open === undefined
            ? {}
            : { openMergeRequest: (mr) => open({ repo, principal, ...mr }) }),
        },
        {
          repo: repo.fullName,
          input,
          author: { user: principal.user, name: principal.user, email: `${principal.user}@lore` },
        },
      );
    },
  };
}

/**
 * Branch protection for a server write by `principal` (the rule object of pushes): a
 * delivery adds a commit on top, so it is neither a force push nor a deletion.
 *
 * @throws LoreError `branch_protected` (data: branch, pattern, why).
 */
async function checkServerWrite(
  store: ServerStore,
  repo: RepoRecord,
  principal: Principal,
  branch: string,
): Promise<void> {
  const rules = await store.listBranchRules(repo.id);
  if (rules.length === 0) return;
  const who = {
    name: principal.user,
    userId: principal.userId,
    groupIds: await store.groupsOf(principal.userId),
  };
  const refusal = decideBranchPush(rules, { branch, force: false, deletion: false }, who);
  if (refusal !== undefined) {
    throw new LoreError(
      "branch_protected",
      { branch, reason: refusal.reason, reason_ru: refusal.reason_ru },
      { data: { branch, pattern: refusal.pattern, why: refusal.why } },
    );
  }
}

/**
 * Whether an earlier delivery no longer holds its drafts (seed 004 "Что происходит с
 * черновиком": the merge request closed and the branch deleted → deliverable again).
 */
async function isStaleDelivery(
  store: ServerStore,
  repo: RepoRecord,
  target: { branchHead(branch: string): Promise<string | undefined> },
  delivery: DraftDelivery,
): Promise<boolean> {
  if (delivery.mergeRequest !== undefined) {
    const mr = await store.getMergeRequest(repo.id, delivery.mergeRequest);
    if (mr === undefined || mr.state === "closed") return true;
  }
  return (await target.branchHead(delivery.branch)) === undefined;
}

/**
 * Builds the limits part of the server's API (site admins only). Reading and removing a
 * limit work in every edition; setting one (PUT) needs Max (seed 004 editions).
 *
 * @param store - the server's records.
 * @param edition - the server's edition: `set` refuses `license_required` (HTTP 402) below
 *   Max, before the rights check.
 */
export function createLimitsApi(store: ServerStore, edition: Edition): LimitsApi {
  const resolve = async (principal: Principal, subject: LimitSubject): Promise<Subject> => {
    if (!principal.siteAdmin) {
      throw new LoreError(
        "forbidden",
        {
          missing: "site admin rights (draft limits)",
          missing_ru: "права администратора сервера (пределы черновиков)",
        },
        { data: { missing: "site_admin" } },
      );
    }
    if (subject.kind === "user") {
      const user = await store.getUser(subject.name);
      if (user === undefined) throw new LoreError("user_not_found", { user: subject.name });
      return { kind: "user", id: user.id };
    }
    const group = await store.getGroup(subject.name);
    if (group === undefined) throw new LoreError("group_not_found", { group: subject.name });
    return { kind: "group", id: group.id };
  };
  const notSet = (subject: LimitSubject) =>
    new LoreError("limit_not_found", {
      subject: `${subject.kind} ${subject.name}`,
      default: DRAFT_LIMIT_DEFAULT,
    });
  return {
    async get(principal, subject): Promise<LimitView> {
      const limit = await store.getDraftLimit(await resolve(principal, subject));
      if (limit === undefined) throw notSet(subject);
      return { kind: subject.kind, name: subject.name, limit };
    },
    async set(principal, subject, limit): Promise<LimitView> {
      // A paid address (seed 004: «заведение пределов черновиков (Max)»): refused whole,
      // before any rights or lookups, so a refusal says nothing else.
      requireEdition(edition, PAID_FEATURES.set_draft_limit);
      await store.setDraftLimit(await resolve(principal, subject), limit);
      return { kind: subject.kind, name: subject.name, limit };
    },
    async remove(principal, subject): Promise<void> {
      if (!(await store.removeDraftLimit(await resolve(principal, subject)))) throw notSet(subject);
    },
  };
}
