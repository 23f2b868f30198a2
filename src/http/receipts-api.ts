/**
 * What the team server's receipts routes ask of Lore (README "Load receipts"): `GET
 * /api/v1/receipts` and `GET /api/v1/repos/{owner}/{name}/knowledge/receipts`, and the
 * `/mcp` `knowledge_receipts` tool. Every answer is filtered by the caller's rights per
 * repository; a filtered receipt hides its `offset` and `total` and renumbers its hits
 * (`core/receipts/receipt.ts`), so nothing of a repository the caller cannot read leaks,
 * not even a count.
 */
import type { Principal } from "../core/access/rights.js";
import type { ReceiptPage } from "../core/receipts/receipt.js";
import type { ReceiptsArgs } from "../services/receipts/list-receipts.js";

/** The load receipts of the team server. */
export interface ReceiptsApi {
  /**
   * The caller's own receipts, newest first, with only the hits of repositories they can
   * read now (a site admin's token with `knowledge:read`: every hit, unfiltered).
   * @throws LoreError `invalid_input` (a bad `since`), `invalid_limit`, `invalid_cursor`.
   */
  own(principal: Principal, args: ReceiptsArgs): Promise<ReceiptPage>;
  /**
   * Every user's receipts that surfaced an entry of one repository, with only its hits;
   * for the repository's writers and admins.
   * @throws LoreError `repo_not_found` (missing, or hidden from the caller), `forbidden`
   *   (a reader, or a token without `knowledge:write`), and as {@link own}.
   */
  ofRepo(principal: Principal, fullName: string, args: ReceiptsArgs): Promise<ReceiptPage>;
}
