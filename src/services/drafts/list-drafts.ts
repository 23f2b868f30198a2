import { DRAFTS_PER_PAGE, type DraftRecord } from "../../core/drafts/draft.js";
import { isUuidV7 } from "../../core/entry/uuid7.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { DraftStore } from "../../ports/draft-store.js";

/** A page of drafts: `next_cursor` is `null` on the last page. */
export interface DraftPage {
  items: DraftRecord[];
  next_cursor: string | null;
}

/**
 * Lists the drafts of some repositories (seed 004 "Интерфейс": `GET …/knowledge/drafts`):
 * every draft of them with its whole text, whoever wrote it, by id (UUIDv7: oldest first).
 *
 * @param drafts - the drafts (`sqliteDraftStore(index)`, or the team server's store).
 * @param args - `repos`: the repositories' index names the caller may read (the rights
 *   filter); `branch`: only its drafts; `perPage`: 1 to {@link DRAFTS_PER_PAGE}.max,
 *   default {@link DRAFTS_PER_PAGE}.default; `after`: the `next_cursor` of the page before
 *   (a draft id).
 * @returns the page.
 * @throws LoreError `invalid_limit` for a `perPage` that is not a whole number from 1 to
 *   100; `invalid_cursor` for an `after` that is not a draft id (a UUIDv7).
 */
export async function listDrafts(
  drafts: DraftStore,
  args: { repos: string[]; branch?: string; perPage?: number; after?: string },
): Promise<DraftPage> {
  const perPage = args.perPage ?? DRAFTS_PER_PAGE.default;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > DRAFTS_PER_PAGE.max) {
    throw new LoreError("invalid_limit", { max: DRAFTS_PER_PAGE.max });
  }
  if (args.after !== undefined && !isUuidV7(args.after)) throw new LoreError("invalid_cursor");
  const options = {
    limit: perPage + 1,
    ...(args.branch === undefined ? {} : { branch: args.branch }),
  };
  const rows = await drafts.list(args.repos, {
    ...options,
    ...(args.after === undefined ? {} : { after: args.after.toLowerCase() }),
  });
  const items = rows.slice(0, perPage);
  const more = rows.length > perPage;
  return { items, next_cursor: more ? (items.at(-1)?.id ?? null) : null };
}
