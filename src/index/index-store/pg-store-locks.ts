/**
 * Locks across every `lore serve` over one PostgreSQL database (the `StoreLocks` of the
 * `IndexStore` port): the delivery lock of a branch is a session-level advisory lock
 * (`pg_advisory_lock(int4, int4)`: "lore" in ASCII, then 32 bits of the SHA-256 of the
 * repository and branch) held on a connection of its own for the whole delivery. A server
 * killed mid-delivery loses its connection and PostgreSQL lets the lock go with it. Inside
 * one process the holders of one name queue first ({@link ProcessLocks}), so a process
 * waits on the database with at most one connection per branch.
 *
 * Two names whose 32 bits collide only wait for each other: never wrong, seldom slower.
 */
import { createHash } from "node:crypto";
import pg from "pg";
import type { StoreLocks } from "../../ports/index-store.js";
import { deliveryLockName, ProcessLocks } from "./process-locks.js";

/** The first key of Lore's two-key advisory locks: "lore" in ASCII. */
export const PG_LOCK_CLASS = 0x6c6f7265;

/** The second key of a lock name: the first 32 bits of its SHA-256, signed. */
export function pgLockKey(name: string): number {
  return createHash("sha256").update(name).digest().readInt32BE(0);
}

/** What {@link PgStoreLocks} connects with. */
export interface PgLockConnection {
  /** The database's connection string. */
  url: string;
  /** How long a connection attempt may take, ms. */
  connectTimeoutMs: number;
  /** Turns an error of `pg` into the error thrown (`pgServerDbError`). */
  fail: (error: unknown) => Error;
}

/** {@link StoreLocks} on PostgreSQL (see the module header). */
export class PgStoreLocks implements StoreLocks {
  readonly #connection: PgLockConnection;
  readonly #process = new ProcessLocks();

  /** @param connection - see {@link PgLockConnection}. */
  constructor(connection: PgLockConnection) {
    this.#connection = connection;
  }

  withDeliveryLock<T>(repo: string, branch: string, work: () => Promise<T>): Promise<T> {
    const name = deliveryLockName(repo, branch);
    return this.#process.run(name, () => this.#hold(pgLockKey(name), work));
  }

  /** Takes the advisory lock on a connection of its own, runs `work`, lets it go. */
  async #hold<T>(key: number, work: () => Promise<T>): Promise<T> {
    const client = new pg.Client({
      connectionString: this.#connection.url,
      connectionTimeoutMillis: this.#connection.connectTimeoutMs,
    });
    // A connection that dies while held emits here; the lock went with it.
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.query("SELECT pg_advisory_lock($1, $2)", [PG_LOCK_CLASS, key]);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw this.#connection.fail(error);
    }
    try {
      return await work();
    } finally {
      // Ending the session lets go of the lock too; the unlock says so at once.
      await client
        .query("SELECT pg_advisory_unlock($1, $2)", [PG_LOCK_CLASS, key])
        .catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
