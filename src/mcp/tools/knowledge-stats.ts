import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import { LoreError } from "../../core/errors/lore-error.js";
import {
  DEFAULT_MIN_AGE_DAYS,
  DEFAULT_MIN_SHOWN,
  MIN_AGE_DAYS_RANGE,
  MIN_SHOWN_RANGE,
  STATS_CAP,
} from "../../core/stats/usage-stats.js";
import {
  deadAnswerSchema,
  deadRowSchema,
  usageRowSchema,
} from "../../core/stats/usage-stats-schema.js";
import type { KnowledgePort, StatsArgs } from "../knowledge-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";

const minShownError = coded(
  "invalid_input",
  `\`min_shown\` must be a whole number from ${MIN_SHOWN_RANGE.min} to ${MIN_SHOWN_RANGE.max}; leave it out for ${DEFAULT_MIN_SHOWN}`,
);
const minAgeError = coded(
  "invalid_input",
  `\`min_age_days\` must be a whole number of days from ${MIN_AGE_DAYS_RANGE.min} to ${MIN_AGE_DAYS_RANGE.max}; leave it out for ${DEFAULT_MIN_AGE_DAYS}`,
);

/**
 * The output of `knowledge_stats`, from the REST schemas (`core/stats/usage-stats-schema.ts`)
 * so the tool and `GET …/knowledge/stats/*` cannot drift apart: `{items, partial?}` for `me`
 * and `team`, plus `min_shown` and `min_age_days` (and each row's `ailment`) for `dead`. One
 * object (MCP wants an object schema), its rows either a dead row or a usage row.
 */
export const statsOutput = {
  items: z
    .array(z.union([deadRowSchema, usageRowSchema]))
    .describe(
      "One row per entry (drafts marked `draft` with their `branch`), ordered by path; `dead` rows carry `ailment`.",
    ),
  partial: deadAnswerSchema.shape.partial.describe(
    `"truncated" when there were more than ${STATS_CAP} rows; absent: complete.`,
  ),
  min_shown: deadAnswerSchema.shape.min_shown.optional().describe("`dead`: the threshold applied."),
  min_age_days: deadAnswerSchema.shape.min_age_days
    .optional()
    .describe("`dead`: the threshold applied."),
};

/**
 * Registers `knowledge_stats` / `knowledge.stats` (seed 004 "Интерфейс": the counters and
 * the dead-memory report, `GET …/knowledge/stats/me|team|dead`). Listed only with a port
 * that has `stats` (local `lore mcp`: the local index; a team server's `/mcp`: the hosted
 * repositories with the token's rights).
 *
 * The result is the REST answer as is: `{items, partial?}` (`me`, `team`) or `{items,
 * partial?, min_shown, min_age_days}` (`dead`).
 *
 * @param server - the MCP server.
 * @param stats - the port's `stats` (see {@link KnowledgePort}).
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerStatsTool(
  server: McpServer,
  stats: NonNullable<KnowledgePort["stats"]>,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.stats,
    {
      title: "Knowledge usage stats",
      description:
        "How the team's knowledge is used: which entries were shown (listed by " +
        `${names.recall}) and read (opened with ${names.open}). \`kind\`: \`me\` — your own ` +
        "counters for the entries you were shown or read; `team` (Pro) — every entry of the " +
        "repository with everyone's counts summed, zeros for one never shown; `dead` (Pro) — " +
        "the dead-memory report: entries shown at least `min_shown` times and never read " +
        "(`shown_not_read`), entries that need a mechanism this version lacks (`unreachable`, " +
        "with `unmet_mechanisms`), entries older than `min_age_days` never shown " +
        `(\`never_shown\`). At most ${STATS_CAP} rows; \`partial: "truncated"\` says there ` +
        "were more. Without a Pro licence `team` and `dead` are refused with " +
        "`license_required`.",
      inputSchema: {
        repo: z
          .string(coded("invalid_input", "`repo` must be a string"))
          .max(300, coded("invalid_input", "`repo` must be at most 300 characters"))
          .optional()
          .describe(
            "The repository: `owner/name` on a team server; locally its identity or folder. " +
              "Default (local only): the repository of the current folder.",
          ),
        kind: z
          .enum(
            ["me", "team", "dead"],
            coded("invalid_input", "`kind` must be `me`, `team` or `dead`"),
          )
          .describe("`me` (your counters), `team` (everyone's, Pro) or `dead` (the report, Pro)."),
        min_shown: z
          .number(minShownError)
          .int(minShownError)
          .min(MIN_SHOWN_RANGE.min, minShownError)
          .max(MIN_SHOWN_RANGE.max, minShownError)
          .optional()
          .describe(
            `\`dead\` only: shown at least this often and never read is \`shown_not_read\`. Default ${DEFAULT_MIN_SHOWN}.`,
          ),
        min_age_days: z
          .number(minAgeError)
          .int(minAgeError)
          .min(MIN_AGE_DAYS_RANGE.min, minAgeError)
          .max(MIN_AGE_DAYS_RANGE.max, minAgeError)
          .optional()
          .describe(
            `\`dead\` only: at least this many days in the index and never shown is \`never_shown\`. Default ${DEFAULT_MIN_AGE_DAYS}.`,
          ),
      },
      outputSchema: statsOutput,
      annotations: readOnlyAnnotations("Knowledge usage stats"),
    },
    async (args) => {
      try {
        const input: StatsArgs = { kind: args.kind };
        if (args.repo !== undefined) input.repo = args.repo;
        if (args.kind !== "dead" && (args.min_shown ?? args.min_age_days) !== undefined) {
          throw thresholdsOutsideDead(args.kind);
        }
        if (args.min_shown !== undefined) input.min_shown = args.min_shown;
        if (args.min_age_days !== undefined) input.min_age_days = args.min_age_days;
        const answer = await stats(input);
        return jsonResult({ ...answer });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}

/** `min_shown` / `min_age_days` given with `me` or `team`, which take none. */
export function thresholdsOutsideDead(kind: string): LoreError {
  return new LoreError("invalid_input", {
    reason: `\`min_shown\` and \`min_age_days\` are for kind \`dead\`, not \`${kind}\``,
    reason_ru: `\`min_shown\` и \`min_age_days\` — для вида \`dead\`, а не \`${kind}\``,
  });
}
