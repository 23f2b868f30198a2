/**
 * What the team server's draft and limit routes ask of Lore (seed 004 "Интерфейс": the
 * draft endpoints and `GET·PUT·DELETE /admin/knowledge/limits/{users|groups}/{id}`): the
 * part of the {@link ServerApi} they call, each method rights-checked.
 */
import type { Principal } from "../core/access/rights.js";
import type { DeliverAnswer, DeliverInput, DraftInput, DraftView } from "../core/drafts/draft.js";

/** One page of `GET …/knowledge/drafts`. */
export interface DraftPage {
  items: DraftView[];
  /** Pass as `after` for the next page; `null` on the last one. */
  next_cursor: string | null;
}

/** The drafts of hosted repositories, as the caller may see and change them. */
export interface DraftsApi {
  /**
   * Every draft of the repository (not only the caller's), with its body, oldest first.
   * @param page - `perPage` (1–100, default 50), `after` (a `next_cursor`), `branch` (only
   *   that branch's drafts).
   * @throws LoreError `repo_not_found` (missing, or the caller cannot read it),
   *   `forbidden` (no `knowledge:read`), `invalid_limit`, `invalid_cursor`.
   */
  list(
    principal: Principal,
    fullName: string,
    page: { perPage?: number; after?: string; branch?: string },
  ): Promise<DraftPage>;
  /**
   * Writes a draft for the caller (write access and `knowledge:write`).
   * @throws LoreError `repo_not_found`, `forbidden`, `invalid_entry` (data.diagnostics),
   *   `draft_too_large` (data: size, limit), `draft_limit_reached`, `draft_id_taken`,
   *   `invalid_input`.
   */
  write(principal: Principal, fullName: string, input: DraftInput): Promise<DraftView>;
  /**
   * Removes a draft: its author, or a writer of the repository.
   * @throws LoreError `repo_not_found`, `draft_not_found`, `forbidden`.
   */
  discard(principal: Principal, fullName: string, id: string): Promise<void>;
  /**
   * Delivers the drafts of one branch into the bare repository (write access), obeying
   * branch protection like a push.
   * @throws LoreError `repo_not_found`, `forbidden`, `branch_protected`, `branch_not_found`,
   *   `branch_exists`, `invalid_input`.
   */
  deliver(principal: Principal, fullName: string, input: DeliverInput): Promise<DeliverAnswer>;
}

/** Whose draft limit: a user or a group, by name (the path's `{users|groups}/{id}`). */
export interface LimitSubject {
  kind: "user" | "group";
  name: string;
}

/** A draft limit as the limits endpoints answer it. */
export interface LimitView {
  kind: "user" | "group";
  name: string;
  /** Drafts one owner may hold over all repositories. */
  limit: number;
}

/** The draft limits per user or group (site admins only). */
export interface LimitsApi {
  /**
   * @throws LoreError `forbidden` (not a site admin), `user_not_found`, `group_not_found`,
   *   `limit_not_found` (none set: the default applies).
   */
  get(principal: Principal, subject: LimitSubject): Promise<LimitView>;
  /**
   * Sets or replaces the limit: the Max edition only (seed 004 editions).
   * @throws LoreError `license_required` (HTTP 402, below Max; before any other check), then
   *   as {@link LimitsApi.get} but `limit_not_found`.
   */
  set(principal: Principal, subject: LimitSubject, limit: number): Promise<LimitView>;
  /** Removes it (the default applies again). @throws LoreError as {@link LimitsApi.get}. */
  remove(principal: Principal, subject: LimitSubject): Promise<void>;
}
