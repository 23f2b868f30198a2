/**
 * The shown/read counters and the stats reports over the REST API (seed 004 "Интерфейс"):
 * `POST /api/v1/repos/{owner}/{name}/knowledge/shown` (a batch of up to 256 ids, at most
 * `[server] shown_rate_limit` calls a minute per token), `POST …/knowledge/entries/{id}/read`,
 * `GET …/knowledge/stats/me`, `…/stats/team` (Pro), `…/stats/dead` (Pro) and `…/stats/daily`
 * (Pro: shown and read per UTC day, the web view's chart). The shapes are
 * the schemas of `core/stats/usage-stats-schema.ts` (one source with the MCP tool); rights,
 * the edition, the batch cap and the rate limit are checked by the {@link StatsApi}.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { DAILY_DAYS_DEFAULT, DAILY_DAYS_MAX } from "../../core/stats/usage-days.js";
import type { DeadThresholds } from "../../core/stats/usage-stats.js";
import {
  DEFAULT_MIN_AGE_DAYS,
  DEFAULT_MIN_SHOWN,
  DEFAULT_SHOWN_RATE_LIMIT,
  SHOWN_BATCH_MAX,
  STATS_CAP,
} from "../../core/stats/usage-stats.js";
import {
  deadAnswerSchema,
  deadQuerySchema,
  readAnswerSchema,
  shownAnswerSchema,
  shownBodySchema,
  usageAnswerSchema,
} from "../../core/stats/usage-stats-schema.js";
import { BODY_TOO_LARGE, ERROR_RESPONSES, ErrorSchema, RepoParamsSchema } from "../api-schemas.js";
import { strictHook } from "../body-refusal.js";
import type { HttpEnv } from "../server-api.js";
import type { StatsApi } from "../stats-api.js";

/** `stats/me` and `stats/team` take no query parameter: one is `unknown_field`, as on `stats/dead`. */
const NoQuerySchema = z.strictObject({});

const security = [{ bearer: [] }];
const base = "/api/v1/repos/{owner}/{name}/knowledge";

/**
 * The answer schemas, named in the OpenAPI document's components: made anew from the shared
 * schemas' shapes with the OpenAPI-extended `z`, because a zod 4 schema built before
 * `@hono/zod-openapi` was first imported has no `.openapi()` of its own.
 */
const UsageAnswerSchema = z.object(usageAnswerSchema.shape).openapi("UsageAnswer");
const DeadAnswerSchema = z.object(deadAnswerSchema.shape).openapi("DeadAnswer");
const ShownAnswerSchema = z.object(shownAnswerSchema.shape).openapi("ShownAnswer");
const ShownBodySchema = z.strictObject(shownBodySchema.shape).openapi("ShownBody");
const ReadAnswerSchema = z.object(readAnswerSchema.shape).openapi("ReadAnswer");

const json = (description: string, schema: z.ZodType) => ({
  description,
  content: { "application/json": { schema } },
});

/** 404 of a repository-scoped stats route. */
const notFound = {
  404: json(
    "`repo_not_found` (also for a repository the caller may not read: no count of it, ever)",
    ErrorSchema,
  ),
};

/** 402 of a paid address: refused whole, before any right is looked at. */
const paid = {
  402: json(
    "`license_required`: the server's edition lacks this address (`data.feature`, `data.edition`, `data.edition_needed`); refused whole, before any right, so it says nothing of the repository",
    ErrorSchema,
  ),
};

const EntryParamsSchema = RepoParamsSchema.extend({
  id: z
    .string()
    .min(1)
    .max(128)
    .openapi({
      param: { name: "id", in: "path" },
      example: "0192ec1a-7b1a-7def-abcd-0987654321fe",
    }),
});

const shownRoute = createRoute({
  method: "post",
  path: `${base}/shown`,
  summary: `Count one showing of each entry of a batch (at most ${SHOWN_BATCH_MAX} ids) to the caller; at most ${DEFAULT_SHOWN_RATE_LIMIT} calls a minute per token by default ([server] shown_rate_limit); durable when answered`,
  security,
  request: {
    params: RepoParamsSchema,
    body: { content: { "application/json": { schema: ShownBodySchema } }, required: true },
  },
  responses: {
    200: json(
      "`{counted, unknown}`: distinct known ids counted once each; ids that are no entry or draft of the repository come back in `unknown`, not counted",
      ShownAnswerSchema,
    ),
    ...ERROR_RESPONSES,
    400: json(
      `Bad input: \`batch_too_large\` (more than ${SHOWN_BATCH_MAX} ids; \`data.max\`, \`data.count\`), \`invalid_input\`, \`unknown_field\``,
      ErrorSchema,
    ),
    ...notFound,
    ...BODY_TOO_LARGE,
    429: {
      description:
        "`rate_limited`: the token made its calls of this minute (`data.retry_after` seconds); nothing was counted",
      headers: {
        "Retry-After": {
          description: "Seconds until the next minute's window opens",
          schema: { type: "integer", minimum: 1 },
        },
      },
      content: { "application/json": { schema: ErrorSchema } },
    },
  },
});

const readRoute = createRoute({
  method: "post",
  path: `${base}/entries/{id}/read`,
  summary:
    "Count that the caller opened an entry (or a draft) of the repository; durable when answered",
  security,
  request: { params: EntryParamsSchema },
  responses: {
    200: json(
      "`{id, read}`: the caller's read count of the entry after this one",
      ReadAnswerSchema,
    ),
    ...ERROR_RESPONSES,
    404: json(
      "`repo_not_found` (also for a repository the caller may not read), `entry_not_found`",
      ErrorSchema,
    ),
  },
});

const meRoute = createRoute({
  method: "get",
  path: `${base}/stats/me`,
  summary: `The caller's own shown and read counters per entry of the repository they were shown or read; exact, never behind an answered shown; at most ${STATS_CAP.toLocaleString("en")} rows (partial: truncated), no paging`,
  security,
  request: { params: RepoParamsSchema, query: NoQuerySchema },
  responses: {
    200: json(
      "`{items, partial?}`; no `partial` field = complete; no team totals",
      UsageAnswerSchema,
    ),
    ...ERROR_RESPONSES,
    ...notFound,
  },
});

const teamRoute = createRoute({
  method: "get",
  path: `${base}/stats/team`,
  summary: `Pro: the team's counters summed over every user, one row for EVERY entry and draft of the index (zeros for one never shown); at most ${STATS_CAP.toLocaleString("en")} rows (partial: truncated), no paging`,
  security,
  request: { params: RepoParamsSchema, query: NoQuerySchema },
  responses: {
    200: json("`{items, partial?}`; no `partial` field = complete", UsageAnswerSchema),
    ...ERROR_RESPONSES,
    ...paid,
    ...notFound,
  },
});

const deadRoute = createRoute({
  method: "get",
  path: `${base}/stats/dead`,
  summary: `Pro: the dead-memory report — unreachable (with unmet_mechanisms), shown_not_read (shown at least min_shown times, default ${DEFAULT_MIN_SHOWN}, never read), never_shown (at least min_age_days old, default ${DEFAULT_MIN_AGE_DAYS}, never shown); the thresholds applied are echoed; at most ${STATS_CAP.toLocaleString("en")} rows (partial: truncated)`,
  security,
  request: { params: RepoParamsSchema, query: deadQuerySchema },
  responses: {
    200: json("`{items, partial?, min_shown, min_age_days}`", DeadAnswerSchema),
    ...ERROR_RESPONSES,
    400: json(
      "Bad input: `invalid_input` (a threshold out of range, naming it), `unknown_field` (a query parameter the route does not take)",
      ErrorSchema,
    ),
    ...paid,
    ...notFound,
  },
});

const DailyQuerySchema = z.strictObject({
  days: z
    .string()
    .optional()
    .openapi({
      description: `Whole days ${1}–${DAILY_DAYS_MAX} ending today (UTC); default ${DAILY_DAYS_DEFAULT}.`,
      example: "30",
    }),
  id: z.string().min(1).max(128).optional().openapi({
    description: "One entry's (or draft's) days only; absent: the whole repository's.",
  }),
});

const DailyRowSchema = z
  .object({
    day: z.string().openapi({ description: "YYYY-MM-DD, UTC", example: "2026-12-01" }),
    shown: z.number().int(),
    read: z.number().int(),
  })
  .openapi("DailyRow");

const DailyAnswerSchema = z
  .object({
    days: z.array(DailyRowSchema),
    id: z.string().optional().openapi({ description: "The entry asked for, echoed" }),
  })
  .openapi("DailyAnswer");

const dailyRoute = createRoute({
  method: "get",
  path: `${base}/stats/daily`,
  summary: `Pro: shown and read per UTC day of the repository (its entries and drafts) or of one entry (\`id\`), summed over the team, over the last \`days\` days ending today (default ${DAILY_DAYS_DEFAULT}, at most ${DAILY_DAYS_MAX}): one row per day, zeros included, oldest first`,
  security,
  request: { params: RepoParamsSchema, query: DailyQuerySchema },
  responses: {
    200: json("`{days: [{day, shown, read}], id?}`", DailyAnswerSchema),
    ...ERROR_RESPONSES,
    400: json(
      "Bad input: `invalid_input` (`days` out of range, `data.field: days`), `unknown_field` (a query parameter the route does not take)",
      ErrorSchema,
    ),
    ...paid,
    ...notFound,
  },
});

/**
 * The thresholds of the query as numbers: a value that is not decimal digits becomes NaN,
 * which the service refuses (`invalid_input` naming the parameter) after the edition check.
 */
function thresholdsOf(query: { min_shown?: string; min_age_days?: string }): DeadThresholds {
  const number = (raw: string) => (/^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN);
  return {
    ...(query.min_shown === undefined ? {} : { minShown: number(query.min_shown) }),
    ...(query.min_age_days === undefined ? {} : { minAgeDays: number(query.min_age_days) }),
  };
}

/**
 * Registers `POST …/knowledge/shown`, `POST …/knowledge/entries/{id}/read` and `GET
 * …/knowledge/stats/me|team|dead|daily` (seed 004 "Интерфейс").
 *
 * @param app - the application.
 * @param stats - what the routes call (rights, edition, caps and limits are its checks).
 */
export function registerStatsRoutes(app: OpenAPIHono<HttpEnv>, stats: StatsApi): void {
  const repoOf = (param: { owner: string; name: string }) => `${param.owner}/${param.name}`;
  app.openapi(
    shownRoute,
    async (c) => {
      const { ids } = c.req.valid("json");
      return c.json(await stats.shown(c.get("principal"), repoOf(c.req.valid("param")), ids), 200);
    },
    strictHook(["ids"]),
  );
  app.openapi(
    readRoute,
    async (c) => {
      const param = c.req.valid("param");
      return c.json(await stats.read(c.get("principal"), repoOf(param), param.id), 200);
    },
    strictHook([]),
  );
  app.openapi(
    meRoute,
    async (c) => c.json(await stats.me(c.get("principal"), repoOf(c.req.valid("param"))), 200),
    strictHook([]),
  );
  app.openapi(
    teamRoute,
    async (c) => c.json(await stats.team(c.get("principal"), repoOf(c.req.valid("param"))), 200),
    strictHook([]),
  );
  app.openapi(
    deadRoute,
    async (c) => {
      const thresholds = thresholdsOf(c.req.valid("query"));
      return c.json(
        await stats.dead(c.get("principal"), repoOf(c.req.valid("param")), thresholds),
        200,
      );
    },
    strictHook(["min_shown", "min_age_days"]),
  );
  app.openapi(
    dailyRoute,
    async (c) => {
      const query = c.req.valid("query");
      const days =
        query.days === undefined
          ? undefined
          : /^\d{1,9}$/.test(query.days)
            ? Number(query.days)
            : Number.NaN;
      const answer = await stats.daily(c.get("principal"), repoOf(c.req.valid("param")), {
        ...(days === undefined ? {} : { days }),
        ...(query.id === undefined ? {} : { id: query.id }),
      });
      return c.json(answer, 200);
    },
    strictHook(["days", "id"]),
  );
}
