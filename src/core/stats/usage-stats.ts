/**
 * Shown and read statistics (seed 004 "Интерфейс": `POST …/knowledge/shown`, `POST
 * …/knowledge/entries/{id}/read`, `GET …/knowledge/stats/me|team|dead`): the shapes every
 * surface answers (REST, MCP `knowledge_stats`, `lore stats --json`), the limits and the
 * defaults. Pure: types and constants, no I/O.
 */

/** Most entry ids in one `shown` batch (seed: «до 256 записей за вызов»); more is `batch_too_large`. */
export const SHOWN_BATCH_MAX = 256;

/** Default calls of `shown` a token may make per minute (seed: «600 обращений в минуту на токен»); `[server] shown_rate_limit`. */
export const DEFAULT_SHOWN_RATE_LIMIT = 600;

/** The rate limit's fixed window, ms. */
export const RATE_WINDOW_MS = 60_000;

/** Most rows of a stats answer (seed: «Тем же потолком и той же оговоркой ограничены сведения счётчиков»). */
export const STATS_CAP = 1_000;

/** Default `min_shown` of the dead-memory report: shown at least this often and never read is `shown_not_read`. */
export const DEFAULT_MIN_SHOWN = 10;

/** Default `min_age_days` of the dead-memory report: older than this (days) and never shown is `never_shown`. */
export const DEFAULT_MIN_AGE_DAYS = 30;

/** Accepted ranges of the thresholds (query parameters; outside is `invalid_input`). */
export const MIN_SHOWN_RANGE = { min: 1, max: 1_000_000 } as const;
export const MIN_AGE_DAYS_RANGE = { min: 0, max: 36_500 } as const;

/**
 * One entry's counters as `stats/me` (the caller's own) and `stats/team` (summed over every
 * user) answer them. Times are ISO 8601 UTC, `null` when never.
 */
export interface UsageRow {
  /** The entry id (UUIDv7): counters are kept by repository and id, so they survive renames and a draft becoming a file. */
  id: string;
  /** The file's path in the repository (a draft's: its future file). */
  path: string;
  summary: string;
  shown: number;
  read: number;
  last_shown_at: string | null;
  last_read_at: string | null;
  /** Present (true) on a draft's row. */
  draft?: true;
  /** A draft's branch. */
  branch?: string;
}

/** What ails an entry of the dead-memory report (seed 004 `ailment`). */
export type Ailment = "shown_not_read" | "unreachable" | "never_shown";

/** One row of `stats/dead`. */
export interface DeadRow extends UsageRow {
  ailment: Ailment;
  /** `unreachable` only: the mechanisms the entry needs that this version lacks. */
  unmet_mechanisms?: string[];
  /** When the index first held this entry id (a draft: when it was written), ISO 8601 UTC. */
  first_seen_at: string;
  /** Whole days since `first_seen_at`. */
  age_days: number;
}

/** `stats/me` and `stats/team`: `{items, partial?}`; no `partial` = complete. */
export interface UsageAnswer {
  items: UsageRow[];
  partial?: "truncated";
}

/** `stats/dead`: the rows and the thresholds applied. */
export interface DeadAnswer {
  items: DeadRow[];
  partial?: "truncated";
  min_shown: number;
  min_age_days: number;
}

/** The answer of `POST …/knowledge/shown`. */
export interface ShownAnswer {
  /** Distinct known ids counted once each (a repeated id in one batch counts once). */
  counted: number;
  /** Ids of the batch that are not entries (or drafts) of this repository: not counted. */
  unknown: string[];
}

/** The answer of `POST …/knowledge/entries/{id}/read`. */
export interface ReadAnswer {
  id: string;
  /** The caller's read count of the entry after this one. */
  read: number;
}

/** The thresholds of the dead-memory report as asked (absent = default). */
export interface DeadThresholds {
  minShown?: number;
  minAgeDays?: number;
}

/** Which report: the CLI's and MCP's `kind`. */
export type StatsKind = "me" | "team" | "dead";
