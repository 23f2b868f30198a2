/**
 * Recording a load receipt (README "Load receipts"): called once at the end of `recall()`
 * and `recallWithin()`, so every caller — local `lore mcp`, `lore recall`, the agent hooks —
 * leaves one in the index; the team server's `/mcp` builds the same receipt and stores it
 * through its `IndexStore` (`main/server-api.ts`: SQLite or PostgreSQL).
 */
import {
  type NewReceipt,
  RECEIPT_QUERY_MAX,
  type ReceiptHit,
  receiptLabel,
  UNKNOWN_CLIENT,
} from "../../core/receipts/receipt.js";
import type { EntryIndex } from "../../index/entry-index.js";
import { checkLimit, cursorOffset, type HitPage } from "../knowledge/hit-page.js";
import type { RecallInput } from "../knowledge/recall.js";

/**
 * The receipt of what one recall surfaced: who (`input.user`), through which client
 * (`input.client`, default `unknown`), in which session, the query and tool, the page's
 * offset, size and total, and each hit with its revision (the blob sha of its file; a
 * draft's text's) and why it fired. One indexed lookup of the hits' revisions in the index.
 *
 * @param index - the index recalled from.
 * @param input - the recall's input (already validated by the recall).
 * @param answer - the page about to be returned.
 * @returns the receipt to store.
 * @throws the SQLite error of the revisions' lookup.
 */
export function buildReceipt(index: EntryIndex, input: RecallInput, answer: HitPage): NewReceipt {
  const source = (hit: HitPage["hits"][number]) => (hit.draft ? `draft:${hit.repo}` : hit.repo);
  const revisions = index.receipts.revisions(
    answer.hits.map((hit) => [source(hit), hit.path] as const),
  );
  const offset = cursorOffset(input.cursor);
  const hits: ReceiptHit[] = answer.hits.map((hit, i) => ({
    rank: offset + i + 1,
    repo: hit.repo,
    id: hit.id,
    revision: revisions.get(`${source(hit)}\u0000${hit.path}`) ?? "",
    draft: hit.draft === true,
    score: hit.score,
    why: hit.why,
  }));
  const query = input.query?.trim();
  const tool = input.tool?.trim();
  return {
    at: input.now ?? Date.now(),
    user: input.user,
    client: receiptLabel(input.client) ?? UNKNOWN_CLIENT,
    session: receiptLabel(input.session) ?? null,
    query: query === undefined || query === "" ? null : query.slice(0, RECEIPT_QUERY_MAX),
    tool: tool === undefined || tool === "" ? null : tool,
    offset,
    limit: checkLimit(input.limit),
    total: answer.total,
    hits,
  };
}

/**
 * Records what one recall surfaced ({@link buildReceipt}) in the index's receipts. Cheap on
 * the read path: queued (`index/receipt-rows.ts`; written at once in the index's durable
 * mode). Never throws: a recall answers even when its receipt cannot be written (reported
 * once on stderr). Nothing is recorded when `input.receipt` is `false` (the team server
 * records through its `IndexStore`).
 *
 * @param index - the index recalled from.
 * @param input - the recall's input (already validated by the recall).
 * @param answer - the page about to be returned.
 */
export function recordReceipt(index: EntryIndex, input: RecallInput, answer: HitPage): void {
  if (input.receipt === false) return;
  try {
    index.receipts.add(buildReceipt(index, input, answer));
  } catch (error) {
    index.receipts.onError(error);
  }
}
