/**
 * Opening the team server's records (seed 004, team server): the data folder and its
 * `server.db`.
 */
import { closeSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { initBareRepo } from "../adapters/git-cli/init-bare.js";
import {
  openSqliteServerStore,
  SERVER_DB_FILE,
} from "../index/server-store/sqlite-server-store.js";
import type { ServerStore } from "../ports/server-store.js";
import type { HostedRepoDeps } from "../services/access/hosted-repos.js";

/**
 * Opens the server's store in its data folder (`[server] data`), creating the folder
 * (mode 0700: it holds the token hashes, the SSH host key and the repositories) and the
 * database `<data>/server.db` (mode 0600) when absent.
 *
 * @param dataDir - the data folder.
 * @throws LoreError `index_failed` when the database cannot be opened or migrated.
 */
export async function openServerStore(dataDir: string): Promise<ServerStore> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
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
