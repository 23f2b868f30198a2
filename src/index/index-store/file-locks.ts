/**
 * Locks by name across the processes of one machine that share a folder — the delivery
 * lock of `lore serve` on SQLite when several servers run on one data folder (scale-out;
 * seed 004, delivery: two servers never deliver the same drafts twice). Each name is a small
 * SQLite file in the folder, held by an exclusive transaction on a connection of its own:
 * the operating system lets go of it when the holder's process dies (a `kill -9` leaves no
 * stale lock to clean up), and a waiter polls without blocking its thread.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { isBusy } from "../counters.js";

/** How often a waiter tries the lock again, ms. */
export const FILE_LOCK_POLL_MS = 25;

/** The lock file of `name` in `folder`: a digest, so any string is a safe file name. */
export function lockFile(folder: string, name: string): string {
  const digest = createHash("sha256").update(name).digest("hex").slice(0, 32);
  return join(folder, `${digest}.lock`);
}

/** Named locks shared by every process that uses the same folder. */
export class FileLocks {
  readonly #folder: string;
  readonly #pollMs: number;

  /**
   * @param folder - where the lock files live (made when absent, mode 0700).
   * @param pollMs - how often a waiter tries again, ms. Default {@link FILE_LOCK_POLL_MS}.
   */
  constructor(folder: string, pollMs: number = FILE_LOCK_POLL_MS) {
    this.#folder = folder;
    this.#pollMs = pollMs;
  }

  /**
   * Runs `work` holding the lock `name`, after any other process (or other `FileLocks` of
   * this one) holding it lets go; waits as long as the holder runs, like PostgreSQL's
   * advisory lock.
   *
   * @returns what `work` resolves to; rejects with its error (the lock is let go either way).
   * @throws the SQLite error when the lock file cannot be opened (an unwritable folder).
   */
  async run<T>(name: string, work: () => Promise<T>): Promise<T> {
    mkdirSync(this.#folder, { recursive: true, mode: 0o700 });
    const db = new Database(lockFile(this.#folder, name), { timeout: 0 });
    try {
      for (;;) {
        try {
          db.exec("BEGIN EXCLUSIVE");
          break;
        } catch (error) {
          if (!isBusy(error)) throw error;
        }
        await sleep(this.#pollMs);
      }
      try {
        return await work();
      } finally {
        db.exec("ROLLBACK");
      }
    } finally {
      db.close();
    }
  }
}
