/**
 * The web view's calls to `lore serve`: the session (`/web/api/session`) and the REST API
 * (`/api/v1`, authenticated by the `lore_session` cookie as its token would be). Every write
 * sends `X-Lore-CSRF` with the session's csrf value; the token itself is sent once, to make
 * the session, and never stored in the page. Refusals become {@link ApiError} with the
 * server's stable code and its message in the page's language (`Accept-Language`).
 */
import { lang } from "./i18n.js";
import { signal } from "./signal.js";

/** The signed-in session as `GET|POST /web/api/session` answer it. */
export interface Session {
  user: string;
  site_admin: boolean;
  csrf: string;
}

/** A refusal of the server: HTTP status, stable `code`, translated `message`, `data`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The current session; `null` when signed out, `undefined` before the first check. */
export const session = signal<Session | null | undefined>(undefined);

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "accept-language": lang.get(),
  };
  const current = session.get();
  if (method !== "GET" && current) headers["x-lore-csrf"] = current.csrf;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string; data?: unknown } })
      ?.error;
    const code = error?.code ?? `http_${response.status}`;
    if (response.status === 401 && !path.startsWith("/web/api/session")) session.set(null);
    throw new ApiError(
      response.status,
      code,
      error?.message ?? `${response.status} ${response.statusText}`,
      error?.data,
    );
  }
  return parsed as T;
}

/** GET of a JSON answer. */
export function getJson<T>(path: string): Promise<T> {
  return call<T>("GET", path);
}

/** GET of a text answer (a raw file). */
export async function getText(path: string): Promise<string> {
  const response = await fetch(path, {
    credentials: "same-origin",
    headers: { "accept-language": lang.get() },
  });
  if (!response.ok) {
    let error: { code?: string; message?: string } | undefined;
    try {
      error = ((await response.json()) as { error?: typeof error }).error;
    } catch {
      // Not JSON: the status says it.
    }
    throw new ApiError(
      response.status,
      error?.code ?? `http_${response.status}`,
      error?.message ?? "",
    );
  }
  return response.text();
}

/** POST with a JSON body (and the csrf header). */
export function postJson<T>(path: string, body?: unknown): Promise<T> {
  return call<T>("POST", path, body ?? {});
}

/** DELETE (with the csrf header). */
export function del(path: string): Promise<void> {
  return call<void>("DELETE", path);
}

/** Checks the cookie's session; sets {@link session}. */
export async function checkSession(): Promise<void> {
  try {
    session.set(await call<Session>("GET", "/web/api/session"));
  } catch {
    session.set(null);
  }
}

/**
 * Exchanges a token for a session cookie.
 *
 * @throws ApiError `unauthenticated`, `token_required`, …
 */
export async function signIn(token: string): Promise<void> {
  session.set(await call<Session>("POST", "/web/api/session", { token }));
}

/** Ends the session (server-side too). */
export async function signOut(): Promise<void> {
  try {
    await call<void>("DELETE", "/web/api/session");
  } finally {
    session.set(null);
  }
}

/** `/api/v1/repos/{owner}/{name}` with each part encoded. */
export function repoPath(owner: string, name: string): string {
  return `/api/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
}

/** A repository as `GET /api/v1/repos` lists it. */
export interface Repo {
  full_name: string;
  public: boolean;
  default_branch: string;
  permission: "read" | "write" | "admin";
}

/** A contract clause. */
export interface Clause {
  mechanism: string;
  params?: Record<string, unknown>;
}

/** A diagnostic of the last parse, as the listing gives it. */
export interface Diagnostic {
  code: string;
  severity: "error" | "warning" | "info";
  line?: number;
  message: string;
  message_ru: string;
}

/** A record of `GET …/knowledge`. */
export interface KnowledgeItem {
  id: string;
  path: string;
  blob_sha: string;
  origin: string;
  summary: string;
  links: string[];
  contract: Clause[];
  reachable: boolean;
  unmet_mechanisms: string[];
  diagnostics?: Diagnostic[];
  draft?: true;
  branch?: string;
}

/** `GET …/knowledge`. */
export interface KnowledgeList {
  items: KnowledgeItem[];
  partial?: string;
}

/** A stats row (`stats/me|team|dead`). */
export interface StatsRow {
  id: string;
  path: string;
  summary: string;
  shown: number;
  read: number;
  last_shown_at: string | null;
  last_read_at: string | null;
  draft?: boolean;
  branch?: string;
  ailment?: "shown_not_read" | "unreachable" | "never_shown";
  unmet_mechanisms?: string[];
  first_seen_at?: string;
  age_days?: number;
}

/** A draft of `GET …/knowledge/drafts`. */
export interface Draft {
  id: string;
  branch: string;
  author: string;
  created_at: string;
  size: number;
  delivered?: { branch: string; commit: string; at: string; merge_request?: number };
  text: string;
}

/** A merge request. */
export interface Pull {
  number: number;
  title: string;
  body: string;
  source: string;
  target: string;
  state: "open" | "closed" | "merged";
  origin: "human" | "machine";
  author: string;
  created_at: string;
  ended_at?: string;
  merge_commit?: string;
  approvals: { user: string; at: string }[];
  diff_stat?: { files: number; insertions: number; deletions: number };
}

/** `GET …/knowledge/stats/daily`. */
export interface DailyUsage {
  days: { day: string; shown: number; read: number }[];
  id?: string;
}
