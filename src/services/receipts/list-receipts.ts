/**
 * Listing load receipts (README "Load receipts"): `lore receipts`, `knowledge_receipts`,
 * `GET /api/v1/receipts` and `GET /api/v1/repos/{owner}/{name}/knowledge/receipts`.
 */
import {
  checkReceiptLimit,
  decodeReceiptCursor,
  encodeReceiptCursor,
  parseSince,
  type ReceiptPage,
  receiptView,
} from "../../core/receipts/receipt.js";
import type { EntryIndex } from "../../index/entry-index.js";

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
 * One page of receipts, newest first.
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
  const limit = checkReceiptLimit(args.limit);
  const before = decodeReceiptCursor(args.cursor);
  const since =
    args.since === undefined
      ? undefined
      : typeof args.since === "number"
        ? parseSince(String(args.since))
        : parseSince(args.since);
  const rows = index.receipts.list({
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
  });
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
