/**
 * How the notes of a knowledge root are named in the index (knowledge roots, recall across roots):
 * under the repository name `root:<id>` (id in lower case), so a recall hit names its root
 * without a schema change. Pure.
 */

const PREFIX = "root:";

/**
 * The index repository name of a root's notes.
 *
 * @param rootId - the root's id (any case).
 * @returns `root:<id in lower case>`.
 */
export function rootRepoName(rootId: string): string {
  return `${PREFIX}${rootId.toLowerCase()}`;
}

/**
 * The root id of an index repository name, when it names a root's notes.
 *
 * @param repo - a stored repository name.
 * @returns the id, or undefined for an ordinary repository.
 */
export function rootOfRepo(repo: string): string | undefined {
  return repo.startsWith(PREFIX) ? repo.slice(PREFIX.length) : undefined;
}
