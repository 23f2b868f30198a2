/**
 * Editions (seed 004 "Интерфейс", last paragraphs: «Разделение редакций выражено АДРЕСАМИ»):
 * Community (everything but the paid addresses), Pro (`stats/team`, `stats/dead`), Max
 * (`PUT` of the draft limits). A paid call is served whole or refused whole with
 * `license_required`; the check lives in the services, so REST, MCP and the CLI refuse alike.
 * Pure.
 */
import { LoreError } from "../errors/lore-error.js";

/** The editions, lowest first; each holds everything of those before it. */
export const EDITIONS = ["community", "pro", "max"] as const;

/** One edition. */
export type Edition = (typeof EDITIONS)[number];

/**
 * The edition a server (or the local CLI) runs and why, as `GET /healthz` reports it under
 * `license` (`main/load-licence.ts` makes it from `[server] license`).
 */
export interface LicenceState {
  edition: Edition;
  /** Whom the licence names; absent without a licence. */
  licensee?: string;
  /** When the licence ends (ISO 8601 date); absent = never, or no licence. */
  expires?: string;
  /** The licence has expired: `edition` is `community` again. */
  expired?: true;
  /** The licence is signed by a key of `LORE_LICENSE_PUBLIC_KEY`, not by a built-in one. */
  test?: true;
}

/** A paid feature: what it is called in a refusal and the lowest edition that has it. */
export interface PaidFeature {
  /** Stable name, e.g. `stats_team`. */
  name: string;
  edition: Exclude<Edition, "community">;
  en: string;
  /** The English verb agreeing with `en` in a refusal: `need` for a plural name (“the team's stats need…”). */
  enVerb: "need" | "needs";
  ru: string;
  /** The address (method and OpenAPI path) that carries it. */
  method: "GET" | "PUT";
  path: string;
}

/** Every paid address (seed 004). Everything else is Community. */
export const PAID_FEATURES = {
  stats_team: {
    name: "stats_team",
    edition: "pro",
    en: "the team's stats",
    enVerb: "need",
    ru: "сведение по команде",
    method: "GET",
    path: "/api/v1/repos/{owner}/{name}/knowledge/stats/team",
  },
  stats_dead: {
    name: "stats_dead",
    edition: "pro",
    en: "the dead-memory report",
    enVerb: "needs",
    ru: "разбор мёртвой памяти",
    method: "GET",
    path: "/api/v1/repos/{owner}/{name}/knowledge/stats/dead",
  },
  stats_daily: {
    name: "stats_daily",
    edition: "pro",
    en: "the daily usage report",
    enVerb: "needs",
    ru: "использование по дням",
    method: "GET",
    path: "/api/v1/repos/{owner}/{name}/knowledge/stats/daily",
  },
  set_draft_limit: {
    name: "set_draft_limit",
    edition: "max",
    en: "setting a draft limit",
    enVerb: "needs",
    ru: "заведение и изменение предела черновиков",
    method: "PUT",
    path: "/api/v1/admin/knowledge/limits/{kind}/{id}",
  },
} as const satisfies Record<string, PaidFeature>;

/** True when `edition` holds everything of `needed`. */
export function editionAtLeast(edition: Edition, needed: Edition): boolean {
  return EDITIONS.indexOf(edition) >= EDITIONS.indexOf(needed);
}

/**
 * Refuses a paid feature the edition lacks.
 *
 * @param edition - the server's edition (from its licence; none = `community`).
 * @param feature - the paid feature asked for.
 * @throws LoreError `license_required` (HTTP 402) with data `{feature, edition,
 *   edition_needed}`.
 */
export function requireEdition(edition: Edition, feature: PaidFeature): void {
  if (editionAtLeast(edition, feature.edition)) return;
  throw new LoreError(
    "license_required",
    {
      feature: feature.en,
      feature_ru: feature.ru,
      needs: feature.enVerb,
      edition_needed: feature.edition,
      edition,
    },
    { data: { feature: feature.name, edition, edition_needed: feature.edition } },
  );
}
