/**
 * What the web view's sign-in routes and the cookie half of the auth middleware ask of Lore
 * (the team server's browser pages, seed 004 "Интерфейс"): open, resume and close a session
 * (`services/web/web-session.ts`), with the server's clock.
 */
import type { OpenedWebSession, WebSession } from "../../services/web/web-session.js";

/** The web view's sessions. */
export interface WebSessionsApi {
  /**
   * Opens a session on a token (validated as a bearer token is).
   * @throws LoreError `token_invalid`, `token_expired`.
   */
  open(token: string): Promise<OpenedWebSession>;
  /**
   * The live session of a cookie's secret.
   * @throws LoreError `session_expired`.
   */
  resume(secret: string): Promise<WebSession>;
  /** Ends a session (sign-out). */
  close(session: Pick<WebSession, "hash">): Promise<void>;
  /** The server's clock, ms since the epoch (the sign-in limit's windows). */
  now(): number;
}
