/**
 * Rights on the team server (seed 004, "Интерфейс": «Права — knowledge:read и
 * knowledge:write; они же выводятся из уровня доступа к репозиторию … Токен нужен всегда, в
 * том числе на публичном репозитории»). Pure: the decision of what a caller may do with one
 * repository, from the token's scopes and the user's access level there.
 */

/** Token scopes: the seed's two knowledge scopes, git's two, and server administration. */
export const SCOPES = [
  "knowledge:read",
  "knowledge:write",
  "repo:read",
  "repo:write",
  "admin",
] as const;

/** One token scope from {@link SCOPES}. */
export type Scope = (typeof SCOPES)[number];

/** Access levels per repository, lowest first: `write` includes `read`, `admin` both. */
export const ACCESS_LEVELS = ["read", "write", "admin"] as const;

/** One access level from {@link ACCESS_LEVELS}. */
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** What a call needs on one repository: read or write its knowledge, fetch or push its git. */
export type Need = "knowledge:read" | "knowledge:write" | "repo:read" | "repo:write";

/**
 * Who is calling: the token's user and what the token carries. `siteAdmin` is a user who
 * administers the server (the first user `lore serve` creates for the OS user is one);
 * `scopes` are the token's, a token may carry fewer than the user's level allows.
 */
export interface Principal {
  userId: number;
  user: string;
  siteAdmin: boolean;
  scopes: readonly Scope[];
  /** The token's id (for logs and `lore token list`); never the secret. */
  tokenId: number;
}

/** True when `level` is at least `min`. */
export function levelAtLeast(level: AccessLevel, min: AccessLevel): boolean {
  return ACCESS_LEVELS.indexOf(level) >= ACCESS_LEVELS.indexOf(min);
}

/**
 * The highest of several levels (a user's own grant and each of their groups' grants), or
 * `undefined` when there is none.
 */
export function highestLevel(levels: readonly AccessLevel[]): AccessLevel | undefined {
  let best: AccessLevel | undefined;
  for (const level of levels) if (best === undefined || levelAtLeast(level, best)) best = level;
  return best;
}

/** The level a need asks for: a read needs `read`, a write needs `write`. */
export function levelFor(need: Need): AccessLevel {
  return need.endsWith(":write") ? "write" : "read";
}

/**
 * The outcome of one rights check on one repository:
 * - `allowed`;
 * - `hidden`: the caller may not even read the repository — answer as for a missing one
 *   (404 `repo_not_found`), so nothing reveals that it exists;
 * - `forbidden`: the caller can read the repository but this call needs more;
 *   `missing` names what (a scope, or a level such as `write access to acme/app`).
 */
export type Decision =
  | { kind: "allowed" }
  | { kind: "hidden" }
  | { kind: "forbidden"; missing: string };

/**
 * Decides one call on one repository.
 *
 * @param principal - the caller.
 * @param need - what the call does.
 * @param level - the caller's effective level on the repository (own and groups' grants;
 *   `read` for anyone on a public repository), `undefined` for none. A site admin counts as
 *   `admin` everywhere.
 * @param repo - `owner/name`, for the message.
 */
export function decide(
  principal: Principal,
  need: Need,
  level: AccessLevel | undefined,
  repo: string,
): Decision {
  const effective: AccessLevel | undefined = principal.siteAdmin ? "admin" : level;
  if (effective === undefined) return { kind: "hidden" };
  // The user can read the repository, so saying what the token lacks reveals nothing.
  if (!principal.scopes.includes(need)) return { kind: "forbidden", missing: `scope ${need}` };
  const min = levelFor(need);
  if (!levelAtLeast(effective, min)) {
    return { kind: "forbidden", missing: `${min} access to ${repo}` };
  }
  return { kind: "allowed" };
}
