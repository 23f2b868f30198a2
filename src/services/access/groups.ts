/**
 * Groups of the team server's users (seed 004, team server): a grant to a group applies to
 * every member.
 */

import { LoreError } from "../../core/errors/lore-error.js";
import { validateAccountName } from "../../core/repos/repo-name.js";
import type { GroupRecord, ServerStore } from "../../ports/server-store.js";
import { requireUser } from "./users.js";

/**
 * Adds a group.
 *
 * @throws LoreError `invalid_input` for a bad name (as user names); `group_exists`.
 */
export async function addGroup(
  store: ServerStore,
  request: { name: string; now: number },
): Promise<GroupRecord> {
  return store.addGroup({
    name: validateAccountName(request.name, "group"),
    createdAt: request.now,
  });
}

/**
 * Removes a group with its memberships and grants.
 *
 * @throws LoreError `group_not_found`.
 */
export async function removeGroup(store: ServerStore, name: string): Promise<void> {
  if (!(await store.removeGroup(name))) throw new LoreError("group_not_found", { group: name });
}

/**
 * The group of this name.
 *
 * @throws LoreError `group_not_found`.
 */
export async function requireGroup(store: ServerStore, name: string): Promise<GroupRecord> {
  const group = await store.getGroup(name);
  if (group === undefined) throw new LoreError("group_not_found", { group: name });
  return group;
}

/** A group with its members' names (in name order). */
export interface ListedGroup extends GroupRecord {
  members: string[];
}

/** Every group with its members, in name order. */
export async function listGroups(store: ServerStore): Promise<ListedGroup[]> {
  const out: ListedGroup[] = [];
  for (const group of await store.listGroups()) {
    out.push({ ...group, members: (await store.listMembers(group.id)).map((u) => u.name) });
  }
  return out;
}

/**
 * Makes a user a member of a group (already one: nothing changes).
 *
 * @throws LoreError `group_not_found`, `user_not_found`.
 */
export async function addMember(
  store: ServerStore,
  groupName: string,
  userName: string,
): Promise<void> {
  const group = await requireGroup(store, groupName);
  const user = await requireUser(store, userName);
  await store.addMember(group.id, user.id);
}

/**
 * Takes a user out of a group.
 *
 * @returns false when they were not a member.
 * @throws LoreError `group_not_found`, `user_not_found`.
 */
export async function removeMember(
  store: ServerStore,
  groupName: string,
  userName: string,
): Promise<boolean> {
  const group = await requireGroup(store, groupName);
  const user = await requireUser(store, userName);
  return store.removeMember(group.id, user.id);
}
