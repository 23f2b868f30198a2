/**
 * The stats reports of one repository (seed 004 "Интерфейс": `stats/me`, `stats/team`,
 * `stats/dead`) read through two collaborators: the index's entries (path, summary, age,
 * reachability) and the counters' sums (`CounterStore.sums`), joined in core
 * (`core/stats/usage-sums.ts`). The team server reads this way, so its counters may live
 * in PostgreSQL (`[server] database`) while its entries stay in the SQLite index; on SQLite
 * the answers are those of `usage-reports.ts`, which reads both in one statement. No rights
 * and no edition are checked here (`main/server-stats.ts` checks them first).
 */
import { deadAnswer, resolveThresholds, usageAnswer } from "../../core/stats/dead-memory.js";
import type { UsageRecord } from "../../core/stats/usage-record.js";
import {
  type DeadAnswer,
  type DeadThresholds,
  STATS_CAP,
  type UsageAnswer,
} from "../../core/stats/usage-stats.js";
import { joinUsage } from "../../core/stats/usage-sums.js";
import type { EntryIndex, UsageOptions } from "../../index/entry-index.js";
import type { CounterStore } from "../../ports/index-store.js";

/** Where the records come from. */
export interface UsageSources {
  /** The index: the entries and drafts of a repository. */
  index: Pick<EntryIndex, "usageEntries">;
  /** The counters' store (queued counts of this process are written first by its `sums`). */
  counters: Pick<CounterStore, "sums">;
}

/** Reads every record of a repository (the dead-memory report filters after reading). */
const ALL = Number.MAX_SAFE_INTEGER;

/**
 * The entries of a repository and its drafts with their counts, by path then source: with
 * `user`, only the entries the user was shown or read, with the user's counts (the user's
 * counted ids first, then their entries); without, every entry with everyone's counts
 * summed, zeros included (the page of entries first, then the sums of its ids).
 *
 * @param sources - see {@link UsageSources}.
 * @param repo - the index repository name (`owner/name`).
 * @param options - `user`, `limit` (most records), as `EntryIndex.usage` takes them.
 * @returns at most `limit` records, the same as `EntryIndex.usage` gives on one SQLite index.
 */
export async function usageRecords(
  sources: UsageSources,
  repo: string,
  options: UsageOptions,
): Promise<UsageRecord[]> {
  if (options.user !== undefined) {
    const sums = await sources.counters.sums(repo, { user: options.user });
    if (sums.length === 0) return [];
    const entries = sources.index.usageEntries(repo, {
      ids: sums.map((sum) => sum.entryId),
      limit: options.limit,
    });
    return joinUsage(entries, sums, "only");
  }
  const entries = sources.index.usageEntries(repo, { limit: options.limit });
  if (entries.length === 0) return [];
  // Every id of the repository at once when the page is the whole of it: one read, no list.
  const sums = await sources.counters.sums(
    repo,
    options.limit >= ALL ? {} : { ids: [...new Set(entries.map((entry) => entry.id))] },
  );
  return joinUsage(entries, sums, "all");
}

/**
 * `stats/me`: one user's counters for the entries of the repository (and its drafts) they
 * were shown or read, by path.
 *
 * @param cap - most rows. Default {@link STATS_CAP} (1,000); more are cut with `partial: "truncated"`.
 */
export async function usageMe(
  sources: UsageSources,
  repo: string,
  user: string,
  cap: number = STATS_CAP,
): Promise<UsageAnswer> {
  return usageAnswer(await usageRecords(sources, repo, { user, limit: cap + 1 }), cap);
}

/**
 * `stats/team`: every entry of the repository (and its drafts) with everyone's counters
 * summed, zeros for one never shown, by path.
 *
 * @param cap - most rows. Default {@link STATS_CAP}.
 */
export async function usageTeam(
  sources: UsageSources,
  repo: string,
  cap: number = STATS_CAP,
): Promise<UsageAnswer> {
  return usageAnswer(await usageRecords(sources, repo, { limit: cap + 1 }), cap);
}

/**
 * `stats/dead`: each entry that is `unreachable`, `shown_not_read` or `never_shown` (seed
 * 004, dead memory), by path, with the thresholds applied.
 *
 * @param now - ms since the epoch: the ages are counted to it.
 * @param cap - most rows. Default {@link STATS_CAP}.
 * @throws LoreError `invalid_input` when a threshold is out of range.
 */
export async function usageDead(
  sources: UsageSources,
  repo: string,
  thresholds: DeadThresholds,
  now: number,
  cap: number = STATS_CAP,
): Promise<DeadAnswer> {
  const applied = resolveThresholds(thresholds);
  return deadAnswer(await usageRecords(sources, repo, { limit: ALL }), applied, now, cap);
}
