import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** The knowledge folder inside a repository (seed 004, "Записи знания живут файлами…"). */
export const KNOWLEDGE_DIR = join(".gitriver", "knowledge");

/**
 * The folder a command works in: the nearest folder at or above `cwd` that holds `.git`
 * (a clone's top, where `.gitriver/` lives), else `cwd` itself.
 *
 * @param cwd - the working folder.
 */
export function projectRoot(cwd: string): string {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
}

/**
 * A path as the user should read it: relative to `cwd` when inside it, else absolute;
 * `/`-separated.
 *
 * @param cwd - the working folder.
 * @param path - a path.
 */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(resolve(cwd), resolve(path));
  const shown = rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? resolve(path) : rel;
  return shown.split(sep).join("/");
}
