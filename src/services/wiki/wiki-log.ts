import { isLoreError } from "../../core/errors/lore-error.js";
import type { WikiStore } from "./wiki-store.js";

/**
 * Tries at a read-modify-write of a shared file (index.md, log.md) on a forge: enough for
 * dozens of parallel writers (each lost race means another writer's change landed).
 */
const ATTEMPTS = 40;

/**
 * Reads a wiki file, changes its text and writes it back, with the sha read as
 * compare-and-swap on a forge; when another writer got in between, reads again and
 * retries (up to 40 times, after a short random pause). A change that gives the same text
 * writes nothing. On a folder store, call it inside `store.exclusive` (the lock is what
 * makes the read-modify-write safe there).
 *
 * @param store - the wiki.
 * @param path - the file, e.g. `index.md`.
 * @param change - new text from the current one (`""` when the file does not exist).
 * @param message - the commit message on a forge.
 * @returns true when the file was written.
 * @throws what `change` throws; LoreError `forge_conflict` after the last try; the store's errors.
 */
export async function updateWikiFile(
  store: WikiStore,
  path: string,
  change: (text: string) => string,
  message: string,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const current = await store.read(path);
    const text = change(current?.content ?? "");
    if (current !== null && text === current.content) return false;
    try {
      await store.write(path, text, {
        message,
        ...(current?.sha === undefined ? {} : { sha: current.sha }),
      });
      return true;
    } catch (error) {
      const raced = isLoreError(error) && error.code === "forge_conflict";
      if (!raced || attempt >= ATTEMPTS) throw error;
      // A random pause spreads the writers that raced, so the next try is likely to win.
      await new Promise((done) =>
        setTimeout(done, Math.floor(Math.random() * 10 * Math.min(attempt, 8))),
      );
    }
  }
}

/**
 * Appends one line to the wiki's `log.md` (created with a `# Wiki Log` heading when
 * missing), in the LLM-wiki convention `## [YYYY-MM-DD] <action> | <what>`.
 *
 * @param store - the wiki.
 * @param now - the time of the action (its UTC date is written).
 * @param action - e.g. `ingest`, `promote`.
 * @param what - e.g. `concepts/foo — Foo`.
 * @throws as {@link updateWikiFile}.
 */
export async function appendWikiLog(
  store: WikiStore,
  now: Date,
  action: string,
  what: string,
): Promise<void> {
  const line = `## [${now.toISOString().slice(0, 10)}] ${action} | ${what.replace(/\s+/g, " ").trim()}`;
  await updateWikiFile(
    store,
    "log.md",
    (text) => {
      const base = text.trim() === "" ? "# Wiki Log\n" : text.replace(/\s*$/, "\n");
      return `${base}\n${line}\n`;
    },
    `wiki: log ${action} ${what}`.slice(0, 200),
  );
}
