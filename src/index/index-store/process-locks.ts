/**
 * Locks by name inside one process (the delivery lock on SQLite, and the first stage of it
 * on PostgreSQL before the database's advisory lock): work under one name runs one at a
 * time, in the order it asked; different names never wait on each other.
 */

/** Named locks of this process. */
export class ProcessLocks {
  /** Per name, the promise that settles when the last holder asking so far lets go. */
  readonly #tails = new Map<string, Promise<void>>();

  /**
   * Runs `work` holding the lock `name`: after every holder that asked before has let go.
   *
   * @param name - any string; equal strings are one lock.
   * @param work - the work; the lock is let go when it settles.
   * @returns what `work` resolves to; rejects with its error (the lock is let go either way).
   */
  async run<T>(name: string, work: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(name) ?? Promise.resolve();
    let letGo: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const tail = before.then(() => mine);
    this.#tails.set(name, tail);
    await before;
    try {
      return await work();
    } finally {
      letGo();
      if (this.#tails.get(name) === tail) this.#tails.delete(name);
    }
  }

  /** The number of names held or waited for (0 when idle). */
  get size(): number {
    return this.#tails.size;
  }
}

/** The name of the delivery lock of one branch of one repository. */
export function deliveryLockName(repo: string, branch: string): string {
  return JSON.stringify(["delivery", repo, branch]);
}
