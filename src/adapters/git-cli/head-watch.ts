/**
 * Noticing cheaply that a repository's HEAD may have moved (a commit, a checkout, a pull,
 * a fetch into a bare repository), without starting git: the file status of `HEAD`, of the
 * branch file it names and of `packed-refs`. A few `stat` calls per read.
 */
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

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

/**
 * Finds the git folders of a repository from the file system alone, without starting git,
 * so the watch exists before the first answer: `<dir>/.git` (a folder, or a `gitdir:` file
 * of a linked work tree, whose `commondir` names the shared folder), or `dir` itself when
 * it is a bare repository (`HEAD` and `objects/`).
 *
 * @param dir - the folder given (`--repo`).
 * @returns the folders, or `undefined` when `dir` is not the top of a repository (a
 *   sub-folder, or not git at all): the caller asks git instead.
 */
export function locateGitFolders(dir: string): { gitDir: string; commonDir: string } | undefined {
  const dotGit = join(dir, ".git");
  const info = statSync(dotGit, { throwIfNoEntry: false });
  let gitDir: string | undefined;
  if (info?.isDirectory()) gitDir = dotGit;
  else if (info?.isFile()) {
    const line = /^gitdir:\s*(.+)$/m.exec(readText(dotGit))?.[1]?.trim();
    if (line !== undefined) gitDir = isAbsolute(line) ? line : resolve(dir, line);
  } else if (
    statSync(join(dir, "HEAD"), { throwIfNoEntry: false })?.isFile() &&
    statSync(join(dir, "objects"), { throwIfNoEntry: false })?.isDirectory()
  ) {
    gitDir = dir;
  }
  if (gitDir === undefined) return undefined;
  const common = readText(join(gitDir, "commondir")).trim();
  const commonDir = common === "" ? gitDir : isAbsolute(common) ? common : resolve(gitDir, common);
  return { gitDir, commonDir };
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
