/**
 * The first start of `lore serve` (seed 004, team server; scale-out "Several servers"):
 * creating the owner — a site-admin user and a token of every scope in `<data>/owner-token`
 * — exactly once, even when several servers start at once on a fresh data folder. The
 * check "no user yet" and the creation run under a lock file in the data folder
 * (`<data>/first-start.lock`, holding the holder's pid; a lock whose process is gone is
 * taken over), so a second server waits, then finds the owner made and the token file
 * written. Servers on other machines sharing one PostgreSQL database have no common
 * folder: there the one that loses the race to create the user (`user_exists`) simply
 * finds the owner made.
 */
import { open, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SCOPES } from "../core/access/rights.js";
import { LoreError } from "../core/errors/lore-error.js";
import { accountNameFrom } from "../core/repos/repo-name.js";
import type { ServerStore } from "../ports/server-store.js";
import { createToken } from "../services/access/tokens.js";
import { addUser } from "../services/access/users.js";

/** The file of the owner's token in the data folder (mode 0600), written on a first start. */
export const OWNER_TOKEN_FILE = "owner-token";
/** The lock file of the first start in the data folder. */
export const FIRST_START_LOCK_FILE = "first-start.lock";
/** How long a start waits for another's first start, ms. */
const LOCK_WAIT_MS = 60_000;
/** How often it looks again, ms. */
const LOCK_POLL_MS = 25;

/** Whether process `pid` runs (a signal 0 reaches it, or it is another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Runs `step` holding `<dataDir>/first-start.lock`: made with `O_EXCL` holding this pid; a
 * lock of a process that is gone is removed; else it waits ({@link LOCK_POLL_MS} ms steps,
 * up to {@link LOCK_WAIT_MS} ms, then takes it: a holder that slow is stuck).
 */
async function underLock<T>(dataDir: string, step: () => Promise<T>): Promise<T> {
  const file = join(dataDir, FIRST_START_LOCK_FILE);
  const started = Date.now();
  for (;;) {
    try {
      const handle = await open(file, "wx", 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number((await readFile(file, "utf8").catch(() => "")).trim());
      // An empty file is a holder between creating and writing it: wait for it.
      const stale =
        (Number.isInteger(pid) && pid > 0 && !alive(pid)) || Date.now() - started > LOCK_WAIT_MS;
      if (stale) await unlink(file).catch(() => undefined);
      else await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }
  try {
    return await step();
  } finally {
    await unlink(file).catch(() => undefined);
  }
}

/**
 * The first start: when the store holds no user, creates a site-admin user named after
 * the OS user (`accountNameFrom`: lower case, other characters as `-`; `admin` when
 * nothing is left) and a token of every scope, written alone to `<data>/owner-token`
 * (mode 0600). Under the lock of the data folder (see the module header): of several
 * servers starting at once exactly one creates the owner.
 *
 * @param store - the server's store.
 * @param dataDir - the data folder (exists).
 * @param osUser - the OS user's name.
 * @returns the token file's path when this start created the owner; undefined when a user
 *   existed (or another server created the owner meanwhile).
 * @throws what the store throws but `user_exists`.
 */
export function firstStart(
  store: ServerStore,
  dataDir: string,
  osUser: string,
): Promise<string | undefined> {
  return underLock(dataDir, async () => {
    if ((await store.countUsers()) > 0) return undefined;
    const name = accountNameFrom(osUser);
    const now = Date.now();
    try {
      await addUser(store, { name, siteAdmin: true, now });
    } catch (error) {
      // Another machine's server on the same database made it first.
      if (error instanceof LoreError && error.code === "user_exists") return undefined;
      throw error;
    }
    const created = await createToken(store, { user: name, scopes: SCOPES, label: "owner", now });
    const file = join(dataDir, OWNER_TOKEN_FILE);
    await writeFile(file, `${created.secret}\n`, { mode: 0o600, flag: "w" });
    return file;
  });
}
