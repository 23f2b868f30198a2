/**
 * One transaction on one connection of a PostgreSQL pool (the server store on PostgreSQL,
 * the full text on PostgreSQL): BEGIN, the work, COMMIT; ROLLBACK on any throw.
 */
import type pg from "pg";

/**
 * Runs `work` in one transaction on one connection of `pool`.
 *
 * @param pool - the pool.
 * @param work - the statements, on the transaction's client; its result is returned.
 * @param fail - turns an error of the connection or of the work into the error thrown
 *   (e.g. `pgServerDbError`: `database_unavailable`, `index_failed`).
 * @returns what `work` returns.
 */
export async function inPgTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  fail: (error: unknown) => Error,
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw fail(error);
  }
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw fail(error);
  } finally {
    client.release();
  }
}
