/**
 * The shown/read stats of a team server (seed 004 "Интерфейс": `GET
 * /api/v1/repos/{owner}/{name}/knowledge/stats/me|team|dead`), for `lore stats` when
 * `[server] url` is set: one request of the REST API with the configured token; the
 * server checks the edition and the rights and its refusal comes back as the same
 * LoreError (`license_required`, `repo_not_found`, `invalid_input`, `rate_limited`).
 */
import type { TeamClient } from "../adapters/team-server/team-client.js";
import { LoreError } from "../core/errors/lore-error.js";
import { parseRepoName } from "../core/repos/repo-name.js";
import type { StatsAnswer, StatsArgs } from "../mcp/knowledge-port.js";
import { currentHostedRepo } from "./current-repo.js";

/** The thresholds as the query takes them (strings), so the server's own check applies. */
export interface RemoteStatsArgs extends Omit<StatsArgs, "min_shown" | "min_age_days"> {
  min_shown?: string;
  min_age_days?: string;
}

/**
 * The team server's stats.
 *
 * @param connect - the configured client (made at the first call).
 * @param cwd - the current folder: its origin remote (when on the server) names the
 *   default repository.
 * @returns `stats(args)`: the server's answer, as is.
 * @throws (from `stats`) LoreError `invalid_input` (no repository, or not `owner/name`), and
 *   the server's refusals; `server_unreachable`.
 */
export function remoteStats(
  connect: () => TeamClient,
  cwd: string,
): (args: RemoteStatsArgs) => Promise<StatsAnswer> {
  return async (args) => {
    const client = connect();
    const name = args.repo?.trim() || (await currentHostedRepo(cwd, client.url));
    if (name === undefined) {
      throw new LoreError("invalid_input", {
        reason: `no repository named: with [server] url set, stats come from ${client.url}; pass --repo owner/name, or run inside a clone whose origin is on ${client.url}`,
        reason_ru: `репозиторий не указан: при заданном [server] url сведения берутся с ${client.url}; укажите --repo владелец/имя или работайте в клоне, чей origin — на ${client.url}`,
      });
    }
    const [owner, rest, ...more] = name.split("/");
    if (!owner || !rest || more.length > 0) {
      throw new LoreError("invalid_input", {
        reason: `the repository on the team server is owner/name, not “${name}”`,
        reason_ru: `репозиторий на сервере команды — владелец/имя, а не «${name}»`,
      });
    }
    // A name the server could not hold (`..`, `acme/..`) is refused here, never sent as a path.
    parseRepoName(name);
    const query = new URLSearchParams();
    if (args.min_shown !== undefined) query.set("min_shown", args.min_shown);
    if (args.min_age_days !== undefined) query.set("min_age_days", args.min_age_days);
    const qs = query.size === 0 ? "" : `?${query}`;
    const path = `/api/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(rest)}/knowledge/stats/${args.kind}${qs}`;
    return client.request<StatsAnswer>("GET", path);
  };
}
