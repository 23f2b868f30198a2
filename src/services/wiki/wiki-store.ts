import { randomBytes } from "node:crypto";
import {
  lstat,
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import { tooLarge, WIKI_LIMITS, type WikiLimit } from "../../core/wiki/wiki-limits.js";
import { slugProblem } from "../../core/wiki/wiki-slug.js";
import type { Backend } from "../../ports/forge.js";
import { withWikiLock } from "./wiki-lock.js";

/** A wiki file's text, with the forge's blob sha when read from a forge (compare-and-swap). */
export interface WikiFile {
  content: string;
  sha?: string;
}

/**
 * Where a wiki's files live (federation, “The wiki layout”): a folder on disk (the shared wiki,
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
  /**
   * Type folders that {@link listPages} skipped because they are symbolic links (their pages
   * could lie outside the wiki), e.g. `["concepts"]`; filled by the last `listPages` call.
   */
  readonly skippedLinks?: readonly string[];
  /**
   * Runs `fn` as the only writer of this wiki's shared files (`index.md`, `log.md`): a lock
   * per folder (in process and across processes, see `withWikiLock`); on a forge, `fn`
   * runs at once (the compare-and-swap of each commit, retried, guards it).
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

/** The size limit of a wiki file: its index, its log, or a page. */
function limitOf(path: string): WikiLimit {
  return path === "index.md"
    ? "wikiIndexBytes"
    : path === "log.md"
      ? "wikiLogBytes"
      : "wikiPageBytes";
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
  const skippedLinks: string[] = [];
  return {
    where: root,
    skippedLinks,
    async exclusive(fn) {
      const key = await realpath(root).catch(() => root);
      return withWikiLock(`wiki:${key}`, fn);
    },
    async read(path) {
      try {
        const file = await inside(path);
        const info = await stat(file);
        const limit = limitOf(path);
        if (info.isFile() && info.size > WIKI_LIMITS[limit])
          throw tooLarge({ repo: root, path }, limit, info.size);
        return { content: await readFile(file, "utf8") };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
        if (code === "ENAMETOOLONG") throw nameTooLong(path);
        throw error;
      }
    },
    async write(path, content) {
      const file = await inside(path);
      const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(temp, content, "utf8");
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true }).catch(() => {});
        if ((error as NodeJS.ErrnoException).code === "ENAMETOOLONG") throw nameTooLong(path);
        throw error;
      }
    },
    async listPages(types) {
      skippedLinks.length = 0;
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
      for (const type of types) {
        // A type folder that is a symbolic link may lead outside the wiki: skipped, noted.
        const info = await lstat(join(root, type)).catch(() => null);
        if (info?.isSymbolicLink() === true) {
          skippedLinks.push(type);
          continue;
        }
        await walk(type);
      }
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
      const file = await forge.getFileWithSha(
        owner,
        project,
        `.wiki/${checkPath(path)}`,
        undefined,
        { limit: limitOf(path) },
      );
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
    exclusive: (fn) => fn(),
  };
}

/** `invalid_slug` for a path the file system refused as too long (ENAMETOOLONG). */
function nameTooLong(path: string): LoreError {
  return new LoreError("invalid_slug", {
    slug: path.length > 120 ? `${path.slice(0, 120)}…` : path,
    reason: "a name in it is too long for the file system",
    reason_ru: "имя в нём слишком длинное для файловой системы",
  });
}
