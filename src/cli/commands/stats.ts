import { LoreError } from "../../core/errors/lore-error.js";
import { parseThresholds } from "../../core/stats/dead-memory.js";
import {
  DEFAULT_MIN_AGE_DAYS,
  DEFAULT_MIN_SHOWN,
  STATS_CAP,
  type StatsKind,
} from "../../core/stats/usage-stats.js";
import type { StatsAnswer } from "../../mcp/knowledge-port.js";
import { flag, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { expectPositionals, takeSubcommand } from "../server-admin.js";
import { formatStats } from "../stats-table.js";

const USAGE = ["lore stats me|team|dead [--repo R] [--min-shown N] [--min-age-days N] [--json]"];

const KINDS: readonly StatsKind[] = ["me", "team", "dead"];

/**
 * `lore stats me|team|dead` (seed 004 "Интерфейс"): the shown/read counters of a
 * repository's entries and the dead-memory report, as a table or `--json` (the answer of
 * `GET …/knowledge/stats/…` as is) — from the local index, or from the team server when
 * `[server] url` is set.
 */
export const statsCommand: Command = {
  name: "stats",
  summary: "shown/read counters of the entries and the dead-memory report (me, team, dead)",
  help: [
    `Usage: ${USAGE[0]}`,
    "",
    "How the knowledge is used: how often each entry was shown (listed by recall) and read",
    "(opened whole), one row per entry — entry, summary, shown, read, last shown.",
    "  me    your own counters (the configured user) for the entries you were shown or read",
    "  team  every entry of the repository with everyone's counters summed, zeros for one",
    "        never shown (Pro)",
    "  dead  the dead-memory report (Pro): shown_not_read (shown at least --min-shown times,",
    "        never read), unreachable (needs a mechanism this version lacks; its mechanisms",
    "        are listed), never_shown (at least --min-age-days days in the index, never shown)",
    `At most ${STATS_CAP} rows; a longer answer is marked truncated ("partial": "truncated").`,
    "Without [server] url the local index answers (team: every user of this index) and the",
    "paid kinds need a Pro or Max licence in [server] license; with it the team server",
    "answers with its own licence and your token's rights (--repo owner/name, default the",
    "origin remote when it is on the server).",
    "",
    "Options:",
    "  --repo R            the repository: locally its folder or identity (default: the",
    "                      current one); on the team server owner/name",
    `  --min-shown N       dead: the shown_not_read threshold, 1 to 1000000 (default ${DEFAULT_MIN_SHOWN})`,
    `  --min-age-days N    dead: the never_shown threshold in days, 0 to 36500 (default ${DEFAULT_MIN_AGE_DAYS})`,
    "  --json              print the answer as JSON: {items, partial?} (dead: with",
    "                      min_shown and min_age_days, and each row's ailment)",
    "",
    "Exit codes: 0 done, 2 bad option, 3 no such repository, 5 license_required (team, dead",
    "without a Pro licence) or forbidden, 6 the team server does not answer or is busy.",
  ].join("\n"),
  options: {
    repo: { type: "string" },
    "min-shown": { type: "string" },
    "min-age-days": { type: "string" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const { sub, rest } = takeSubcommand(args, KINDS, USAGE);
    expectPositionals(rest, 0, 0, USAGE);
    const kind = sub as StatsKind;
    const repo = stringOption(args, "repo");
    const minShown = stringOption(args, "min-shown");
    const minAgeDays = stringOption(args, "min-age-days");
    if (kind !== "dead" && (minShown ?? minAgeDays) !== undefined) {
      throw new LoreError("invalid_input", {
        reason: `--min-shown and --min-age-days are for lore stats dead, not ${kind}`,
        reason_ru: `--min-shown и --min-age-days — для lore stats dead, а не ${kind}`,
      });
    }
    // Checked here too, so a bad threshold is refused alike locally and before a request.
    const thresholds = parseThresholds({
      ...(minShown === undefined ? {} : { min_shown: minShown }),
      ...(minAgeDays === undefined ? {} : { min_age_days: minAgeDays }),
    });
    const settings = ctx.settings();
    let answer: StatsAnswer;
    if (settings.server.url !== undefined) {
      const { configuredTeamClient, serverNotConfigured } = await import(
        "../../main/team-client.js"
      );
      const { authFilePath } = await import("../../main/load-forge.js");
      const { remoteStats } = await import("../../main/remote-stats.js");
      const connect = () => {
        const client = configuredTeamClient(settings, process.env);
        if (client === null) throw serverNotConfigured("url", authFilePath(process.env));
        return client;
      };
      answer = await remoteStats(
        connect,
        ctx.cwd,
      )({
        kind,
        ...(repo === undefined ? {} : { repo }),
        ...(minShown === undefined ? {} : { min_shown: String(thresholds.minShown) }),
        ...(minAgeDays === undefined ? {} : { min_age_days: String(thresholds.minAgeDays) }),
      });
    } else {
      const lore = await ctx.openLore();
      const { localStats } = await import("../../main/local-stats.js");
      answer = await localStats(lore, { cwd: ctx.cwd, env: process.env, log: ctx.err })({
        kind,
        ...(repo === undefined ? {} : { repo }),
        ...(kind === "dead"
          ? { min_shown: thresholds.minShown, min_age_days: thresholds.minAgeDays }
          : {}),
      });
    }
    if (flag(args, "json")) printJson(ctx.out, answer);
    else for (const line of formatStats(kind, answer, ctx.lang)) ctx.out(line);
    return EXIT_CODES.ok;
  },
};
