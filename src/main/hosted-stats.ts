/**
 * `knowledge_stats` over the team server's `/mcp` (seed 004 "Интерфейс": stats/me|team|dead):
 * the same {@link StatsApi} as the REST routes, with the token's principal — so the edition
 * is checked first on the paid kinds, then the rights (a repository the caller cannot read
 * is `repo_not_found`, never a count), exactly as over REST.
 */
import type { Principal } from "../core/access/rights.js";
import { LoreError } from "../core/errors/lore-error.js";
import type { DeadThresholds } from "../core/stats/usage-stats.js";
import type { StatsApi } from "../http/stats-api.js";
import type { KnowledgePort } from "../mcp/knowledge-port.js";

/**
 * The `stats` of a caller's `/mcp` port.
 *
 * @param stats - the server's stats API.
 * @param principal - the token's principal.
 * @returns `stats(args)`; it throws LoreError `invalid_input` when `repo` is missing (a
 *   team server has no current repository), and whatever the StatsApi throws
 *   (`license_required`, `repo_not_found`, `forbidden`, `invalid_input`).
 */
export function hostedStats(
  stats: StatsApi,
  principal: Principal,
): NonNullable<KnowledgePort["stats"]> {
  return async ({ repo, kind, min_shown, min_age_days }) => {
    if (kind === "team") return stats.team(principal, repoOf(repo));
    if (kind === "dead") {
      const thresholds: DeadThresholds = {};
      if (min_shown !== undefined) thresholds.minShown = min_shown;
      if (min_age_days !== undefined) thresholds.minAgeDays = min_age_days;
      return stats.dead(principal, repoOf(repo), thresholds);
    }
    return stats.me(principal, repoOf(repo));
  };
}

/** `repo` as the server needs it: `owner/name`. @throws LoreError `invalid_input`. */
function repoOf(repo: string | undefined): string {
  if (repo !== undefined && repo.trim() !== "") return repo.trim();
  throw new LoreError("invalid_input", {
    reason: "`repo` is needed on a team server: owner/name",
    reason_ru: "на сервере команды нужен `repo`: владелец/имя",
  });
}
