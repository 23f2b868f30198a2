/**
 * Opening the team server's records (seed 004, team server): the data folder and its
 * `server.db`.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  openSqliteServerStore,
  SERVER_DB_FILE,
} from "../index/server-store/sqlite-server-store.js";
import type { ServerStore } from "../ports/server-store.js";

/**
 * Opens the server's store in its data folder (`[server] data`), creating the folder
 * (mode 0700: it holds the token hashes, the SSH host key and the repositories) and the
 * database `<data>/server.db` when absent.
 *
 * @param dataDir - the data folder.
 * @throws LoreError `index_failed` when the database cannot be opened or migrated.
 */
export async function openServerStore(dataDir: string): Promise<ServerStore> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return openSqliteServerStore(join(dataDir, SERVER_DB_FILE));
}
