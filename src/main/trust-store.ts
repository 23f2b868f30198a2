/**
 * The folders whose `lore.toml` the user trusts (`lore trust`, as direnv's `allow` and
 * mise's `trust`): kept in the user's own data folder, `$XDG_DATA_HOME/lore/trusted-folders.json`
 * (default `~/.local/share/lore/`), keyed by each folder's real path — so a folder that is
 * moved or reached through another symbolic link is not trusted until trusted again.
 */
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { LoreError } from "../core/errors/lore-error.js";

/** The environment variables read here (`XDG_DATA_HOME`, `HOME`). */
export type TrustEnv = Readonly<Record<string, string | undefined>>;

/** What the trust file holds. */
interface TrustFile {
  version: 1;
  /** Real paths of the trusted folders, sorted. */
  folders: string[];
}

/** What {@link readTrustedFolders} found. */
export interface TrustedFolders {
  /** Real paths, sorted. */
  folders: string[];
  /**
   * Why the file was not honoured, when it was not: `unreadable` (not JSON, wrong shape,
   * cannot be read) or `insecure` (writable by group or others, POSIX). Then `folders` is empty.
   */
  problem?: { reason: "unreadable" | "insecure"; detail: string };
}

/**
 * The trust file's path: `$XDG_DATA_HOME/lore/trusted-folders.json` (default
 * `~/.local/share/lore/trusted-folders.json`).
 *
 * @param env - the environment.
 */
export function trustFilePath(env: TrustEnv): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), ".local", "share");
  return join(base, "lore", "trusted-folders.json");
}

/**
 * Reads the trusted folders. A missing file is no folder; a file that cannot be read, is
 * not the expected JSON, or can be written by group or others is not honoured (nothing is
 * trusted) and says why in `problem`. Never throws.
 *
 * @param env - the environment (for the path).
 */
export function readTrustedFolders(env: TrustEnv): TrustedFolders {
  const path = trustFilePath(env);
  let text: string;
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    if (info === undefined) return { folders: [] };
    if (process.platform !== "win32" && (info.mode & 0o022) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(4, "0");
      return { folders: [], problem: { reason: "insecure", detail: `${path} (mode ${mode})` } };
    }
    text = readFileSync(path, "utf8");
  } catch (error) {
    return { folders: [], problem: { reason: "unreadable", detail: describe(path, error) } };
  }
  const parsed = parseTrustFile(text);
  if (parsed === undefined) {
    return { folders: [], problem: { reason: "unreadable", detail: `${path}: not a trust file` } };
  }
  return { folders: parsed.folders };
}

/**
 * The real path of a folder, as the trust file keys it.
 *
 * @param dir - a folder (absolute, or relative to `cwd`).
 * @param cwd - the working folder.
 * @throws LoreError `path_not_found` (no such folder), `invalid_input` (not a folder).
 */
export function realFolder(dir: string, cwd: string): string {
  const path = resolve(cwd, dir);
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    throw new LoreError("path_not_found", { path }, { cause: error });
  }
  if (!statSync(real).isDirectory()) {
    throw new LoreError("invalid_input", {
      reason: `${path} is not a folder`,
      reason_ru: `${path} — не папка`,
    });
  }
  return real;
}

/**
 * Adds or removes a folder (by its real path) and writes the file atomically (temp file +
 * rename, mode 0600). Another process changing the file at the same time is not lost: the
 * read-modify-write holds `trusted-folders.json.lock` (created exclusively; one left by a
 * killed process is taken over after {@link LOCK_STALE_MS}).
 *
 * @param env - the environment (for the path).
 * @param folder - the real path (see {@link realFolder}).
 * @param trusted - true to trust, false to stop trusting.
 * @returns whether the file changed (false: it was already so).
 * @throws LoreError `config_invalid` when the existing file cannot be read or others can
 *   write it (it is not overwritten; the message names it), `internal` when it cannot be
 *   written.
 */
export function setFolderTrust(env: TrustEnv, folder: string, trusted: boolean): boolean {
  const path = trustFilePath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  return withLock(`${path}.lock`, () => {
    const current = readTrustedFolders(env);
    if (current.problem?.reason === "unreadable") {
      throw new LoreError("config_invalid", {
        reason: `${current.problem.detail}; fix or delete it, then run lore trust again`,
        reason_ru: `${current.problem.detail}; исправьте или удалите его и снова выполните lore trust`,
      });
    }
    // Others could write it: its folders are not honoured, and not carried over silently.
    if (current.problem?.reason === "insecure") {
      throw new LoreError("config_invalid", {
        reason: `the trust file ${current.problem.detail} can be written by group or others; check its folders, chmod 600 it, then run lore trust again`,
        reason_ru: `файл доверия ${current.problem.detail} доступен на запись группе или всем; проверьте его папки, выполните chmod 600 и снова lore trust`,
      });
    }
    if (current.folders.includes(folder) === trusted) return false;
    const folders = trusted
      ? [...current.folders, folder].sort()
      : current.folders.filter((f) => f !== folder);
    writeTrustFile(path, { version: 1, folders });
    return true;
  });
}

/** A lock file older than this was left by a killed process and is taken over, ms. */
const LOCK_STALE_MS = 10_000;

/** Runs `fn` holding an exclusively created lock file; waits for another holder (sync). */
function withLock<T>(lock: string, fn: () => T): T {
  const deadline = Date.now() + 2 * LOCK_STALE_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || Date.now() > deadline) {
        throw new LoreError(
          "internal",
          { reason: `cannot lock ${lock}: ${(error as Error).message}` },
          { cause: error },
        );
      }
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) rmSync(lock, { force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

function writeTrustFile(path: string, content: TrustFile): void {
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(temp, 0o600);
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // The temp file was never made, or is already gone.
    }
    throw new LoreError(
      "internal",
      { reason: `cannot write ${path}: ${(error as Error).message}` },
      { cause: error },
    );
  }
}

function parseTrustFile(text: string): TrustFile | undefined {
  try {
    const value = JSON.parse(text) as Partial<TrustFile> | null;
    if (value === null || typeof value !== "object" || !Array.isArray(value.folders)) {
      return undefined;
    }
    const folders = value.folders.filter((f): f is string => typeof f === "string");
    return { version: 1, folders: [...new Set(folders)].sort() };
  } catch {
    return undefined;
  }
}

function describe(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === undefined ? path : `${path} (${code})`;
}
