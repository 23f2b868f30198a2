import { LoreError } from "../../core/errors/lore-error.js";
import type { DraftStore } from "../../ports/draft-store.js";

/**
 * Removes a draft (seed 004 "Интерфейс": `DELETE …/knowledge/drafts/{id}`, `lore draft rm`)
 * with its entry; the entry's counters stay (keyed by id).
 *
 * @param drafts - the drafts (`sqliteDraftStore(index)`, or the team server's store).
 * @param args - `repo` (the repository's index name), `id`, `caller` (user name) and
 *   whether the caller may write the repository.
 * @throws LoreError `draft_not_found` when the repository holds no such draft;
 *   `forbidden` when the caller is neither its author nor a writer of the repository.
 */
export async function discardDraft(
  drafts: DraftStore,
  args: { repo: string; id: string; caller: string; callerMayWrite: boolean },
): Promise<void> {
  const id = args.id.toLowerCase();
  const draft = await drafts.get(args.repo, id);
  if (draft === undefined) throw new LoreError("draft_not_found", { id: args.id, repo: args.repo });
  if (draft.author !== args.caller && !args.callerMayWrite) {
    throw new LoreError("forbidden", {
      missing: "to be the draft's author or a writer of the repository",
    });
  }
  await drafts.remove(args.repo, id);
}
