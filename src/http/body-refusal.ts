/**
 * Strict request bodies of the REST API (seed 004 "Строго на запись, терпимо на чтение"): a
 * body that fails its schema becomes one refusal — an unknown field is `unknown_field`
 * naming the nearest known one, anything else `invalid_input` naming the field.
 */
import type { ZodError } from "zod";
import { LoreError } from "../core/errors/lore-error.js";
import { nearestKey } from "../core/text/nearest-key.js";

/**
 * The refusal of a schema failure.
 *
 * @param error - zod's error.
 * @param known - the fields the body may hold (for the nearest-name hint).
 * @returns `unknown_field` (data: `field`, `nearest?`) for a field not in the schema,
 *   else `invalid_input` (data: `field`).
 */
export function bodyRefusal(error: ZodError, known: readonly string[]): LoreError {
  // An unknown field is named first: it is the likelier mistake (a typo of a known one).
  const issue = error.issues.find((i) => i.code === "unrecognized_keys") ?? error.issues[0];
  if (issue?.code === "unrecognized_keys") {
    const field = String(issue.keys[0] ?? "");
    const nearest = nearestKey(field, known);
    const hint = nearest === undefined ? "" : `; did you mean “${nearest}”?`;
    const hintRu = nearest === undefined ? "" : `; возможно, «${nearest}»?`;
    return new LoreError(
      "unknown_field",
      { field, hint, hint_ru: hintRu },
      { data: { field, ...(nearest === undefined ? {} : { nearest }) } },
    );
  }
  const field = (issue?.path ?? []).join(".");
  const what = issue?.message ?? "bad value";
  return new LoreError(
    "invalid_input",
    {
      reason: field === "" ? what : `${field}: ${what}`,
      reason_ru: field === "" ? what : `${field}: ${what}`,
    },
    { data: { field } },
  );
}

/**
 * A validation hook for `app.openapi(route, handler, hook)`: a failed body, query or path
 * throws {@link bodyRefusal}'s refusal, which the error hook answers in the request's
 * language.
 *
 * @param known - the body's fields.
 * @throws LoreError `unknown_field`, `invalid_input`.
 */
export function strictHook(known: readonly string[]) {
  return (result: { success: boolean; error?: ZodError }): undefined => {
    if (!result.success && result.error !== undefined) throw bodyRefusal(result.error, known);
    return undefined;
  };
}
