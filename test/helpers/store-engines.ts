/**
 * The server store's engines for service tests (scale-out: "every service test that
 * touches the store runs twice"): SQLite always, PostgreSQL when `LORE_TEST_PG_URL` names a
 * throw-away cluster. Each engine opens the store through `openServerStore` — the one
 * function `lore serve` and the CLI use — so the selection by `[server] database` is
 * exercised too. Use with `describe.each(storeEngines("label"))("… ($name)", (engine) => …)`.
 */
import { openServerStore } from "../../src/main/open-server.js";
import type { ServerStore } from "../../src/ports/server-store.js";
import { freshSchemas } from "./pg-test-database.js";

/** One engine of the store. */
export interface StoreEngine {
  /** `SQLite` or `PostgreSQL`. */
  name: string;
  /**
   * Opens a fresh, empty store for a data folder: `<data>/server.db`, or a new schema of
   * this test file's PostgreSQL database.
   */
  open(dataDir: string): Promise<ServerStore>;
}

/**
 * The engines to run a test file's cases on. Call at the top level of a test file: with
 * PostgreSQL it registers an `afterAll` that drops the file's database.
 *
 * @param label - a word for the PostgreSQL database's name.
 */
export function storeEngines(label: string): StoreEngine[] {
  const engines: StoreEngine[] = [{ name: "SQLite", open: (dataDir) => openServerStore(dataDir) }];
  const schema = freshSchemas(label);
  if (schema !== undefined) {
    engines.push({
      name: "PostgreSQL",
      open: async (dataDir) => openServerStore(dataDir, await schema()),
    });
  }
  return engines;
}
