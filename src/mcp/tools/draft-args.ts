/**
 * What the draft tools share (seed 004 "Как знание выходит наружу"): the `repo` and
 * `branch` arguments and the shape of a draft in their answers.
 */
import { z } from "zod";
import { draftViewSchema } from "../../core/drafts/draft-view-schema.js";
import { coded } from "./coded-error.js";

/** `repo` and `branch`, both optional. */
export const draftPlaceSchema = {
  repo: z
    .string(coded("invalid_input", "`repo` must be a string"))
    .max(500, coded("invalid_input", "`repo` must be at most 500 characters"))
    .optional()
    .describe(
      "The repository: `owner/name` on a team server, locally its folder. Default: the current repository (on a team server: `owner/name` of the origin remote).",
    ),
  branch: z
    .string(coded("invalid_input", "`branch` must be a string"))
    .min(1, coded("invalid_input", "`branch` must not be empty"))
    .max(250, coded("invalid_input", "`branch` must be at most 250 characters"))
    .optional()
    .describe("The branch you work on. Default: the branch checked out in the current repository."),
};

/** A draft in a tool's answer (the one schema of `core/drafts/draft-view-schema.ts`). */
export const draftOutput = draftViewSchema;

/** Only the keys that are set (the port takes optional fields absent, not undefined). */
export function defined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
