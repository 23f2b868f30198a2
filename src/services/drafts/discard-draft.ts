import { LoreError } from "../../core/errors/lore-error.js";
import type { EntryIndex } from "../../index/entry-index.js";

/**
 * Removes a draft (seed 004 "Интерфейс": `DELETE …/knowledge/drafts/{id}`, `lore draft rm`)
 * with its entry; the entry's counters stay (keyed by id).
 *
 * @param index - the index holding the drafts.
 * @param args - `repo` (the repository's index name), `id`, `caller` (user name) and
 *   whether the caller may write the repository.
 * @throws LoreError `draft_not_found` when the repository holds no such draft;
 *   `forbidden` when the caller is neither its author nor a writer of the repository.
 */
export function discardDraft(
  index: EntryIndex,
  args: { repo: string; id: string; caller: string; callerMayWrite: boolean },
): void {
  const id = args.id.toLowerCase();
  const draft = index.drafts.get(args.repo, id);
  if (draft === undefined) throw new LoreError("draft_not_found", { id: args.id, repo: args.repo });
  if (draft.author !== args.caller && !args.callerMayWrite) {
    throw new LoreError("forbidden", {
      missing: "to be the draft's author or a writer of the repository",
    });
  }
  index.drafts.remove(args.repo, id);
}
