/**
 * Opening the SQLite file of the index (better-sqlite3, WAL).
 */
import Database from "better-sqlite3";
import { LoreError } from "../core/errors/lore-error.js";

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
 * Page size of a new database file, bytes. An entry row (body ≈ 2 KB, up to 64 KB) rarely
 * fits twice in SQLite's default 4 KB page, so a 4 KB-page index is about a quarter free
 * space and overflow pages. Measured on the bench's 100k entries (239 MB of entry files):
 * 4 KB pages 491 MB, 8 KB 451 MB, 16 KB 435 MB; but with the {@link PAGE_CACHE_KIB} cache a
 * lookup of many random rows (ids of hundreds of tied hits) costs a page read per row, and
 * 16 KB reads doubled such a recall's time (4.3 → 8.7 ms CPU) where 8 KB kept it (4.1 ms).
 * A file keeps the page size it was created with (WAL files cannot change it): an older
 * index keeps 4 KB pages until it is deleted and rebuilt.
 */
export const PAGE_SIZE_BYTES = 8_192;

/**
 * SQLite page cache of a connection, KiB (8 MB). The file's pages stay in the OS page cache
 * anyway; a larger private cache only adds to the server's resident memory (a 64 MB cache
 * filled up serving recall at 100k entries) for a few µs saved per page re-read.
 */
export const PAGE_CACHE_KIB = 8 * 1024;

/**
 * Opens (creating when absent) a SQLite database for the index: WAL journal,
 * `synchronous = NORMAL` (durable at checkpoints; a crash loses at most the last
 * transactions, never consistency — the index is rebuildable from git), foreign keys on,
 * a busy timeout of {@link BUSY_TIMEOUT_MS}, {@link PAGE_SIZE_BYTES} pages for a new file, a
 * page cache of {@link PAGE_CACHE_KIB}.
 *
 * @param file - path of the database file, or `:memory:`.
 * @param options - `busyTimeoutMs`: the busy timeout instead of {@link BUSY_TIMEOUT_MS}, ms
 *   (an agent hook's remaining time budget: a locked file fails fast rather than blocks).
 * @returns the open connection.
 * @throws LoreError `index_failed` when the file cannot be opened (with the SQLite error as cause).
 */
export function openSqliteDatabase(
  file: string,
  options: { busyTimeoutMs?: number } = {},
): SqliteDatabase {
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (error) {
    throw new LoreError("index_failed", { reason: `cannot open ${file}` }, { cause: error });
  }
  try {
    // The busy timeout first: switching a new file to WAL takes a lock another process
    // opening it at the same time may hold.
    db.pragma(
      `busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? BUSY_TIMEOUT_MS))}`,
    );
    // Only takes effect on a new, empty file, and only before it is switched to WAL.
    db.pragma(`page_size = ${PAGE_SIZE_BYTES}`);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma(`cache_size = ${-PAGE_CACHE_KIB}`);
    db.pragma("temp_store = MEMORY");
  } catch (error) {
    db.close();
    throw new LoreError("index_failed", { reason: `cannot set up ${file}` }, { cause: error });
  }
  return db;
}
