/**
 * Where the team server keeps its index (the team server's data folder, `[server] data`):
 * `<data>/index.db`, beside `server.db` and the bare repositories, unless
 * the index file was named (env `LORE_DB`, `[index] database`) — then that file, as
 * several servers on one data folder behind a load balancer share it. The OS user's own
 * `lore index` / `lore mcp` keep `$XDG_DATA_HOME/lore/index.db`, so a local recall never
 * lists the server's hosted repositories and two servers with their own data folders never
 * mix their `owner/name` repositories in one file.
 *
 * An installation made before the server had its own index kept the hosted repositories in
 * the default index file: while `<data>/index.db` does not exist and that file holds a
 * repository of this data folder, the server goes on using it (its drafts, counters and
 * receipts are there).
 */
import { chmodSync, closeSync, existsSync, openSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import Database from "better-sqlite3";
import { LoreError } from "../core/errors/lore-error.js";
import type { EntryIndex } from "../index/entry-index.js";
import { SERVER_DB_FILE } from "../index/server-store/sqlite-server-store.js";
import type { LoreSettings } from "./load-config.js";
import { requireWritableDir } from "./open-server.js";
import { realPathOr } from "./real-path.js";

/** The server's own index file in its data folder. */
export const SERVER_INDEX_FILE = "index.db";

/**
 * The team server's SQLite index file (see the module header). Used by `lore serve`, the
 * hooks it installs, and every administration command that touches the server's index.
 *
 * @param settings - the loaded settings: `database`, `databaseIsDefault`, `server.data`.
 * @returns an absolute path; the file may not exist yet.
 */
export function serverIndexFile(
  settings: Pick<LoreSettings, "database" | "databaseIsDefault" | "server">,
): string {
  if (settings.databaseIsDefault !== true) return resolve(settings.database);
  const data = resolve(settings.server.data);
  const own = join(data, SERVER_INDEX_FILE);
  if (existsSync(own)) return own;
  return holdsReposOf(settings.database, data) ? resolve(settings.database) : own;
}

/** Whether the index file holds a repository whose folder is under `<data>/repos/`. */
function holdsReposOf(file: string, data: string): boolean {
  if (!existsSync(file)) return false;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: 2000 });
    const prefix = `${join(data, "repos")}${sep}`;
    const row = db
      .prepare("SELECT 1 FROM repositories WHERE substr(path, 1, length(?)) = ? LIMIT 1")
      .get(prefix, prefix);
    return row !== undefined;
  } catch {
    // Unreadable, or made before repositories were recorded: not the server's index.
    return false;
  } finally {
    db?.close();
  }
}

/**
 * Binds the server's index to its data folder (`EntryIndex.bindServerData`), refusing an
 * index another server's data folder holds: two servers with different data folders over
 * one index file would store their repositories under the same `owner/name` and answer
 * with each other's entries. Several servers on one data folder (behind a load balancer)
 * share it. A bound folder that is gone (neither `repos/` nor `server.db` left: the data
 * folder was moved) is taken over, and so is any when the index is the data folder's own
 * `<data>/index.db` (a copied data folder).
 *
 * @param index - the server's index.
 * @param dataDir - `[server] data`.
 * @param indexFile - the index's file, for the message.
 * @throws LoreError `index_of_another_server` (exit 4).
 */
export function claimServerIndex(index: EntryIndex, dataDir: string, indexFile: string): void {
  const data = realPathOr(resolve(dataDir));
  const gone = (bound: string) =>
    !existsSync(join(bound, "repos")) && !existsSync(join(bound, SERVER_DB_FILE));
  // The data folder's own index file is this server's wherever it was copied from (a backup
  // restored, a staging copy): its hosted repositories heal from this folder's bare ones.
  const own = realPathOr(dirname(resolve(indexFile))) === data;
  const bound = index.bindServerData(data, (other) => own || gone(other));
  if (bound !== data) {
    throw new LoreError("index_of_another_server", { index: indexFile, other: bound, data });
  }
}

/**
 * Readies the server's index file before SQLite opens it: when it is the data folder's own
 * (`<data>/index.db`), it is made with mode 0600 (or narrowed to it, with its `-wal` and
 * `-shm`), because it holds the private repositories' entries, drafts and counters and
 * SQLite gives new files the umask's mode. The data folder itself is made with mode 0700
 * and checked writable first (`requireWritableDir`), so an unwritable one is refused with
 * `path_not_writable` before the index would fail.
 *
 * @param indexFile - the server's index file (`serverIndexFile`).
 * @param dataDir - `[server] data`.
 * @throws LoreError `path_not_writable`.
 */
export function prepareServerIndexFile(indexFile: string, dataDir: string): void {
  requireWritableDir(dataDir);
  if (realPathOr(dirname(resolve(indexFile))) !== realPathOr(resolve(dataDir))) return;
  if (!existsSync(indexFile)) {
    closeSync(openSync(indexFile, "a", 0o600));
    return;
  }
  for (const file of [indexFile, `${indexFile}-wal`, `${indexFile}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch {
      // Absent, or not ours to change: SQLite says so when it opens the file.
    }
  }
}
