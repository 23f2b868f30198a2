import { realpathSync } from "node:fs";
import { resolve } from "node:path";

/**
 * A path with its links resolved (`realpath`), or — when it does not exist (yet) or cannot
 * be read — the absolute path as given. For comparing folders that may be reached through
 * links: the configuration's files, the served `--repo` folders, the data folder.
 *
 * @param path - absolute, or relative to the working folder.
 * @returns an absolute path.
 */
export function realPathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
