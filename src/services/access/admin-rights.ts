/**
 * Who may administer the team server over its API (seed 004, team server: scopes
 * `knowledge:read`, `knowledge:write`, `repo:read`, `repo:write` and `admin`): a site admin
 * (`lore user add NAME --admin`; the owner a first start creates) calling with a token that
 * carries the `admin` scope. Both are needed — a site admin's everyday token without
 * `admin` cannot administer, and neither can any token of another user.
 */
import type { Principal } from "../../core/access/rights.js";
import { LoreError } from "../../core/errors/lore-error.js";

/**
 * Checks that the caller may use `/api/v1/admin/…`. Decided from the principal alone,
 * before any name in the request is looked at, so a refusal tells nothing about the
 * server's users, groups or repositories.
 *
 * @param principal - the caller.
 * @throws LoreError `forbidden` (HTTP 403) naming what is missing: `data.missing` is
 *   `site_admin` (the user is not a site admin) or `scope admin` (the token lacks it).
 */
export function requireServerAdmin(principal: Principal): void {
  if (!principal.siteAdmin) {
    throw new LoreError(
      "forbidden",
      { missing: "site admin rights" },
      {
        data: { missing: "site_admin" },
        text: {
          en: "not allowed: this call needs site admin rights (lore user add NAME --admin)",
          ru: "нет прав: для этого вызова нужны права администратора сервера (lore user add ИМЯ --admin)",
        },
      },
    );
  }
  if (!principal.scopes.includes("admin")) {
    throw new LoreError(
      "forbidden",
      { missing: "scope admin" },
      {
        data: { missing: "scope admin" },
        text: {
          en: "not allowed: this call needs scope admin (lore token create NAME --scopes admin)",
          ru: "нет прав: для этого вызова нужно право admin у токена (lore token create ИМЯ --scopes admin)",
        },
      },
    );
  }
}
