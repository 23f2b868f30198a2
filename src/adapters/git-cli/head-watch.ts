/**
 * Noticing cheaply that a repository's HEAD may have moved (a commit, a checkout, a pull,
 * a fetch into a bare repository), without starting git: the file status of `HEAD`, of the
 * branch file it names and of `packed-refs`. A few `stat` calls per read.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Watches the ref files of one repository. */
export class HeadWatch {
  readonly #gitDir: string;
  readonly #commonDir: string;

  /**
   * @param folders - `gitDir` (holds `HEAD`) and `commonDir` (holds `refs/` and
   *   `packed-refs`; the same folder except in a linked work tree), absolute.
   */
  constructor(folders: { gitDir: string; commonDir: string }) {
    this.#gitDir = folders.gitDir;
    this.#commonDir = folders.commonDir;
  }

  /**
   * A string that changes whenever HEAD may have moved: size, mtime and inode of `HEAD`,
   * of the branch file HEAD names and of `packed-refs`. Never throws (a missing file reads
   * as `-`; a repository deleted meanwhile gives a signature of dashes).
   */
  signature(): string {
    const head = join(this.#gitDir, "HEAD");
    const parts = [stamp(head), stamp(join(this.#commonDir, "packed-refs"))];
    let text = "";
    try {
      text = readFileSync(head, "utf8");
    } catch {
      // gone: the signature says so
    }
    const ref = /^ref:\s*(refs\/\S+)/.exec(text)?.[1];
    if (ref !== undefined && !ref.includes("..")) {
      parts.push(stamp(join(this.#commonDir, ...ref.split("/"))));
    }
    return parts.join("|");
  }
}

function stamp(path: string): string {
  const info = statSync(path, { throwIfNoEntry: false, bigint: true });
  return info === undefined ? "-" : `${info.size}:${info.mtimeNs}:${info.ino}`;
}
