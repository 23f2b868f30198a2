/**
 * Opening the team server's records (seed 004, team server): the data folder and the
 * store — `<data>/server.db` (SQLite, the embedded default) or the PostgreSQL database of
 * `[server] database` (scale-out: several `lore serve` over one database). The one place
 * that chooses the engine: `lore serve`, the administration CLI and the push hooks all
 * open the store here.
 */
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { initBareRepo } from "../adapters/git-cli/init-bare.js";
import { LoreError } from "../core/errors/lore-error.js";
import {
  openSqliteServerStore,
  SERVER_DB_FILE,
} from "../index/server-store/sqlite-server-store.js";
import type { IndexStore } from "../ports/index-store.js";
import type { ServerStore } from "../ports/server-store.js";
import type { HostedRepoDeps } from "../services/access/hosted-repos.js";

/** Why the OS refused a write, by errno code, in English and Russian. */
function writeRefusal(error: unknown): { en: string; ru: string } {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
  if (code === "EROFS")
    return { en: "a read-only file system", ru: "файловая система только для чтения" };
  if (code === "EACCES" || code === "EPERM") {
    return { en: "permission denied for this user", ru: "нет прав у этого пользователя" };
  }
  return { en: code || String(error), ru: code || String(error) };
}

/**
 * Makes the server's data folder (mode 0700) when absent and checks that this user can
 * write it and the `server.db` in it, before SQLite would fail with a bare
 * `SQLITE_CANTOPEN`.
 *
 * @param dataDir - `[server] data`.
 * @throws LoreError `path_not_writable` naming the folder or the file, why (permission
 *   denied, a read-only file system) and what to do.
 */
export function requireWritableDir(dataDir: string): void {
  const refuse = (path: string, error: unknown): never => {
    const why = writeRefusal(error);
    throw new LoreError(
      "path_not_writable",
      {
        path,
        reason: why.en,
        reason_ru: why.ru,
        hint: "the server keeps its database, SSH host key and repositories there: make it writable for this user, or set [server] data to another folder",
        hint_ru:
          "там сервер хранит свою базу, ключ хоста SSH и репозитории: дайте этому пользователю право записи или укажите другую папку в [server] data",
      },
      { cause: error, data: { path } },
    );
  };
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    refuse(dataDir, error);
  }
  try {
    accessSync(dataDir, constants.W_OK | constants.X_OK);
  } catch (error) {
    refuse(dataDir, error);
  }
  const file = join(dataDir, SERVER_DB_FILE);
  if (existsSync(file)) {
    try {
      accessSync(file, constants.R_OK | constants.W_OK);
    } catch (error) {
      refuse(file, error);
    }
  }
}

/**
 * Opens the server's store: on PostgreSQL when `database` (`[server] database`, a
 * `postgres://` URL) is given, else the SQLite database `<data>/server.db` (mode 0600,
 * created when absent). The data folder is made either way (mode 0700: it holds the SSH
 * host key and the repositories, and on SQLite the token hashes).
 *
 * @param dataDir - the data folder.
 * @param database - `settings.server.database`; absent = SQLite.
 * @throws LoreError `path_not_writable` when the data folder cannot be made or written by
 *   this user (or `server.db` in it is read-only), naming the path; `index_failed` when the
 *   database cannot be opened or migrated; `database_unavailable` (503) when the PostgreSQL
 *   database cannot be reached.
 */
export async function openServerStore(dataDir: string, database?: string): Promise<ServerStore> {
  requireWritableDir(dataDir);
  if (database !== undefined) {
    // Loaded only here: a SQLite server never loads pg.
    const { openPgServerStore } = await import("../index/server-store/pg-server-store.js");
    return openPgServerStore(database);
  }
  const file = join(dataDir, SERVER_DB_FILE);
  // Created here with mode 0600 (when absent) so that SQLite, which gives its -wal and -shm
  // files the database file's mode, never makes a file of token hashes readable by others.
  try {
    closeSync(openSync(file, "a", 0o600));
  } catch {
    // Unwritable: opening the database says so with its own message.
  }
  return openSqliteServerStore(file);
}

/**
 * Opens the index's records shared by every server on the database (the `IndexStore` port:
 * shown/read counters and their days, the delivery lock of a branch, load receipts) on
 * PostgreSQL when `database` (`[server] database`) is given: several `lore serve` over one
 * database then count into one table, deliver a branch one at a time and list one
 * another's receipts. Absent: `undefined` — the server keeps them in its SQLite index
 * (`sqliteIndexStore`, the locks meeting in `<data>/locks`), as before.
 *
 * @param database - `settings.server.database`; absent = SQLite.
 * @param options - `receiptKeepDays`: days a load receipt is kept (`[receipts] keep_days`;
 *   default 30).
 * @returns the PostgreSQL store (its `close()` writes queued counts and ends its pool), or
 *   `undefined`.
 * @throws LoreError `database_unavailable` (503: PostgreSQL cannot be reached; never the
 *   password), `index_failed` (a schema of a newer Lore, a failed migration).
 */
export async function openSharedIndexStore(
  database?: string,
  options: { receiptKeepDays?: number } = {},
): Promise<IndexStore | undefined> {
  if (database === undefined) return undefined;
  // Loaded only here: a SQLite server never loads pg.
  const { openPgIndexStore } = await import("../index/index-store/pg-index-store.js");
  return openPgIndexStore(
    database,
    options.receiptKeepDays === undefined ? {} : { receiptKeepDays: options.receiptKeepDays },
  );
}

/**
 * Whether this machine holds the server's store: `[server] database` is set (PostgreSQL),
 * or `<data>/server.db` exists. The administration CLI works on the store directly then,
 * and the push hooks read branch protection from it.
 *
 * @param dataDir - the data folder.
 * @param database - `settings.server.database`.
 */
export function hasServerStore(dataDir: string, database?: string): boolean {
  return database !== undefined || existsSync(join(dataDir, SERVER_DB_FILE));
}

/**
 * The collaborators of `services/access/hosted-repos.ts`: the store, the data folder and
 * `git init --bare`; `afterCreate` installs the push hooks where composed.
 */
export function hostedRepoDeps(
  store: ServerStore,
  dataDir: string,
  afterCreate?: (dir: string) => Promise<void>,
): HostedRepoDeps {
  return afterCreate === undefined
    ? { store, dataDir, initBare: initBareRepo }
    : { store, dataDir, initBare: initBareRepo, afterCreate };
}
