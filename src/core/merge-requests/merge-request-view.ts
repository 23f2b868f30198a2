/**
 * A merge request as the API and `lore mr --json` show it (seed 004, "Как знание выходит
 * наружу" and "Происхождение запроса ставит сервер"). Pure.
 */
import type { DiffStat } from "../../ports/merge-git.js";
import type { MergeRequestRecord, MergeRequestState } from "../../ports/server-store.js";

/** One merge request, API shape (times ISO 8601, users by name). */
export interface MergeRequestView {
  /** Per repository: 1, 2, … */
  number: number;
  title: string;
  body: string;
  /** The branch merged (without `refs/heads/`). */
  source: string;
  /** The branch merged into. */
  target: string;
  state: MergeRequestState;
  /** `machine` only when the server opened it (delivery); no client can set it. */
  origin: "human" | "machine";
  /** The user who opened it. */
  author: string;
  created_at: string;
  /** When it was closed or merged; absent while open. */
  ended_at?: string;
  /** The merge commit; only when merged. */
  merge_commit?: string;
  /** Approvals, oldest first. */
  approvals: { user: string; at: string }[];
  /** Files changed, lines added and removed from the merge base to the source (show only). */
  diff_stat?: DiffStat;
}

/**
 * Builds the view of a stored request.
 *
 * @param record - the stored request.
 * @param userName - a user's name by id (a removed user shows as `#<id>`).
 * @param diffStat - the diff stat, for `show`.
 */
export function mergeRequestView(
  record: MergeRequestRecord,
  userName: (id: number) => string,
  diffStat?: DiffStat,
): MergeRequestView {
  return {
    number: record.number,
    title: record.title,
    body: record.body,
    source: record.source,
    target: record.target,
    state: record.state,
    origin: record.origin,
    author: userName(record.authorId),
    created_at: new Date(record.createdAt).toISOString(),
    ...(record.endedAt === null ? {} : { ended_at: new Date(record.endedAt).toISOString() }),
    ...(record.mergeCommit === null ? {} : { merge_commit: record.mergeCommit }),
    approvals: record.approvals.map((approval) => ({
      user: userName(approval.userId),
      at: new Date(approval.at).toISOString(),
    })),
    ...(diffStat === undefined ? {} : { diff_stat: diffStat }),
  };
}
