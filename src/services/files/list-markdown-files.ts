/**
 * The `.md` files of a folder tree, for indexing the notes of a knowledge root (seed 003)
 * and the pages of the project's wiki (recall over all local knowledge).
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * The regular `.md` files under `base`, as `/`-separated relative paths, sorted. Folders
 * whose name starts with `.` are skipped; symbolic links are never followed, so nothing
 * outside the tree is read; an unreadable sub-folder counts as empty.
 *
 * @param base - the folder.
 * @returns the paths, or `null` when `base` is missing or unreadable.
 */
export async function listMarkdownFiles(base: string): Promise<string[] | null> {
  const list = (dir: string) => readdir(dir, { withFileTypes: true });
  const top = await list(base).catch(() => null);
  if (top === null) return null;
  const out: string[] = [];
  const walk = async (relative: string, entries: Dirent[]): Promise<void> => {
    for (const entry of entries) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name.startsWith(".")) continue;
        await walk(path, await list(join(base, path)).catch(() => []));
      } else if (entry.isFile() && entry.name.endsWith(".md")) out.push(path);
    }
  };
  await walk("", top);
  return out.sort();
}
