/**
 * Reading a token's scopes from a command line or a request (seed 004, "Интерфейс":
 * `knowledge:read`, `knowledge:write`; plus `repo:read`, `repo:write` for git and `admin`).
 * Pure.
 */
import { LoreError } from "../errors/lore-error.js";
import { nearestKey } from "../text/nearest-key.js";
import { SCOPES, type Scope } from "./rights.js";

/**
 * Parses a comma-separated scope list (`knowledge:read,repo:write`); spaces around items
 * are ignored, duplicates kept once, the order is {@link SCOPES}'.
 *
 * @param list - the list as given.
 * @returns the scopes.
 * @throws LoreError `invalid_input` for an empty list or an unknown scope, naming the
 *   nearest known one (`knowlege:read` → `knowledge:read`) and the known ones.
 */
export function parseScopes(list: string): Scope[] {
  const items = list
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  const known = SCOPES.join(", ");
  if (items.length === 0) {
    throw new LoreError("invalid_input", {
      reason: `no scopes given; known scopes: ${known}`,
      reason_ru: `права не указаны; известные: ${known}`,
    });
  }
  const wanted = new Set<Scope>();
  for (const item of items) {
    if (!isScope(item)) {
      const near = nearestKey(item, SCOPES);
      const hint = near === undefined ? "" : `did you mean ${near}? `;
      const hintRu = near === undefined ? "" : `может быть, ${near}? `;
      throw new LoreError("invalid_input", {
        reason: `unknown scope ${JSON.stringify(item)}; ${hint}known scopes: ${known}`,
        reason_ru: `неизвестное право ${JSON.stringify(item)}; ${hintRu}известные: ${known}`,
      });
    }
    wanted.add(item);
  }
  return SCOPES.filter((scope) => wanted.has(scope));
}

/** True when `value` is one of {@link SCOPES}. */
export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
