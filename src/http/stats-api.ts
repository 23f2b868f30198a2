/**
 * What the team server's shown/read/stats routes ask of Lore (seed 004 "Интерфейс": `POST
 * …/knowledge/shown`, `POST …/knowledge/entries/{id}/read`, `GET …/knowledge/stats/me`,
 * `…/stats/team` (Pro), `…/stats/dead` (Pro), `…/stats/daily` (Pro)): the part of the {@link ServerApi} they call.
 * Every method checks the caller's rights on the repository (a repository the caller may
 * not read is `repo_not_found`, exactly as a missing one) and the server's edition on the
 * paid ones (`license_required` first, before any right is looked at, so the refusal says
 * nothing of the repository).
 */
import type { Principal } from "../core/access/rights.js";
import type { DailyAnswer } from "../core/stats/usage-days.js";
import type {
  DeadAnswer,
  DeadThresholds,
  ReadAnswer,
  ShownAnswer,
  UsageAnswer,
} from "../core/stats/usage-stats.js";

/** The counters and reports of hosted repositories. */
export interface StatsApi {
  /**
   * Counts one showing of each distinct known id of the batch to the caller; durable when
   * it returns (one committed transaction: an answer of 200 survives a kill -9).
   * @throws LoreError `repo_not_found`, `forbidden` (no `knowledge:read`),
   *   `batch_too_large` (more than 256 ids), `rate_limited` (more than `[server]
   *   shown_rate_limit` calls this minute by this token; `data.retry_after` seconds).
   */
  shown(principal: Principal, fullName: string, ids: readonly string[]): Promise<ShownAnswer>;
  /**
   * Counts one read of an entry (or draft) of the repository by the caller; durable.
   * @throws LoreError `repo_not_found`, `forbidden`, `entry_not_found`.
   */
  read(principal: Principal, fullName: string, id: string): Promise<ReadAnswer>;
  /**
   * The caller's own counters for the entries of the repository they were shown or read,
   * exact (never behind a `shown` that was answered). Capped at 1,000 (`partial`).
   * @throws LoreError `repo_not_found`, `forbidden`.
   */
  me(principal: Principal, fullName: string): Promise<UsageAnswer>;
  /**
   * Pro: one row for every entry of the repository's index (drafts too), summed over all
   * users, zeros for one never shown. Capped at 1,000 (`partial`).
   * @throws LoreError `license_required`, `repo_not_found`, `forbidden`.
   */
  team(principal: Principal, fullName: string): Promise<UsageAnswer>;
  /**
   * Pro: the dead-memory report with the thresholds applied.
   * @throws LoreError `license_required`, `repo_not_found`, `forbidden`, `invalid_input`
   *   (a threshold out of range).
   */
  dead(principal: Principal, fullName: string, thresholds: DeadThresholds): Promise<DeadAnswer>;
  /**
   * Pro: shown and read per UTC day of the repository (or of one entry of it) over the last
   * `days` days ending today (default 30, 1 to 366), summed over users, zeros included,
   * oldest first.
   * @throws LoreError `license_required`, `invalid_input` (`days` out of range; before the
   *   rights), `repo_not_found`, `forbidden`.
   */
  daily(
    principal: Principal,
    fullName: string,
    query: { days?: number; id?: string },
  ): Promise<DailyAnswer>;
}
