/**
 * Opening the SQLite file of the index (issue 2, section 3: better-sqlite3@12, WAL).
 */
import Database from "better-sqlite3";
import { LoreError } from "../core/lore-error.js";

/**
 * The subset of a better-sqlite3 connection the index uses (STYLE.md habit 3: a port is the
 * subset you use; kysely's `SqliteDatabase` does the same).
 */
export type SqliteDatabase = Pick<
  Database.Database,
  "prepare" | "exec" | "pragma" | "transaction" | "close" | "open" | "inTransaction"
>;

/** How long a writer waits for another connection's lock before `SQLITE_BUSY`, ms. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens (creating when absent) a SQLite database for the index: WAL journal,
 * `synchronous = NORMAL` (durable at checkpoints; a crash loses at most the last
 * transactions, never consistency — the index is rebuildable from git), foreign keys on,
 * a busy timeout of {@link BUSY_TIMEOUT_MS}, a 64 MB page cache.
 *
 * @param file - path of the database file, or `:memory:`.
 * @returns the open connection.
 * @throws LoreError `index_failed` when the file cannot be opened (with the SQLite error as cause).
 */
export function openSqliteDatabase(file: string): SqliteDatabase {
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (error) {
    throw new LoreError("index_failed", { reason: `cannot open ${file}` }, { cause: error });
  }
  try {
    // The busy timeout first: switching a new file to WAL takes a lock another process
    // opening it at the same time may hold.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma("cache_size = -65536");
    db.pragma("temp_store = MEMORY");
  } catch (error) {
    db.close();
    throw new LoreError("index_failed", { reason: `cannot set up ${file}` }, { cause: error });
  }
  return db;
}
