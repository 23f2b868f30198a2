/**
 * Users of the team server (seed 004, team server: users, groups, tokens).
 */

import { LoreError } from "../../core/errors/lore-error.js";
import { validateAccountName } from "../../core/repos/repo-name.js";
import type { ServerStore, UserRecord } from "../../ports/server-store.js";

/**
 * Adds a user.
 *
 * @param request - the name (validated: 1–100 of `[a-z0-9._-]`, not starting with `-`
 *   or `.`), whether they administer the server, and `now` (ms).
 * @throws LoreError `invalid_input` for a bad name; `user_exists`.
 */
export async function addUser(
  store: ServerStore,
  request: { name: string; siteAdmin?: boolean; now: number },
): Promise<UserRecord> {
  return store.addUser({
    name: validateAccountName(request.name, "user"),
    siteAdmin: request.siteAdmin ?? false,
    createdAt: request.now,
  });
}

/**
 * Removes a user with their tokens, keys, grants and memberships. The last site admin
 * stays: without one nobody could administer the server over the API again (a restart does
 * not make a new one while other users exist).
 *
 * @throws LoreError `user_not_found`; `last_admin` for the only site admin.
 */
export async function removeUser(store: ServerStore, name: string): Promise<void> {
  const user = await store.getUser(name);
  if (user === undefined) throw new LoreError("user_not_found", { user: name });
  if (user.siteAdmin) {
    const admins = (await store.listUsers()).filter((other) => other.siteAdmin);
    if (admins.length <= 1) throw new LoreError("last_admin", { user: name });
  }
  if (!(await store.removeUser(name))) throw new LoreError("user_not_found", { user: name });
}

/**
 * The user of this name.
 *
 * @throws LoreError `user_not_found`.
 */
export async function requireUser(store: ServerStore, name: string): Promise<UserRecord> {
  const user = await store.getUser(name);
  if (user === undefined) throw new LoreError("user_not_found", { user: name });
  return user;
}
