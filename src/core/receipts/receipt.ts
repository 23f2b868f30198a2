/**
 * Load receipts (README "Load receipts"; seed 004 "Контракт извлечения": a contract pays off
 * only when one can see what it loaded and why): what one recall surfaced, for whom, through
 * which client, and why each hit fired. Pure types and checks; the rows live in the index
 * (`index/receipt-rows.ts`, migration 9) or, on a team server with `[server] database`, in
 * PostgreSQL (the `IndexStore` port's `receipts`: `index/index-store/pg-receipt-store.ts`);
 * the services in `services/receipts/`.
 */
import { LoreError } from "../errors/lore-error.js";
import type { MatchReason } from "../recall/contract-match.js";

/** The client of a recall that names none. */
export const UNKNOWN_CLIENT = "unknown";

/** Longest client name and session id kept, characters (longer ones are cut). */
export const RECEIPT_LABEL_MAX = 200;

/** Longest query text kept on a receipt, characters (recall takes 2,000 at most over MCP). */
export const RECEIPT_QUERY_MAX = 2_000;

/** Default and largest page of receipts listed at once. */
export const DEFAULT_RECEIPT_LIMIT = 20;
export const MAX_RECEIPT_LIMIT = 100;

/** One surfaced hit of a receipt. */
export interface ReceiptHit {
  /** Its place on the whole result, 1-based (a later page's first hit is `offset + 1`). */
  rank: number;
  /** The repository (source) it belongs to; a draft's is its repository's. */
  repo: string;
  /** The entry id. */
  id: string;
  /**
   * The version that was shown: the file's git blob sha (40 hex); for a draft, the git
   * blob sha of the draft's text (a new one with each edit of the draft).
   */
  revision: string;
  /** True for a draft (`revision` is then the draft revision). */
  draft: boolean;
  /** The hit's recall score (`RecallHit.score`). */
  score: number;
  /** Why it fired: the `on_query` word, the `on_tool` name, `text` (full-text rank). */
  why: MatchReason[];
}

/** A receipt as the index stores it (times ms since the epoch). */
export interface ReceiptRecord {
  /**
   * The receipt id shown to callers: 32 random hex digits, unrelated to the order in which
   * receipts were written. A sequence number would leak, through the gaps between one
   * user's receipts, how many recalls the other users made (README "Rights").
   */
  id: string;
  /** The order receipts were written in (the index's row id): listing order only, never shown. */
  seq: number;
  /** When the recall ran, ms since the epoch. */
  at: number;
  /** Who recalled. */
  user: string;
  /** `cli`, `http`, an MCP client's `clientInfo.name`, a hook event (`claude-code:PreToolUse`), `unknown`. */
  client: string;
  /** The agent session (an MCP session id, a hook's `session_id`), `null` when none. */
  session: string | null;
  /** The query text, `null` for a tool-only recall. */
  query: string | null;
  /** The tool name, `null` when none. */
  tool: string | null;
  /** Hits on pages before this one (0 for the first page). */
  offset: number;
  /** The page size asked for (1–50). */
  limit: number;
  /** The candidates the recall counted (`total` of its answer): more than `offset + limit` means some fell below the page. */
  total: number;
  /** The surfaced hits, best first. */
  hits: ReceiptHit[];
}

/** A receipt to store: a {@link ReceiptRecord} without its ids (the index gives them). */
export type NewReceipt = Omit<ReceiptRecord, "id" | "seq">;

/**
 * Filters of a listing of stored receipts (`index/receipt-rows.ts` `list`, the `IndexStore`
 * port's `receipts.list`): newest first, at most `limit`.
 */
export interface ReceiptQuery {
  /** Only this user's receipts. */
  user?: string;
  /** Only receipts with a hit of one of these repositories, and only those hits. */
  repos?: readonly string[];
  /** Only the hits of these repositories (the receipts without one are listed still). */
  hitRepos?: readonly string[];
  /** Only this session's. */
  session?: string;
  /** Only receipts at or after this time, ms since the epoch. */
  since?: number;
  /** Only receipts written before the one with this id (the page cursor). */
  before?: string;
  /** At most this many. */
  limit: number;
}

/**
 * A receipt as the CLI (`--json`), MCP and REST answer it. A view filtered to some
 * repositories (the team server: hits of repositories the caller can read; a repository's
 * receipts) says nothing of the other hits: `offset` and `total` are `null` (they counted
 * hits of every repository) and the ranks are renumbered among the hits shown.
 */
export interface ReceiptView {
  id: string;
  /** ISO 8601, UTC. */
  at: string;
  user: string;
  client: string;
  session: string | null;
  query: string | null;
  tool: string | null;
  /** Hits on earlier pages; `null` in a filtered view. */
  offset: number | null;
  limit: number;
  /** The candidates the recall counted; `null` in a filtered view. */
  total: number | null;
  hits: ReceiptHit[];
}

/** A page of receipts, newest first. */
export interface ReceiptPage {
  items: ReceiptView[];
  /** Pass back as `cursor` for older receipts; `null` on the last page. */
  next_cursor: string | null;
}

/**
 * The view of a stored receipt.
 *
 * @param record - as stored (with a repository filter: only the hits it let through).
 * @param filtered - true when `record.hits` were filtered to some repositories: the view
 *   then hides `offset` and `total` and renumbers the ranks (see {@link ReceiptView}).
 */
export function receiptView(record: ReceiptRecord, filtered = false): ReceiptView {
  return {
    id: record.id,
    at: new Date(record.at).toISOString(),
    user: record.user,
    client: record.client,
    session: record.session,
    query: record.query,
    tool: record.tool,
    offset: filtered ? null : record.offset,
    limit: record.limit,
    total: filtered ? null : record.total,
    hits: filtered ? record.hits.map((hit, i) => ({ ...hit, rank: i + 1 })) : record.hits,
  };
}

/**
 * A client name or session id as kept: trimmed, cut at {@link RECEIPT_LABEL_MAX} characters.
 *
 * @param value - the caller's value.
 * @returns the label; `undefined` for an absent or blank one.
 */
export function receiptLabel(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed.slice(0, RECEIPT_LABEL_MAX);
}

/**
 * Reads a `since` bound: an ISO 8601 time (`2026-12-01`, `2026-12-01T10:00:00Z`) or ms since
 * the epoch (digits).
 *
 * @param value - the caller's text.
 * @returns ms since the epoch.
 * @throws LoreError `invalid_input` when it is neither.
 */
export function parseSince(value: string): number {
  const text = value.trim();
  // Only ISO 8601 dates go to Date.parse: its legacy forms take "-5" or "1 2" for dates.
  const ms = /^\d{1,15}$/.test(text)
    ? Number(text)
    : /^\d{4}-\d{2}-\d{2}/.test(text)
      ? Date.parse(text)
      : Number.NaN;
  if (!Number.isFinite(ms) || ms < 0 || text === "") {
    throw new LoreError("invalid_input", {
      reason: `\`since\` must be an ISO 8601 time or ms since the epoch, not "${value.slice(0, 64)}"`,
      reason_ru: `\`since\` — время ISO 8601 или миллисекунды от эпохи, а не «${value.slice(0, 64)}»`,
    });
  }
  return ms;
}

/**
 * Checks a receipt page size.
 *
 * @param limit - the caller's value; absent = {@link DEFAULT_RECEIPT_LIMIT}.
 * @throws LoreError `invalid_limit` unless a whole number from 1 to {@link MAX_RECEIPT_LIMIT}.
 */
export function checkReceiptLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_RECEIPT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RECEIPT_LIMIT) {
    throw new LoreError("invalid_limit", { max: MAX_RECEIPT_LIMIT });
  }
  return limit;
}

/**
 * The opaque cursor after a receipt: base64url of `r:<id>`.
 *
 * @param id - the last listed receipt's id ({@link ReceiptRecord.id}).
 */
export function encodeReceiptCursor(id: string): string {
  return Buffer.from(`r:${id}`).toString("base64url");
}

/**
 * Reads a receipt cursor back.
 *
 * @param cursor - the caller's cursor; absent = the newest receipts.
 * @returns the id of the receipt to list older ones than, or `undefined` for the first page.
 * @throws LoreError `invalid_cursor` when it is not one of {@link encodeReceiptCursor}.
 */
export function decodeReceiptCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const match = /^r:([0-9a-f]{32})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (match === null) throw new LoreError("invalid_cursor");
  return match[1];
}
