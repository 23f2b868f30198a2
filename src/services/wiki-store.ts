import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { LoreError } from "../core/lore-error.js";
import { slugProblem } from "../core/wiki-slug.js";
import type { Backend } from "../ports/forge.js";

/** A wiki file's text, with the forge's blob sha when read from a forge (compare-and-swap). */
export interface WikiFile {
  content: string;
  sha?: string;
}

/**
 * Where a wiki's files live (issue 4 "The wiki layout"): a folder on disk (the shared wiki,
 * the current project's `.wiki/`) or `.wiki/` of a repository on the forge. Paths are
 * relative to the wiki, `/`-separated (`index.md`, `concepts/foo.md`), checked never to
 * escape it.
 */
export interface WikiStore {
  /** Where it is, for messages: a folder path, or `<project>:.wiki`. */
  readonly where: string;
  /**
   * Reads a file.
   * @returns its text (and sha on a forge), or `null` when it does not exist.
   * @throws LoreError `invalid_slug` for an escaping path; the forge's codes.
   */
  read(path: string): Promise<WikiFile | null>;
  /**
   * Writes a file whole (creating folders). On a forge: one commit, `sha` as
   * compare-and-swap (absent = the file must not exist). On disk: temp file + rename.
   * @throws LoreError `invalid_slug`; `forge_conflict` and the forge's codes.
   */
  write(path: string, content: string, options: { message: string; sha?: string }): Promise<void>;
  /**
   * Lists the markdown files under the page-type folders given (e.g. `["concepts"]`),
   * sorted; only a folder store can list (a forge store returns `null`).
   */
  listPages(types: readonly string[]): Promise<string[] | null>;
}

/** Refuses a wiki path that could escape the wiki (same rule as slugs). */
function checkPath(path: string): string {
  const problem = slugProblem(path);
  if (problem !== null) {
    throw new LoreError("invalid_slug", { slug: path, reason: problem.en, reason_ru: problem.ru });
  }
  return path;
}

/**
 * A wiki in a folder on disk. Reads and writes refuse a path whose real location (symbolic
 * links followed) is outside the folder (DESIGN.md "Non-negotiables").
 *
 * @param dir - the wiki folder (need not exist yet: the first write makes it).
 */
export function folderWikiStore(dir: string): WikiStore {
  const root = resolve(dir);
  const inside = async (path: string): Promise<string> => {
    const file = join(root, ...checkPath(path).split("/"));
    let realRoot: string;
    try {
      realRoot = await realpath(root);
    } catch {
      return file; // no folder yet: nothing in it can point outside
    }
    // The deepest part of the path that exists, symbolic links followed, must stay inside.
    for (let probe = file; ; probe = dirname(probe)) {
      let real: string;
      try {
        real = await realpath(probe);
      } catch {
        if (probe === root) return file;
        continue;
      }
      const rel = relative(realRoot, real);
      if (rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel)))
        return file;
      throw new LoreError("invalid_slug", {
        slug: path,
        reason: "it leads outside the wiki folder through a symbolic link",
        reason_ru: "он выводит из папки вики через символическую ссылку",
      });
    }
  };
  return {
    where: root,
    async read(path) {
      try {
        return { content: await readFile(await inside(path), "utf8") };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
        throw error;
      }
    },
    async write(path, content) {
      const file = await inside(path);
      await mkdir(dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        await writeFile(temp, content, "utf8");
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    async listPages(types) {
      const out: string[] = [];
      const walk = async (rel: string): Promise<void> => {
        let items: import("node:fs").Dirent[];
        try {
          items = await readdir(join(root, ...rel.split("/")), { withFileTypes: true });
        } catch {
          return;
        }
        for (const item of items) {
          const path = `${rel}/${item.name}`;
          if (item.isDirectory()) await walk(path);
          else if (item.isFile() && item.name.endsWith(".md") && slugProblem(path) === null)
            out.push(path);
        }
      };
      for (const type of types) await walk(type);
      return out.sort();
    },
  };
}

/**
 * The `.wiki/` folder of a repository on the forge: reads at the default branch, each
 * write one commit with the file's sha as compare-and-swap.
 *
 * @param forge - the forge.
 * @param owner - owner passed to the forge (ignored by the local forge).
 * @param project - the repository name.
 */
export function forgeWikiStore(forge: Backend, owner: string, project: string): WikiStore {
  return {
    where: `${project}:.wiki`,
    async read(path) {
      const file = await forge.getFileWithSha(owner, project, `.wiki/${checkPath(path)}`);
      return file === null ? null : { content: file.content, sha: file.sha };
    },
    async write(path, content, options) {
      await forge.commitFile({
        owner,
        repo: project,
        path: `.wiki/${checkPath(path)}`,
        content,
        message: options.message,
        ...(options.sha === undefined ? {} : { sha: options.sha }),
      });
    },
    async listPages() {
      return null;
    },
  };
}
