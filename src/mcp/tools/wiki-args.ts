import { z } from "zod";
import { WIKI_PAGE_TYPES } from "../../core/wiki/wiki-index.js";
import { coded } from "./coded-error.js";

/**
 * The input schema of a wiki page slug shared by the wiki and federation tools
 * (seed 001, `slug`): a non-empty string of at most 512 characters, refused with
 * `invalid_input`. Safety (`..`, absolute) is checked by the services (`invalid_slug`).
 *
 * @param description - what the slug is, for the model.
 */
export function wikiSlugArg(description: string) {
  return z
    .string(coded("invalid_input", "`slug` must be a string"))
    .min(1, coded("invalid_input", "`slug` must not be empty"))
    .max(512, coded("invalid_input", "`slug` is at most 512 characters"))
    .describe(description);
}

/**
 * The input schema of a repository name argument (`project`, `target_project`): a
 * non-empty string of at most 200 characters, refused with `invalid_input`.
 *
 * @param field - the argument's name as the tool spells it.
 * @param description - what the repository is for, for the model.
 */
export function projectNameArg(field: string, description: string) {
  return z
    .string(coded("invalid_input", `\`${field}\` must be a repository name`))
    .min(1, coded("invalid_input", `\`${field}\` must not be empty`))
    .max(200, coded("invalid_input", `\`${field}\` is at most 200 characters`))
    .describe(description);
}

/** One wiki page type (`entities` … `raw`, seed 001 `types`), refused with `invalid_input`. */
export const wikiTypeEnum = z.enum(
  WIKI_PAGE_TYPES,
  coded("invalid_input", `each type must be one of ${WIKI_PAGE_TYPES.join(", ")}`),
);
