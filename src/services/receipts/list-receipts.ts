/**
 * Listing load receipts (README "Load receipts"): `lore receipts` and the local
 * `knowledge_receipts` from the index; the team server's `GET /api/v1/receipts`, `GET
 * /api/v1/repos/{owner}/{name}/knowledge/receipts` and `/mcp` `knowledge_receipts` from its
 * `IndexStore` (SQLite or PostgreSQL).
 */
import {
  checkReceiptLimit,
  decodeReceiptCursor,
  encodeReceiptCursor,
  parseSince,
  type ReceiptPage,
  type ReceiptQuery,
  type ReceiptRecord,
  receiptView,
} from "../../core/receipts/receipt.js";
import type { EntryIndex } from "../../index/entry-index.js";
import type { ReceiptStore } from "../../ports/index-store.js";

/** What a caller asks for (the tool's and the routes' arguments). */
export interface ReceiptsArgs {
  /** Only this agent session's receipts. */
  session?: string;
  /** Only receipts at or after: ISO 8601 or ms since the epoch (a number or its digits). */
  since?: string | number;
  /** Receipts per page, 1–100. Default 20. */
  limit?: number;
  /** `next_cursor` of the previous page. */
  cursor?: string;
}

/** Whose receipts and which hits (the rights filter, set by the caller's edge). */
export interface ReceiptScope {
  /** Only this user's receipts; absent = every user's (a repository's writers). */
  user?: string;
  /**
   * Only these repositories' hits. `mode: "hits"` lists every receipt of `user` with just
   * those hits (the caller's own, on the team server); `mode: "receipts"` lists only the
   * receipts with such a hit (a repository's receipts). Absent = every hit (local).
   */
  repos?: { names: readonly string[]; mode: "hits" | "receipts" };
}

/**
 * One page of receipts, newest first, from the local index (`lore receipts`, local
 * `knowledge_receipts`).
 *
 * @param index - the index.
 * @param scope - see {@link ReceiptScope}; a filtered view hides `offset`, `total` and the
 *   ranks of the hits left out (`core/receipts/receipt.ts` `ReceiptView`).
 * @param args - see {@link ReceiptsArgs}.
 * @returns `{items, next_cursor}`.
 * @throws LoreError `invalid_input` (a bad `since`), `invalid_limit`, `invalid_cursor`.
 */
export function listReceipts(
  index: EntryIndex,
  scope: ReceiptScope,
  args: ReceiptsArgs = {},
): ReceiptPage {
  const query = receiptQuery(scope, args);
  return receiptPage(index.receipts.list(query), query.limit - 1, scope);
}

/**
 * One page of receipts, newest first, from the `IndexStore` port's receipts (the team
 * server: its SQLite index, or PostgreSQL shared by every server on it). The same page as
 * {@link listReceipts} for the same rows.
 *
 * @param receipts - the store's receipts.
 * @param scope - see {@link ReceiptScope}.
 * @param args - see {@link ReceiptsArgs}.
 * @returns `{items, next_cursor}`.
 * @throws LoreError as {@link listReceipts}; the store's errors (`database_unavailable`).
 */
export async function listStoredReceipts(
  receipts: ReceiptStore,
  scope: ReceiptScope,
  args: ReceiptsArgs = {},
): Promise<ReceiptPage> {
  const query = receiptQuery(scope, args);
  return receiptPage(await receipts.list(query), query.limit - 1, scope);
}

/** The store's query of one page: one receipt more than the page, to tell if more follow. */
function receiptQuery(scope: ReceiptScope, args: ReceiptsArgs): ReceiptQuery {
  const limit = checkReceiptLimit(args.limit);
  const before = decodeReceiptCursor(args.cursor);
  const since =
    args.since === undefined
      ? undefined
      : typeof args.since === "number"
        ? parseSince(String(args.since))
        : parseSince(args.since);
  return {
    ...(scope.user === undefined ? {} : { user: scope.user }),
    ...(scope.repos === undefined
      ? {}
      : scope.repos.mode === "hits"
        ? { hitRepos: scope.repos.names }
        : { repos: scope.repos.names }),
    ...(args.session === undefined ? {} : { session: args.session }),
    ...(since === undefined ? {} : { since }),
    ...(before === undefined ? {} : { before }),
    limit: limit + 1,
  };
}

/** The page of `limit` receipts out of `rows` (at most one more: then a cursor follows). */
function receiptPage(rows: ReceiptRecord[], limit: number, scope: ReceiptScope): ReceiptPage {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => receiptView(row, scope.repos !== undefined)),
    next_cursor: rows.length > limit && last !== undefined ? encodeReceiptCursor(last.id) : null,
  };
}

/**
 * Drops the receipts older than the index's `keepDays` (`[receipts] keep_days`) before `now`.
 * Writes also prune, at most once an hour per process (`index/receipt-rows.ts`).
 *
 * @param index - the index.
 * @param now - the current time, ms since the epoch. Default: now.
 * @returns the receipts dropped.
 */
export function pruneReceipts(index: EntryIndex, now: number = Date.now()): number {
  return index.receipts.prune(now);
}
