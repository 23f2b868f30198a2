/**
 * Marking an entry read (seed 004 "Интерфейс": `POST
 * /repos/{owner}/{name}/knowledge/entries/{id}/read` — «Отметить, что запись открыли»).
 * No rights are checked here: the caller has authorized the repository first.
 */
import type { Principal } from "../../core/access/rights.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { ReadAnswer } from "../../core/stats/usage-stats.js";
import type { EntryIndex } from "../../index/entry-index.js";
import type { CounterStore } from "../../ports/index-store.js";
import { foldEntryId } from "./entry-ids.js";

/** What {@link markRead} needs. */
export interface MarkReadDeps {
  index: EntryIndex;
  /** Where the count is written, durably, and read back (the index store's counters). */
  counters: Pick<CounterStore, "recordRead" | "get">;
  /** The clock, ms since the epoch. */
  now: () => number;
}

/**
 * Counts one read of an entry (or draft) of the repository by the caller, durably (one
 * committed transaction before it resolves, `CounterStore.recordRead`).
 *
 * @param deps - see {@link MarkReadDeps}.
 * @param input - the caller, the index repository name (rights checked), the entry id
 *   (a UUID in any case).
 * @returns `{id, read}`: the id as held, the caller's read count after this one.
 * @throws LoreError `entry_not_found` when no entry or draft of the repository holds the id
 *   (nothing is counted).
 */
export async function markRead(
  deps: MarkReadDeps,
  input: { principal: Principal; repo: string; id: string },
): Promise<ReadAnswer> {
  const id = foldEntryId(input.id);
  if (!deps.index.knownIds(input.repo, [id]).has(id)) {
    throw new LoreError("entry_not_found", { id: input.id });
  }
  const user = input.principal.user;
  await deps.counters.recordRead(user, { repo: input.repo, id }, deps.now());
  return { id, read: (await deps.counters.get(user, { repo: input.repo, id }))?.read ?? 0 };
}
