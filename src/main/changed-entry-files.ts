/**
 * Which entry files of a work tree differ from HEAD, for `lore check`'s duplicate-id rule
 * (seed 004, "дубликат идентификатора в пачке"): a file as it is at HEAD held its id
 * before, so it keeps it, and a changed or new file claiming the same id is the newcomer —
 * the rule `lore index` applies with the previously indexed commit.
 */
import { resolve } from "node:path";

/**
 * The absolute paths of the files under the work tree's `.gitriver/knowledge/` whose
 * working or staged copy differs from HEAD (modified, added, untracked), or `undefined`
 * outside a git work tree, in a bare repository, or when git cannot tell (no commit yet):
 * then every file counts as new and byte order decides.
 *
 * @param dir - any folder inside the work tree.
 * @param prefix - the entry folder relative to the top, e.g. `.gitriver/knowledge/`.
 */
export async function changedEntryFiles(
  dir: string,
  prefix: string,
): Promise<Set<string> | undefined> {
  // Loaded only here: `lore check` outside git needs none of the git code.
  const { openGitRepo } = await import("../adapters/git-cli/git-cli-repo.js");
  const repo = await openGitRepo(dir).catch(() => undefined);
  if (repo === undefined || repo.bare) {
    await repo?.close();
    return undefined;
  }
  try {
    if ((await repo.resolveCommit("HEAD").catch(() => null)) === null) return undefined;
    const changed = await repo.changedFiles(prefix);
    return new Set(changed.map((path) => resolve(repo.dir, path)));
  } catch {
    return undefined;
  } finally {
    await repo.close();
  }
}
