/**
 * The daily usage report of a repository or one entry of it (seed 004 "Интерфейс", stats;
 * `GET …/knowledge/stats/daily`, Pro): shown and read per UTC day over the last `days` days
 * ending today, summed over users, zeros included, oldest first. The caller has checked
 * the rights and the edition.
 */
import { type DailyAnswer, dayWindow, fillDays } from "../../core/stats/usage-days.js";
import type { CounterStore } from "../../ports/index-store.js";

/**
 * Builds the report.
 *
 * @param counters - where the counts are (the index store's counters; queued counts of
 *   this process are written first).
 * @param repo - the repository (`owner/name`); its drafts' counts are in it.
 * @param days - the window's length, days (already checked: 1 to 366).
 * @param now - today, ms since the epoch.
 * @param id - one entry's days only (echoed); absent: the repository's. An id nothing was
 *   counted for gives zeros.
 */
export async function reportDaily(
  counters: Pick<CounterStore, "days">,
  repo: string,
  days: number,
  now: number,
  id?: string,
): Promise<DailyAnswer> {
  const window = dayWindow(now, days);
  const first = window[0] ?? "";
  const last = window[window.length - 1] ?? "";
  const counted = await counters.days(repo, first, last, id);
  return { days: fillDays(window, counted), ...(id === undefined ? {} : { id }) };
}
