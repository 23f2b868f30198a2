/**
 * The daily usage report (seed 004 "Интерфейс", stats; the web view's chart of shown against
 * read over time): the window of UTC days ending today, one row per day, zeros included,
 * oldest first. Pure: today comes in as a time.
 */
import { LoreError } from "../errors/lore-error.js";

/** Days a daily report covers when none are asked for. */
export const DAILY_DAYS_DEFAULT = 30;

/** The most days a daily report covers (a leap year). */
export const DAILY_DAYS_MAX = 366;

/** One day of a daily report. */
export interface DailyRow {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  shown: number;
  read: number;
}

/** `GET …/knowledge/stats/daily`: the days, and the entry when one was asked for. */
export interface DailyAnswer {
  days: DailyRow[];
  id?: string;
}

const DAY_MS = 86_400_000;

/** The UTC day (`YYYY-MM-DD`) of a time, ms since the epoch. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The `days` UTC days ending with the day of `now`, oldest first.
 *
 * @param now - ms since the epoch.
 * @param days - how many, 1 to {@link DAILY_DAYS_MAX}.
 */
export function dayWindow(now: number, days: number): string[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const out: string[] = [];
  for (let i = days - 1; i >= 0; i--) out.push(dayOf(today - i * DAY_MS));
  return out;
}

/**
 * The number of days asked for: whole, 1 to {@link DAILY_DAYS_MAX}; absent = the default.
 *
 * @param days - as given (a query parameter's number; NaN for one that is not digits).
 * @throws LoreError `invalid_input` naming `days` when it is out of range or not whole.
 */
export function resolveDays(days: number | undefined): number {
  if (days === undefined) return DAILY_DAYS_DEFAULT;
  if (!Number.isInteger(days) || days < 1 || days > DAILY_DAYS_MAX) {
    throw new LoreError(
      "invalid_input",
      {
        reason: `days must be a whole number from 1 to ${DAILY_DAYS_MAX}`,
        reason_ru: `days — целое число от 1 до ${DAILY_DAYS_MAX}`,
      },
      { data: { field: "days" } },
    );
  }
  return days;
}

/**
 * Lays the counted days onto the window: every day of it once, zeros where nothing was
 * counted; counted days outside it are left out.
 *
 * @param window - the days, oldest first ({@link dayWindow}).
 * @param counted - the days that have counts.
 */
export function fillDays(window: readonly string[], counted: readonly DailyRow[]): DailyRow[] {
  const byDay = new Map(counted.map((row) => [row.day, row]));
  return window.map((day) => {
    const row = byDay.get(day);
    return { day, shown: row?.shown ?? 0, read: row?.read ?? 0 };
  });
}
