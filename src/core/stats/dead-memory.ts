/**
 * The stats answers from the index's usage records (seed 004 "Интерфейс": `GET
 * …/knowledge/stats/me` and `…/stats/team` → `{items, partial?}`; `…/stats/dead` → `{items,
 * partial?, min_shown, min_age_days}`, each row's `ailment` `shown_not_read`, `unreachable`
 * (with `unmet_mechanisms`) or `never_shown`; «Тем же потолком и той же оговоркой ограничены
 * сведения счётчиков»). Pure: no I/O; the clock is a parameter.
 */
import { LoreError } from "../errors/lore-error.js";
import type { UsageRecord } from "./usage-record.js";
import {
  type Ailment,
  DEFAULT_MIN_AGE_DAYS,
  DEFAULT_MIN_SHOWN,
  type DeadAnswer,
  type DeadRow,
  type DeadThresholds,
  MIN_AGE_DAYS_RANGE,
  MIN_SHOWN_RANGE,
  type UsageAnswer,
  type UsageRow,
} from "./usage-stats.js";

/** One day, ms (`min_age_days` counts whole days of 86,400,000 ms). */
export const DAY_MS = 86_400_000;

/** The thresholds of the dead-memory report as applied (defaults filled in). */
export interface AppliedThresholds {
  minShown: number;
  minAgeDays: number;
}

/** An ms time as ISO 8601 UTC, `null` kept. */
function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The row of `stats/me` / `stats/team` of one record. */
function usageRow(record: UsageRecord): UsageRow {
  const row: UsageRow = {
    id: record.id,
    path: record.path,
    summary: record.summary,
    shown: record.shown,
    read: record.read,
    last_shown_at: iso(record.lastShownAt),
    last_read_at: iso(record.lastReadAt),
  };
  if (record.draftBranch !== undefined) {
    row.draft = true;
    row.branch = record.draftBranch;
  }
  return row;
}

/**
 * `stats/me` or `stats/team` from the records (already the user's own, or everyone's),
 * in their order.
 *
 * @param records - the index's records; pass one more than `cap` to learn of a cut.
 * @param cap - most rows (`STATS_CAP`, 1,000): past it the first `cap` and `partial:
 *   "truncated"`; a complete answer has no `partial` field.
 */
export function usageAnswer(records: readonly UsageRecord[], cap: number): UsageAnswer {
  const items = records.slice(0, cap).map(usageRow);
  return records.length > cap ? { items, partial: "truncated" } : { items };
}

/**
 * What ails one entry, or `undefined` when it is alive. One ailment per entry, first
 * match: `unreachable` (its contract cannot fire in this version) over `shown_not_read`
 * (shown at least `minShown` times by the team, read by nobody) over `never_shown` (shown
 * to nobody and first seen at least `minAgeDays` whole days ago). Both boundaries count:
 * exactly `minShown` showings, exactly `minAgeDays` days.
 *
 * @param record - the entry with everyone's counts.
 * @param thresholds - as applied.
 * @param now - ms since the epoch.
 */
export function ailmentOf(
  record: UsageRecord,
  thresholds: AppliedThresholds,
  now: number,
): Ailment | undefined {
  if (!record.reachable) return "unreachable";
  if (record.shown >= thresholds.minShown && record.read === 0) return "shown_not_read";
  if (record.shown === 0 && now - record.firstSeenAt >= thresholds.minAgeDays * DAY_MS) {
    return "never_shown";
  }
  return undefined;
}

/**
 * The dead-memory report (`stats/dead`): every ailing entry of the records (see
 * {@link ailmentOf}), in the records' order (by path), with the thresholds applied echoed.
 *
 * @param records - every entry of the repository with everyone's counts.
 * @param thresholds - as applied (see {@link resolveThresholds}).
 * @param now - ms since the epoch: the ages are counted to it.
 * @param cap - most rows (`STATS_CAP`): past it the first `cap` and `partial: "truncated"`.
 */
export function deadAnswer(
  records: readonly UsageRecord[],
  thresholds: AppliedThresholds,
  now: number,
  cap: number,
): DeadAnswer {
  const items: DeadRow[] = [];
  let cut = false;
  for (const record of records) {
    const ailment = ailmentOf(record, thresholds, now);
    if (ailment === undefined) continue;
    if (items.length === cap) {
      cut = true;
      break;
    }
    const row: DeadRow = {
      ...usageRow(record),
      ailment,
      first_seen_at: new Date(record.firstSeenAt).toISOString(),
      age_days: Math.max(0, Math.floor((now - record.firstSeenAt) / DAY_MS)),
    };
    if (ailment === "unreachable") row.unmet_mechanisms = [...record.unmetMechanisms];
    items.push(row);
  }
  return {
    items,
    ...(cut ? { partial: "truncated" as const } : {}),
    min_shown: thresholds.minShown,
    min_age_days: thresholds.minAgeDays,
  };
}

/** The refusal of a threshold out of its range or not a whole number. */
function thresholdError(name: string, range: { min: number; max: number }, got: unknown) {
  const shown = typeof got === "string" ? JSON.stringify(got) : String(got);
  return new LoreError(
    "invalid_input",
    {
      reason: `\`${name}\` must be a whole number from ${range.min} to ${range.max}; got ${shown}`,
      reason_ru: `\`${name}\` — целое число от ${range.min} до ${range.max}; получено ${shown}`,
    },
    { data: { parameter: name, min: range.min, max: range.max } },
  );
}

function checked(name: string, range: { min: number; max: number }, value: number): number {
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    throw thresholdError(name, range, value);
  }
  return value;
}

/**
 * The thresholds to apply: each given one checked, each absent one its default
 * (`min_shown` 10, `min_age_days` 30).
 *
 * @param thresholds - as asked (MCP, CLI, a parsed query).
 * @throws LoreError `invalid_input` naming the parameter and its range (`min_shown` 1 –
 *   1,000,000, `min_age_days` 0 – 36,500) when one is not a whole number in it.
 */
export function resolveThresholds(thresholds: DeadThresholds = {}): AppliedThresholds {
  return {
    minShown: checked("min_shown", MIN_SHOWN_RANGE, thresholds.minShown ?? DEFAULT_MIN_SHOWN),
    minAgeDays: checked(
      "min_age_days",
      MIN_AGE_DAYS_RANGE,
      thresholds.minAgeDays ?? DEFAULT_MIN_AGE_DAYS,
    ),
  };
}

/**
 * The thresholds of a query string (`?min_shown=&min_age_days=`), defaults filled in.
 *
 * @param query - the raw values; absent (or empty) = default.
 * @throws LoreError `invalid_input` naming the parameter and its range when a value is not
 *   decimal digits or is out of range.
 */
export function parseThresholds(query: {
  min_shown?: string;
  min_age_days?: string;
}): AppliedThresholds {
  const parse = (name: string, range: { min: number; max: number }, raw: string | undefined) => {
    if (raw === undefined || raw === "") return undefined;
    if (!/^\d{1,9}$/.test(raw)) throw thresholdError(name, range, raw);
    return Number(raw);
  };
  const minShown = parse("min_shown", MIN_SHOWN_RANGE, query.min_shown);
  const minAgeDays = parse("min_age_days", MIN_AGE_DAYS_RANGE, query.min_age_days);
  return resolveThresholds({
    ...(minShown === undefined ? {} : { minShown }),
    ...(minAgeDays === undefined ? {} : { minAgeDays }),
  });
}
