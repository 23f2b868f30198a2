/**
 * The shown/read stats of this machine's index (seed 004 "Интерфейс": `stats/me`,
 * `stats/team`, `stats/dead`, the same shapes as the team server's): what `lore stats`
 * without `[server] url` and the `knowledge_stats` tool of `lore mcp` answer. `me` is the
 * configured user's counters, `team` every user's of this index summed, `dead` the
 * dead-memory report. The paid kinds are gated like on a server (seed 004, editions by
 * address): by the edition of a local `[server] license`; none is Community, which refuses
 * `team` and `dead` with `license_required` before the repository is even looked up.
 */
import { resolve } from "node:path";
import { openGitRepo } from "../adapters/git-cli/git-cli-repo.js";
import { type Edition, PAID_FEATURES, requireEdition } from "../core/editions/edition.js";
import { LoreError } from "../core/errors/lore-error.js";
import { DEFAULT_MIN_AGE_DAYS, DEFAULT_MIN_SHOWN } from "../core/stats/usage-stats.js";
import type { StatsAnswer, StatsArgs } from "../mcp/knowledge-port.js";
import {
  reportDead,
  reportMe,
  reportTeam,
  writeQueuedCounts,
} from "../services/stats/usage-reports.js";
import type { Lore } from "./compose.js";
import { licenceWarning, loadLicence } from "./load-licence.js";

/** What {@link localStats} needs besides Lore. */
export interface LocalStatsOptions {
  /** The current folder: its repository is the default one. */
  cwd: string;
  /** The environment (`LORE_LICENSE_PUBLIC_KEY` for a test licence). */
  env: NodeJS.ProcessEnv;
  /** Writes a warning line (an expired licence). Default: none. */
  log?: (line: string) => void;
  /** The clock, ms since the epoch (the ages of the dead-memory report). Default `Date.now`. */
  now?: () => number;
}

/**
 * The local stats: a function answering {@link StatsArgs} over the local index.
 *
 * @param lore - the composed Lore (its index, settings: `user`, `server.license`).
 * @param options - see {@link LocalStatsOptions}.
 * @returns `stats(args)`, which resolves to `{items, partial?}` (`me`, `team`) or `{items,
 *   partial?, min_shown, min_age_days}` (`dead`) and throws LoreError `license_required`
 *   (`team`/`dead` without a Pro or Max licence), `license_invalid` (a licence file that is
 *   unreadable or badly signed), `repo_not_indexed` (the repository is not in the index;
 *   with no `repo`, the current folder's), `invalid_input` (a threshold with `me`/`team`).
 */
export function localStats(
  lore: Lore,
  options: LocalStatsOptions,
): (args: StatsArgs) => Promise<StatsAnswer> {
  const now = options.now ?? Date.now;
  let edition: Promise<Edition> | undefined;
  // Read once per process, at the first paid call: `me` works with a broken licence file.
  const editionOf = (): Promise<Edition> => {
    const path = lore.settings.server.license;
    edition ??= loadLicence(path, options.env).then((state) => {
      const warning =
        path === undefined ? undefined : licenceWarning(state, path, lore.settings.lang);
      if (warning !== undefined) options.log?.(warning);
      return state.edition;
    });
    return edition;
  };
  return async (args) => {
    if (args.kind !== "dead" && (args.min_shown ?? args.min_age_days) !== undefined) {
      throw new LoreError("invalid_input", {
        reason: `min_shown and min_age_days are for the dead-memory report (dead), not ${args.kind}`,
        reason_ru: `min_shown и min_age_days — для разбора мёртвой памяти (dead), а не ${args.kind}`,
      });
    }
    // The edition first: a paid refusal says nothing of the repository.
    if (args.kind === "team") requireEdition(await editionOf(), PAID_FEATURES.stats_team);
    if (args.kind === "dead") requireEdition(await editionOf(), PAID_FEATURES.stats_dead);
    const repo = await localRepo(lore, options.cwd, args.repo);
    const index = lore.entryIndex;
    await writeQueuedCounts(index);
    if (args.kind === "me") return reportMe(index, repo, lore.settings.user);
    if (args.kind === "team") return reportTeam(index, repo);
    return reportDead(
      index,
      repo,
      {
        minShown: args.min_shown ?? DEFAULT_MIN_SHOWN,
        minAgeDays: args.min_age_days ?? DEFAULT_MIN_AGE_DAYS,
      },
      now(),
    );
  };
}

/**
 * The index identity of the repository named (identity or folder), else of the current
 * folder's repository (the top of its git work tree, or the folder itself).
 *
 * @throws LoreError `repo_not_indexed`.
 */
async function localRepo(lore: Lore, cwd: string, repo: string | undefined): Promise<string> {
  if (repo !== undefined && repo.trim() !== "") {
    const named = repo.trim();
    try {
      return lore.resolveRepo(named);
    } catch (error) {
      // A relative folder is named from the current folder, as `lore recall --repo` does.
      const folder = resolve(cwd, named);
      if (folder === named) throw error;
      return lore.resolveRepo(folder);
    }
  }
  const top = await openGitRepo(cwd)
    .then(async (git) => {
      await git.close();
      return git.dir;
    })
    .catch(() => cwd);
  return lore.resolveRepo(top);
}
