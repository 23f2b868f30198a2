import type { DraftRecord, DraftView } from "./draft.js";

/**
 * A stored draft as the API answers it (seed 004 "Интерфейс"): times as ISO 8601 UTC,
 * `delivered` with `merge_request` when the draft waits in one. Pure.
 *
 * @param draft - the stored draft.
 * @param withRepo - add `repo` (answers over several repositories). Default: false.
 * @returns the view.
 */
export function draftView(draft: DraftRecord, withRepo = false): DraftView {
  const view: DraftView = {
    id: draft.id,
    branch: draft.branch,
    author: draft.author,
    created_at: new Date(draft.createdAt).toISOString(),
    size: draft.size,
    text: draft.text,
  };
  if (draft.delivered !== undefined) {
    const { branch, commit, at, mergeRequest } = draft.delivered;
    view.delivered = { branch, commit, at: new Date(at).toISOString() };
    if (mergeRequest !== undefined) view.delivered.merge_request = mergeRequest;
  }
  if (withRepo) view.repo = draft.repo;
  return view;
}
