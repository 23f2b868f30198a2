/**
 * The team server's load receipts (README "Load receipts"), rights first (`services/access/
 * authorize.ts`): see {@link ReceiptsApi}.
 */
import type { Principal } from "../core/access/rights.js";
import type { ReceiptsApi } from "../http/receipts-api.js";
import type { ReceiptStore } from "../ports/index-store.js";
import type { ServerStore } from "../ports/server-store.js";
import { authorizeRepo, readableRepos } from "../services/access/authorize.js";
import { listStoredReceipts } from "../services/receipts/list-receipts.js";

/**
 * Builds the receipts calls over the server store (rights) and the index store's receipts
 * (the server's SQLite index, or PostgreSQL with `[server] database`: every server on it
 * lists every server's receipts).
 *
 * @param deps - the store and the receipts.
 */
export function createReceiptsApi(deps: {
  store: ServerStore;
  receipts: ReceiptStore;
}): ReceiptsApi {
  /** The repositories whose hits the caller may see; `undefined` = all (a site admin reading). */
  const visible = async (principal: Principal): Promise<string[] | undefined> => {
    if (principal.siteAdmin && principal.scopes.includes("knowledge:read")) return undefined;
    if (!principal.scopes.includes("knowledge:read")) return [];
    return (await readableRepos(deps.store, principal)).map((repo) => repo.fullName);
  };
  return {
    async own(principal, args) {
      const names = await visible(principal);
      return listStoredReceipts(
        deps.receipts,
        {
          user: principal.user,
          ...(names === undefined ? {} : { repos: { names, mode: "hits" as const } }),
        },
        args,
      );
    },
    async ofRepo(principal, fullName, args) {
      const repo = await authorizeRepo(deps.store, principal, fullName, "knowledge:write");
      return listStoredReceipts(
        deps.receipts,
        { repos: { names: [repo.fullName], mode: "receipts" } },
        args,
      );
    },
  };
}
