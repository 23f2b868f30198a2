import { DRAFT_LIMIT_DEFAULT } from "../../core/drafts/draft.js";
import type { ServerStore } from "../../ports/server-store.js";

/**
 * The draft limit of the team server (seed 004, "Пределы": 200 drafts per author by
 * default, raised by an admin per user or group): the user's own limit when one is set,
 * else the largest limit of the groups they belong to, else {@link DRAFT_LIMIT_DEFAULT}.
 * An unknown user name gets the default (the writer's name comes from a checked token).
 *
 * @param store - the server's store (limits, users, memberships).
 * @returns a function giving the limit of one author (a user name), a count of drafts.
 */
export function serverDraftLimit(store: ServerStore): (author: string) => Promise<number> {
  return async (author) => {
    const user = await store.getUser(author);
    if (user === undefined) return DRAFT_LIMIT_DEFAULT;
    const own = await store.getDraftLimit({ kind: "user", id: user.id });
    if (own !== undefined) return own;
    let best: number | undefined;
    for (const group of await store.groupsOf(user.id)) {
      const limit = await store.getDraftLimit({ kind: "group", id: group });
      if (limit !== undefined && (best === undefined || limit > best)) best = limit;
    }
    return best ?? DRAFT_LIMIT_DEFAULT;
  };
}

/** The draft limit of local mode (`lore mcp` with no team server): always the default. */
export async function localDraftLimit(_author: string): Promise<number> {
  return DRAFT_LIMIT_DEFAULT;
}
