/**
 * How a request refused by its route's zod schema becomes a refusal (seed 004, "Строго на
 * запись, терпимо на чтение" and "Происхождение запроса ставит сервер"): a field the schema
 * does not know is `unknown_field` naming it — so a merge-request body that carries
 * `origin` is refused, never silently dropped — and any other issue is `invalid_input`
 * naming the field. The app's `defaultHook`; the error hook sends the refusal.
 */
import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { LoreError } from "../core/errors/lore-error.js";

/**
 * The refusal for a zod error of one request part.
 *
 * @param error - zod's refusal.
 * @param target - `json`, `query`, `param` …, for the message.
 */
export function validationRefusal(error: z.ZodError, target: string): LoreError {
  const unknown = error.issues.find((issue) => issue.code === "unrecognized_keys");
  if (unknown !== undefined && unknown.code === "unrecognized_keys") {
    const field = [...unknown.path.map(String), unknown.keys[0] ?? ""].join(".");
    const hint =
      field === "origin" ? "; the server sets a merge request's origin, a client cannot" : "";
    const hintRu =
      field === "origin" ? "; происхождение запроса ставит сервер, клиент не может" : "";
    return new LoreError(
      "unknown_field",
      { field, hint, hint_ru: hintRu },
      { data: { field, fields: unknown.keys } },
    );
  }
  const issue = error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? target : issue.path.join(".");
  const reason = `${where}: ${issue?.message ?? "refused"}`;
  return new LoreError("invalid_input", { reason, reason_ru: reason }, { data: { field: where } });
}

/**
 * The `defaultHook` of the application: throws the refusal of a failed validation (the
 * error hook answers it); does nothing on success.
 *
 * @throws LoreError `unknown_field`, `invalid_input`.
 */
export function validationHook(
  result: { success: true } | { success: false; error: z.ZodError; target: string },
  _c: Context,
): undefined {
  if (!result.success) throw validationRefusal(result.error, result.target);
  return undefined;
}
