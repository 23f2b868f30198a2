import type { Principal } from "../core/access/rights.js";
import type { MergeRequestView } from "../core/merge-requests/merge-request-view.js";

/** The body of `POST /api/v1/repos/{owner}/{name}/pulls` (strict: no `origin`). */
export interface OpenPullBody {
  source: string;
  /** Default: the repository's default branch. */
  target?: string;
  title: string;
  /** Default: empty. */
  body?: string;
}

/**
 * Merge requests of hosted repositories, rights-checked per caller (seed 004, "Как знание
 * выходит наружу"): what `routes/pull-routes.ts` calls. A repository the caller cannot read
 * is `repo_not_found` (never 403); reading needs `knowledge:read` or `repo:read`; opening,
 * approving and merging need write access (`repo:write`); closing, write access or being
 * the author. Implemented by `services/merge-requests/merge-request-calls.ts`.
 */
export interface PullsApi {
  /**
   * @param state - `open` (default), `closed`, `merged`, `all`.
   * @throws LoreError `repo_not_found`, `forbidden`, `invalid_input` (a bad state).
   */
  list(principal: Principal, fullName: string, state?: string): Promise<MergeRequestView[]>;
  /**
   * Opens a request; its origin is always `human`.
   * @throws LoreError `repo_not_found`, `forbidden`, `invalid_input`, `branch_not_found`.
   */
  open(principal: Principal, fullName: string, body: OpenPullBody): Promise<MergeRequestView>;
  /** @throws LoreError `repo_not_found`, `forbidden`, `mr_not_found`. */
  show(principal: Principal, fullName: string, number: number): Promise<MergeRequestView>;
  /** @throws LoreError `repo_not_found`, `forbidden` (also: one's own request), `mr_not_found`, `mr_not_open`. */
  approve(principal: Principal, fullName: string, number: number): Promise<MergeRequestView>;
  /** @throws LoreError `repo_not_found`, `forbidden`, `mr_not_found`, `mr_not_open`. */
  close(principal: Principal, fullName: string, number: number): Promise<MergeRequestView>;
  /**
   * @throws LoreError `repo_not_found`, `forbidden`, `mr_not_found`, `mr_not_open`,
   *   `branch_protected`, `approvals_required`, `merge_conflict`, `branch_not_found`.
   */
  merge(principal: Principal, fullName: string, number: number): Promise<MergeRequestView>;
}
