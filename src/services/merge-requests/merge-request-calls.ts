/**
 * Merge requests per caller (seed 004, "Интерфейс": knowledge rights follow repository
 * rights): the rights check in front of each merge-request service, as the team server's
 * HTTP API calls them (`PullsApi`).
 */
import type { Principal } from "../../core/access/rights.js";
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { mergeRequestView } from "../../core/merge-requests/merge-request-view.js";
import type { PullsApi } from "../../http/pulls-api.js";
import type { RepoRecord } from "../../ports/server-store.js";
import { authorizeRepo } from "../access/authorize.js";
import { approveMergeRequest } from "./approve-merge-request.js";
import { closeMergeRequest } from "./close-merge-request.js";
import { mergeMergeRequest } from "./merge-merge-request.js";
import { type MrDeps, userNames } from "./merge-request-deps.js";
import { openMergeRequest } from "./open-merge-request.js";
import { listMergeRequests, parseStateFilter, showMergeRequest } from "./read-merge-requests.js";

/**
 * Builds the rights-checked merge-request calls.
 *
 * @param deps - see `MrDeps`.
 */
export function mergeRequestCalls(deps: MrDeps): PullsApi {
  /** Reading needs `knowledge:read` or `repo:read` (a reviewer's token may carry either). */
  const readable = async (principal: Principal, fullName: string): Promise<RepoRecord> => {
    try {
      return await authorizeRepo(deps.store, principal, fullName, "repo:read");
    } catch (error) {
      if (!isLoreError(error) || error.code !== "forbidden") throw error;
      return authorizeRepo(deps.store, principal, fullName, "knowledge:read").catch(() => {
        throw error;
      });
    }
  };
  /** Writing needs write access and `repo:write`; a hidden repository stays `repo_not_found`. */
  const writable = (principal: Principal, fullName: string) =>
    authorizeRepo(deps.store, principal, fullName, "repo:write");
  return {
    async list(principal, fullName, state) {
      const filter = parseStateFilter(state);
      return listMergeRequests(deps, await readable(principal, fullName), filter);
    },
    async open(principal, fullName, body) {
      const repo = await writable(principal, fullName);
      const record = await openMergeRequest(deps, {
        repo,
        author: principal,
        source: body.source,
        target: body.target ?? repo.defaultBranch,
        title: body.title,
        body: body.body ?? "",
        // Seed 004, "Происхождение запроса ставит сервер": a client's request is human.
        origin: "human",
      });
      return mergeRequestView(record, await userNames(deps.store));
    },
    async show(principal, fullName, number) {
      return showMergeRequest(deps, await readable(principal, fullName), number);
    },
    async approve(principal, fullName, number) {
      const repo = await writable(principal, fullName);
      return approveMergeRequest(deps, { repo, number, actor: principal });
    },
    async close(principal, fullName, number) {
      const repo = await readable(principal, fullName);
      // Closing is a write: a read-only token closes nothing, not even its user's request.
      if (!principal.scopes.includes("repo:write")) {
        const missing = "scope repo:write";
        throw new LoreError("forbidden", { missing }, { data: { missing } });
      }
      const mayWrite = await writable(principal, fullName).then(
        () => true,
        () => false,
      );
      return closeMergeRequest(deps, { repo, number, actor: principal, mayWrite });
    },
    async merge(principal, fullName, number) {
      const repo = await writable(principal, fullName);
      return mergeMergeRequest(deps, { repo, number, actor: principal });
    },
  };
}
