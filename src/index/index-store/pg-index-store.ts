/**
 * The {@link IndexStore} port on PostgreSQL (scale-out: several `lore serve` over one
 * database): a pool of connections, the schema brought to the latest version
 * (`pg-index-migrations.ts`, under its own advisory lock: eight servers starting at once
 * migrate it once), the counters (`pg-counter-store.ts`), the load receipts
 * (`pg-receipt-store.ts`), the drafts (`pg-draft-store.ts`) and the locks
 * (`pg-store-locks.ts`).
 */
import type pg from "pg";
import { DEFAULT_RECEIPT_KEEP_DAYS } from "../../core/config/config-defaults.js";
import type { SharedDraftRecords } from "../../ports/draft-store.js";
import type {
  CounterStore,
  IndexStore,
  ReceiptStore,
  StoreLocks,
} from "../../ports/index-store.js";
import { applyPgMigrations } from "../pg-apply-migrations.js";
import { passwordOf, pgServerDbError } from "../server-store/pg-db-error.js";
import { CONNECT_TIMEOUT_MS, createPool } from "../server-store/pg-server-store.js";
import { PgCounterStore } from "./pg-counter-store.js";
import { PgDraftStore } from "./pg-draft-store.js";
import { PG_INDEX_MIGRATION_LOCK_KEY, PG_INDEX_MIGRATIONS } from "./pg-index-migrations.js";
import { PgReceiptStore } from "./pg-receipt-store.js";
import { PgStoreLocks } from "./pg-store-locks.js";

/** Connections per process of the index store's pool. */
export const PG_INDEX_POOL_SIZE = 8;

/** What {@link openPgIndexStore} is opened with. */
export interface PgIndexStoreOptions {
  /** Connections of the pool. Default {@link PG_INDEX_POOL_SIZE}. */
  poolSize?: number;
  /** Days a load receipt is kept (`[receipts] keep_days`). Default `DEFAULT_RECEIPT_KEEP_DAYS` (30). */
  receiptKeepDays?: number;
}

class PgIndexStore implements IndexStore {
  readonly counters: CounterStore;
  readonly locks: StoreLocks;
  readonly receipts: ReceiptStore;
  readonly drafts: SharedDraftRecords;
  readonly #counters: PgCounterStore;
  readonly #pool: pg.Pool;
  #closing: Promise<void> | undefined;

  constructor(
    pool: pg.Pool,
    url: string,
    fail: (error: unknown) => Error,
    receiptKeepDays: number,
  ) {
    this.#pool = pool;
    this.#counters = new PgCounterStore(pool, fail);
    this.counters = this.#counters;
    this.receipts = new PgReceiptStore(pool, fail, receiptKeepDays);
    this.drafts = new PgDraftStore(pool, fail);
    this.locks = new PgStoreLocks({ url, connectTimeoutMs: CONNECT_TIMEOUT_MS, fail });
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        await this.#counters.close();
      } catch {
        // Usage counts only (the database went away): the close goes on.
      }
      await this.#pool.end().catch(() => undefined);
    })();
    return this.#closing;
  }
}

/**
 * Brings the index's tables on PostgreSQL to {@link PG_INDEX_MIGRATIONS}' latest version.
 *
 * @param pool - a pool on the database.
 * @returns the version before migrating (0 for an empty database).
 * @throws LoreError `index_failed` when the schema is newer than this Lore's; the error of a
 *   failed step or of the connection.
 */
export function migratePgIndexSchema(pool: pg.Pool): Promise<number> {
  return applyPgMigrations(pool, {
    migrations: PG_INDEX_MIGRATIONS,
    lockKey: PG_INDEX_MIGRATION_LOCK_KEY,
    versionTable: "index_schema",
    what: "the index tables",
  });
}

/**
 * Opens the index store on a PostgreSQL database.
 *
 * @param url - a connection string `pg` accepts (`options=-c search_path=…` picks a schema).
 * @param options - see {@link PgIndexStoreOptions}.
 * @returns the store; `close()` writes the queued counts and ends the pool.
 * @throws LoreError `database_unavailable` (503: refused, unknown host, wrong password, no
 *   such database; never the password), `index_failed` (a schema of a newer Lore, a failed
 *   migration).
 */
export async function openPgIndexStore(
  url: string,
  options: PgIndexStoreOptions = {},
): Promise<IndexStore> {
  const password = passwordOf(url);
  const fail = (error: unknown) => pgServerDbError(error, password);
  const pool = createPool(url, options.poolSize ?? PG_INDEX_POOL_SIZE);
  try {
    await migratePgIndexSchema(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw fail(error);
  }
  return new PgIndexStore(pool, url, fail, options.receiptKeepDays ?? DEFAULT_RECEIPT_KEEP_DAYS);
}
