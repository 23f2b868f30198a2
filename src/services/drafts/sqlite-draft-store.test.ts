/**
 * The drafts port on SQLite: the engine-neutral contract (`test/helpers/draft-store-contract.ts`)
 * over a real index file, each "server" a connection (an `EntryIndex`) of its own on it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeDraftStoreContract } from "../../../test/helpers/draft-store-contract.js";
import { openIndex } from "../../index/entry-index.js";
import { sqliteDraftStore } from "./sqlite-draft-store.js";

let dir: string | undefined;

describeDraftStoreContract("SQLite", {
  async fresh() {
    dir = mkdtempSync(join(tmpdir(), "lore-draft-store-"));
  },
  async open() {
    const index = openIndex(join(dir as string, "index.db"));
    return { drafts: sqliteDraftStore(index), index, close: async () => index.close() };
  },
  async dispose() {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  },
});
