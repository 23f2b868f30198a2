import type { HttpBindings } from "@hono/node-server";
import type { Principal } from "../core/access/rights.js";
import type { KnowledgePort } from "../mcp/knowledge-port.js";
import type { AdminPort } from "../ports/admin-port.js";
import type { KnowledgeListingAnswer } from "../services/knowledge/list-knowledge.js";
import type { WebSession } from "../services/web/web-session.js";
import type { DraftsApi, LimitsApi } from "./drafts-api.js";
import type { PullsApi } from "./pulls-api.js";
import type { StatsApi } from "./stats-api.js";
import type { WebSessionsApi } from "./web/web-sessions-api.js";

/** One repository as `GET /api/v1/repos` lists it. */
export interface RepoView {
  /** `owner/name`. */
  full_name: string;
  public: boolean;
  default_branch: string;
  /** The caller's effective level on it (own, groups', `read` for a public one; site admins `admin`). */
  permission: "read" | "write" | "admin";
}

/** Who the caller is, as `GET /api/v1/user` answers it. */
export interface UserView {
  name: string;
  site_admin: boolean;
  /** The scopes of the token used. */
  scopes: string[];
}

/**
 * What the team server's HTTP application asks of Lore (STYLE.md habit 3: a port is the
 * subset its consumer uses). `services/api/server-api.ts` implements it over the server
 * store, the index and the hosted repositories; every method that names a repository
 * checks the caller's rights and answers a repository the caller may not read exactly as
 * a missing one (404 `repo_not_found`).
 */
export interface ServerApi {
  /**
   * The caller of a token secret.
   * @throws LoreError `token_invalid`, `token_expired`.
   */
  authenticate(secret: string): Promise<Principal>;
  /** The caller as `GET /api/v1/user` shows it. */
  user(principal: Principal): Promise<UserView>;
  /** The hosted repositories the caller can read, by full name. */
  repos(principal: Principal): Promise<RepoView[]>;
  /**
   * The index of one repository, whole (capped at 1,000 with `partial: "truncated"`),
   * brought up to its default branch first.
   * @throws LoreError `repo_not_found` (missing or hidden), `forbidden` (the token lacks
   *   `knowledge:read`).
   */
  knowledge(principal: Principal, fullName: string): Promise<KnowledgeListingAnswer>;
  /**
   * A file's bytes at a ref (default: the default branch).
   * @throws LoreError `repo_not_found`, `forbidden`, `invalid_input` (a bad path or ref),
   *   `path_not_found`.
   */
  raw(principal: Principal, fullName: string, path: string, ref?: string): Promise<Uint8Array>;
  /** The MCP tools' port for one caller: recall and open filtered by their rights. */
  mcpPort(principal: Principal): KnowledgePort;
  /** The drafts of hosted repositories (seed 004 "Интерфейс"; `routes/draft-routes.ts`). */
  drafts: DraftsApi;
  /** Draft limits per user or group (`routes/limit-routes.ts`). */
  limits: LimitsApi;
  /**
   * Shown/read counters and the stats reports of hosted repositories (seed 004
   * "Интерфейс"; `routes/stats-routes.ts`, the `/mcp` `knowledge_stats` tool).
   */
  stats: StatsApi;
  /** What `GET /healthz` reports besides `status: "ok"`. */
  health(): Record<string, unknown>;
  /** Merge requests of hosted repositories (`/api/v1/repos/{owner}/{name}/pulls…`). */
  pulls: PullsApi;
  /**
   * The server's administration (`/api/v1/admin/…`, `routes/admin-routes.ts`) for one
   * caller: a site admin whose token carries the `admin` scope.
   * @throws LoreError `forbidden` (`data.missing`: `site_admin` or `scope admin`) for anyone
   *   else, before anything is read.
   */
  admin(principal: Principal): AdminPort;
  /** The web view's sign-in sessions (`http/web/`, the `lore_session` cookie). */
  sessions: WebSessionsApi;
}

/** The Hono environment of the team server's application. */
export interface HttpEnv {
  Bindings: Partial<HttpBindings>;
  Variables: {
    /** The authenticated caller (set by the auth middleware on every route but `/healthz`). */
    principal: Principal;
    /**
     * The web view's session when the request was authenticated by the `lore_session`
     * cookie (not by a token); `undefined` otherwise.
     */
    webSession: WebSession | undefined;
  };
}
