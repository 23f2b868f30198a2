/**
 * The team server's load receipts (README "Load receipts"), rights first (`services/access/
 * authorize.ts`): see {@link ReceiptsApi}.
 */
import type { Principal } from "../core/access/rights.js";
import type { ReceiptsApi } from "../http/receipts-api.js";
import type { EntryIndex } from "../index/entry-index.js";
import type { ServerStore } from "../ports/server-store.js";
import { authorizeRepo, readableRepos } from "../services/access/authorize.js";
import { listReceipts } from "../services/receipts/list-receipts.js";

/**
 * Builds the receipts calls over the server store (rights) and the index (receipts).
 *
 * @param deps - the store and the index.
 */
export function createReceiptsApi(deps: { store: ServerStore; index: EntryIndex }): ReceiptsApi {
  /** The repositories whose hits the caller may see; `undefined` = all (a site admin reading). */
  const visible = async (principal: Principal): Promise<string[] | undefined> => {
    if (principal.siteAdmin && principal.scopes.includes("knowledge:read")) return undefined;
    if (!principal.scopes.includes("knowledge:read")) return [];
    return (await readableRepos(deps.store, principal)).map((repo) => repo.fullName);
  };
  return {
    async own(principal, args) {
      const names = await visible(principal);
      return listReceipts(
        deps.index,
        {
          user: principal.user,
          ...(names === undefined ? {} : { repos: { names, mode: "hits" as const } }),
        },
        args,
      );
    },
    async ofRepo(principal, fullName, args) {
      const repo = await authorizeRepo(deps.store, principal, fullName, "knowledge:write");
      return listReceipts(
        deps.index,
        { repos: { names: [repo.fullName], mode: "receipts" } },
        args,
      );
    },
  };
}
