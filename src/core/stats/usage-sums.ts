/**
 * The stats reports' records (seed 004 "Интерфейс": `stats/me`, `stats/team`, `stats/dead`)
 * put together from two reads: the index's entries of a repository and its drafts (path,
 * summary, age, reachability) and the counters' sums per entry id (`CounterStore.sums`), so
 * that the counters may live in another database than the entries (scale-out: PostgreSQL).
 * Pure: the join of two lists.
 */
import type { UsageRecord } from "./usage-record.js";

/** One entry id's counts in a repository: one user's, or summed over users. */
export interface CounterSum {
  entryId: string;
  shown: number;
  read: number;
  /** The latest showing of the summed rows, ms since the epoch; `null` when never. */
  lastShownAt: number | null;
  lastReadAt: number | null;
}

/** An entry or draft of a repository as the index holds it: a usage record without its counts. */
export type UsageEntry = Omit<UsageRecord, "shown" | "read" | "lastShownAt" | "lastReadAt">;

/**
 * Joins entries with the sums of their ids, in the entries' order. An entry and a draft
 * holding one id both take that id's sums (counts are kept by repository and id).
 *
 * @param entries - the index's entries, in the order of the report (by path, then source).
 * @param sums - the counters' sums of the same repository.
 * @param counted - `only`: an entry with no sum is left out (one user's report: the
 *   entries they were shown or read); `all`: it is kept with zeros (the team's report).
 */
export function joinUsage(
  entries: readonly UsageEntry[],
  sums: readonly CounterSum[],
  counted: "only" | "all",
): UsageRecord[] {
  const byId = new Map(sums.map((sum) => [sum.entryId, sum]));
  const out: UsageRecord[] = [];
  for (const entry of entries) {
    const sum = byId.get(entry.id);
    if (sum === undefined && counted === "only") continue;
    const { draftBranch, ...rest } = entry;
    out.push({
      ...rest,
      shown: sum?.shown ?? 0,
      read: sum?.read ?? 0,
      lastShownAt: sum?.lastShownAt ?? null,
      lastReadAt: sum?.lastReadAt ?? null,
      ...(draftBranch === undefined ? {} : { draftBranch }),
    });
  }
  return out;
}
