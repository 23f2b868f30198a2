import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";

/** A real index file in a fresh temp folder; `done` closes and removes it. */
export function tempIndex(prefix: string): { dir: string; index: EntryIndex; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const index = openIndex(join(dir, "index.db"));
  return {
    dir,
    index,
    done: () => {
      index.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The LoreError a call (sync or async) throws; fails when it does not throw one. */
export async function refusalOf(fn: () => unknown): Promise<LoreError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof LoreError) return error;
    throw error;
  }
  throw new Error("expected a LoreError, nothing was thrown");
}

/** A UUIDv7 minter counting up from `start` (ids sort in minting order). */
export function counterMinter(start = 1): () => string {
  let n = start;
  return () => `0190f5a4-3b2c-7d10-8a11-${(n++).toString(16).padStart(12, "0")}`;
}
