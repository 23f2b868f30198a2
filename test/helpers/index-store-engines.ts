/**
 * The index store's engines for the team server's tests (scale-out: the index's records
 * on two engines): SQLite — no store of its own, the server's view of its SQLite index —
 * always, and PostgreSQL (`openPgIndexStore` on a fresh schema) when `LORE_TEST_PG_URL`
 * names a throw-away cluster. Use with `describe.each(indexStoreEngines("label"))("… ($name)",
 * (engine) => …)`.
 */
import { openPgIndexStore } from "../../src/index/index-store/pg-index-store.js";
import type { IndexStore } from "../../src/ports/index-store.js";
import { freshSchemas } from "./pg-test-database.js";

/** One engine of the index store. */
export interface IndexStoreEngine {
  /** `SQLite` or `PostgreSQL`. */
  name: string;
  /** Opens a fresh, empty store; `undefined` for SQLite (the server's index is its store). */
  open(): Promise<IndexStore | undefined>;
}

/**
 * The engines to run a test file's cases on. Call at the top level of a test file: with
 * PostgreSQL it registers an `afterAll` that drops the file's database.
 *
 * @param label - a word for the PostgreSQL database's name.
 */
export function indexStoreEngines(label: string): IndexStoreEngine[] {
  const engines: IndexStoreEngine[] = [{ name: "SQLite", open: async () => undefined }];
  const schema = freshSchemas(label);
  if (schema !== undefined) {
    engines.push({
      name: "PostgreSQL",
      open: async () => openPgIndexStore(await schema(), { poolSize: 4 }),
    });
  }
  return engines;
}
