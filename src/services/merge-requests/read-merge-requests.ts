import { LoreError } from "../../core/errors/lore-error.js";
import {
  type MergeRequestView,
  mergeRequestView,
} from "../../core/merge-requests/merge-request-view.js";
import type { MergeRequestState, RepoRecord } from "../../ports/server-store.js";
import { type MrDeps, requireMergeRequest, userNames } from "./merge-request-deps.js";

/** The `state` filter of a listing: one state, or `all`. */
export type MergeRequestFilter = MergeRequestState | "all";

const FILTERS: readonly MergeRequestFilter[] = ["open", "closed", "merged", "all"];

/**
 * Checks a `state` filter as given (`open` when absent).
 *
 * @throws LoreError `invalid_input` naming the allowed values.
 */
export function parseStateFilter(state: string | undefined): MergeRequestFilter {
  if (state === undefined || state === "") return "open";
  if ((FILTERS as readonly string[]).includes(state)) return state as MergeRequestFilter;
  throw new LoreError("invalid_input", {
    reason: `state “${state}”: give open, closed, merged or all`,
    reason_ru: `state „${state}“: укажите open, closed, merged или all`,
  });
}

/**
 * A repository's merge requests, newest first (seed 004, "Как знание выходит наружу").
 *
 * @param deps - see `MrDeps`.
 * @param repo - the repository (read access checked by the caller).
 * @param state - which requests; `all` for every one.
 */
export async function listMergeRequests(
  deps: MrDeps,
  repo: RepoRecord,
  state: MergeRequestFilter,
): Promise<MergeRequestView[]> {
  const records = await deps.store.listMergeRequests(repo.id, state === "all" ? {} : { state });
  const name = await userNames(deps.store);
  return records.map((record) => mergeRequestView(record, name));
}

/**
 * One merge request with its diff stat (`git diff --numstat target...source`: what the
 * source adds since the merge base). A request whose branch is gone shows no diff stat;
 * a merged one shows the stat of its merge commit against its first parent.
 *
 * @throws LoreError `mr_not_found`; `git_failed`.
 */
export async function showMergeRequest(
  deps: MrDeps,
  repo: RepoRecord,
  number: number,
): Promise<MergeRequestView> {
  const record = await requireMergeRequest(deps.store, repo, number);
  const git = deps.gitOf(repo);
  let stat: Awaited<ReturnType<typeof git.diffStat>> | undefined;
  if (record.state === "merged" && record.mergeCommit !== null) {
    stat = await git.diffStat(`${record.mergeCommit}^1`, record.mergeCommit);
  } else {
    const [target, source] = await Promise.all([
      git.branchHead(record.target),
      git.branchHead(record.source),
    ]);
    if (target !== undefined && source !== undefined) stat = await git.diffStat(target, source);
  }
  return mergeRequestView(record, await userNames(deps.store), stat);
}
