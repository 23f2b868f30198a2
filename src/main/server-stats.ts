/**
 * The team server's shown/read counters and stats, rights-checked and edition-gated (seed
 * 004 "Интерфейс": `POST …/knowledge/shown`, `POST …/knowledge/entries/{id}/read`, `GET
 * …/knowledge/stats/me`, `…/stats/team` (Pro), `…/stats/dead` (Pro), `…/stats/daily` (Pro); «Платный вызов либо
 * доступен целиком, либо отклоняется целиком»): the {@link StatsApi} the HTTP routes and
 * the `/mcp` `knowledge_stats` tool call, over the stats services and the index.
 *
 * Every method authorizes `knowledge:read` on the repository (one the caller may not read
 * is `repo_not_found`, exactly as a missing one: nothing of it, not even a count), then
 * brings its index up to the default branch. The paid ones check the edition FIRST, before
 * any right is looked at, so a `license_required` says nothing of the repository.
 */
import type { Principal } from "../core/access/rights.js";
import { type Edition, PAID_FEATURES, requireEdition } from "../core/editions/edition.js";
import { resolveThresholds } from "../core/stats/dead-memory.js";
import { resolveDays } from "../core/stats/usage-days.js";
import { DEFAULT_SHOWN_RATE_LIMIT } from "../core/stats/usage-stats.js";
import type { StatsApi } from "../http/stats-api.js";
import type { EntryIndex } from "../index/entry-index.js";
import { sqliteIndexStore } from "../index/index-store/sqlite-index-store.js";
import type { CounterStore } from "../ports/index-store.js";
import type { RepoRecord, ServerStore } from "../ports/server-store.js";
import { authorizeRepo } from "../services/access/authorize.js";
import { markRead } from "../services/stats/mark-read.js";
import { markShown } from "../services/stats/mark-shown.js";
import { reportDaily } from "../services/stats/usage-daily.js";
import { usageDead, usageMe, usageTeam } from "../services/stats/usage-records.js";
import { writeQueuedCounts } from "../services/stats/usage-reports.js";

/** What {@link createStatsApi} needs. */
export interface ServerStatsDeps {
  store: ServerStore;
  /** The index the server reads. */
  index: EntryIndex;
  /** Where `shown` and `read` are counted, durably. Default: the SQLite view of `index`. */
  counters?: CounterStore;
  /** Brings a hosted repository's index up to its default branch's head before a read. */
  freshen: (repo: RepoRecord) => Promise<void>;
  /** The server's edition. Default `community`. */
  edition?: Edition;
  /** Calls of `shown` per token per minute; 0 = no limit. Default 600. */
  shownRateLimit?: number;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

/**
 * Builds the stats part of the server's API (see the module header).
 *
 * @param deps - see {@link ServerStatsDeps}.
 */
export function createStatsApi(deps: ServerStatsDeps): StatsApi {
  const now = deps.now ?? Date.now;
  const edition = deps.edition ?? "community";
  const shownRateLimit = deps.shownRateLimit ?? DEFAULT_SHOWN_RATE_LIMIT;
  const counters = deps.counters ?? sqliteIndexStore(deps.index).counters;
  // The entries from the index, the counts from the counters' store (PostgreSQL when
  // `[server] database` is set): see `services/stats/usage-records.ts`.
  const sources = { index: deps.index, counters };
  /** The repository when the caller may read its knowledge, its index brought fresh. */
  const readable = async (principal: Principal, fullName: string): Promise<RepoRecord> => {
    const repo = await authorizeRepo(deps.store, principal, fullName, "knowledge:read");
    await deps.freshen(repo);
    return repo;
  };
  return {
    async shown(principal, fullName, ids) {
      const repo = await readable(principal, fullName);
      return markShown(
        { index: deps.index, counters, store: deps.store, shownRateLimit, now },
        { principal, repo: repo.fullName, ids },
      );
    },
    async read(principal, fullName, id) {
      const repo = await readable(principal, fullName);
      return markRead({ index: deps.index, counters, now }, { principal, repo: repo.fullName, id });
    },
    async me(principal, fullName) {
      const repo = await readable(principal, fullName);
      await writeQueuedCounts(deps.index);
      return usageMe(sources, repo.fullName, principal.user);
    },
    async team(principal, fullName) {
      requireEdition(edition, PAID_FEATURES.stats_team);
      const repo = await readable(principal, fullName);
      await writeQueuedCounts(deps.index);
      return usageTeam(sources, repo.fullName);
    },
    async dead(principal, fullName, thresholds) {
      requireEdition(edition, PAID_FEATURES.stats_dead);
      // A threshold out of range is refused before the rights: the refusal says nothing
      // of the repository either.
      const applied = resolveThresholds(thresholds);
      const repo = await readable(principal, fullName);
      await writeQueuedCounts(deps.index);
      return usageDead(sources, repo.fullName, applied, now());
    },
    async daily(principal, fullName, query) {
      requireEdition(edition, PAID_FEATURES.stats_daily);
      const days = resolveDays(query.days);
      const repo = await readable(principal, fullName);
      return reportDaily(counters, repo.fullName, days, now(), query.id);
    },
  };
}
