/**
 * The stats reports of one repository (seed 004 "Интерфейс": `stats/me` — «Мои счётчики
 * показов и чтений»; `stats/team` — «Сведение по команде … Строка есть у КАЖДОЙ записи
 * указателя, в том числе у непоказанной — с нулями»; `stats/dead` — «Разбор мёртвой памяти»),
 * over the index, capped at {@link STATS_CAP} with `partial: "truncated"`. No rights and no
 * edition are checked here: the team server (`main/server-stats.ts`) and the local CLI and
 * MCP check them first.
 */
import { deadAnswer, resolveThresholds, usageAnswer } from "../../core/stats/dead-memory.js";
import {
  type DeadAnswer,
  type DeadThresholds,
  STATS_CAP,
  type UsageAnswer,
} from "../../core/stats/usage-stats.js";
import { isBusy, whenFree } from "../../index/counters.js";
import type { EntryIndex } from "../../index/entry-index.js";

/**
 * How long a report waits for another writer of the index (a refresh, a push's heal) before
 * it answers from the counts already stored, ms.
 */
export const QUEUED_COUNTS_WAIT_MS = 5_000;

/**
 * Writes this process's queued shown/read counts before a report reads them, so that a
 * report counts what the caller was just shown — even while another connection (the
 * start-up refresh of `lore mcp`, a push's heal on the team server) holds the index's write
 * lock: the write is retried without blocking the thread until the lock is free or
 * `waitMs` has passed; then the report answers from the stored counts (the queued ones
 * stay queued for the process's next flush).
 *
 * @param index - the index whose queue is written.
 * @param waitMs - the longest wait, ms. Default {@link QUEUED_COUNTS_WAIT_MS}.
 * @throws the SQLite error of the write when it fails other than busy.
 */
export async function writeQueuedCounts(
  index: EntryIndex,
  waitMs: number = QUEUED_COUNTS_WAIT_MS,
): Promise<void> {
  try {
    await whenFree(() => index.flushCounts({ wait: false }), waitMs);
  } catch (error) {
    if (!isBusy(error)) throw error;
  }
}

/** Reads every record of a repository (the dead-memory report filters after reading). */
const ALL = Number.MAX_SAFE_INTEGER;

/**
 * One user's counters for the entries of the repository (and its drafts) they were shown
 * or read, by path; never anyone else's counts.
 *
 * @param index - the index.
 * @param repo - the index repository name.
 * @param user - whose counters.
 * @param cap - most rows. Default {@link STATS_CAP} (1,000).
 */
export function reportMe(
  index: EntryIndex,
  repo: string,
  user: string,
  cap: number = STATS_CAP,
): UsageAnswer {
  return usageAnswer(index.usage(repo, { user, limit: cap + 1 }), cap);
}

/**
 * Every entry of the repository (and its drafts) with everyone's counters summed, zeros for
 * one never shown, by path.
 *
 * @param index - the index.
 * @param repo - the index repository name.
 * @param cap - most rows. Default {@link STATS_CAP} (1,000).
 */
export function reportTeam(index: EntryIndex, repo: string, cap: number = STATS_CAP): UsageAnswer {
  return usageAnswer(index.usage(repo, { limit: cap + 1 }), cap);
}

/**
 * The dead-memory report of the repository: each entry that is `unreachable`, or shown at
 * least `min_shown` times and never read (`shown_not_read`), or never shown and at least
 * `min_age_days` old (`never_shown`), by path, with the thresholds applied.
 *
 * @param index - the index.
 * @param repo - the index repository name.
 * @param thresholds - as asked; absent ones get the defaults (10, 30).
 * @param now - ms since the epoch: the ages are counted to it.
 * @param cap - most rows. Default {@link STATS_CAP} (1,000).
 * @throws LoreError `invalid_input` when a threshold is out of range.
 */
export function reportDead(
  index: EntryIndex,
  repo: string,
  thresholds: DeadThresholds,
  now: number,
  cap: number = STATS_CAP,
): DeadAnswer {
  const applied = resolveThresholds(thresholds);
  return deadAnswer(index.usage(repo, { limit: ALL }), applied, now, cap);
}
