/**
 * The zod schemas of the shown/read/stats shapes ({@link UsageRow} and friends in
 * `usage-stats.ts`), one source for the REST API's validation and OpenAPI document and the
 * MCP `knowledge_stats` tool's output, so they cannot drift apart. Pure.
 */
import { z } from "zod";
import { MIN_AGE_DAYS_RANGE, MIN_SHOWN_RANGE, SHOWN_BATCH_MAX } from "./usage-stats.js";

const when = z.string().nullable().describe("ISO 8601 UTC; null when never.");

/** One row of `stats/me` / `stats/team`. */
export const usageRowSchema = z.object({
  id: z.string().describe("The entry id (UUIDv7)."),
  path: z.string(),
  summary: z.string(),
  shown: z.number().int(),
  read: z.number().int(),
  last_shown_at: when,
  last_read_at: when,
  draft: z.literal(true).optional(),
  branch: z.string().optional(),
});

/** `{items, partial?}`. */
export const usageAnswerSchema = z.object({
  items: z.array(usageRowSchema),
  partial: z.literal("truncated").optional().describe("Absent: the answer is complete."),
});

/** One row of `stats/dead`. */
export const deadRowSchema = usageRowSchema.extend({
  ailment: z.enum(["shown_not_read", "unreachable", "never_shown"]),
  unmet_mechanisms: z.array(z.string()).optional(),
  first_seen_at: z.string(),
  age_days: z.number().int(),
});

/** `{items, partial?, min_shown, min_age_days}`. */
export const deadAnswerSchema = z.object({
  items: z.array(deadRowSchema),
  partial: z.literal("truncated").optional(),
  min_shown: z.number().int().describe("The threshold applied."),
  min_age_days: z.number().int().describe("The threshold applied."),
});

/**
 * The body of `POST …/knowledge/shown`. The batch cap is checked by the service (so the
 * refusal is `batch_too_large` with the count), not here.
 */
export const shownBodySchema = z.strictObject({
  ids: z.array(z.string().min(1).max(128)).describe(`Entry ids, at most ${SHOWN_BATCH_MAX}.`),
});

/** The answer of `POST …/knowledge/shown`. */
export const shownAnswerSchema = z.object({
  counted: z.number().int(),
  unknown: z.array(z.string()),
});

/** The answer of `POST …/knowledge/entries/{id}/read`. */
export const readAnswerSchema = z.object({ id: z.string(), read: z.number().int() });

/**
 * The query of `GET …/knowledge/stats/dead` (strings, as a query string holds them). Their
 * values are checked by the service after the edition (`license_required` first), so the
 * schema takes any string: a bad one is `invalid_input` naming the parameter and its range.
 */
export const deadQuerySchema = z.strictObject({
  min_shown: z
    .string()
    .optional()
    .describe(`Whole number ${MIN_SHOWN_RANGE.min}–${MIN_SHOWN_RANGE.max}; default 10.`),
  min_age_days: z
    .string()
    .optional()
    .describe(`Whole days ${MIN_AGE_DAYS_RANGE.min}–${MIN_AGE_DAYS_RANGE.max}; default 30.`),
});
