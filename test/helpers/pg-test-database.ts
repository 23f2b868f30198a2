/**
 * Throw-away PostgreSQL databases for tests of the server store on PostgreSQL. The cluster
 * comes from `LORE_TEST_PG_URL` (`.ci/run` starts one with initdb/pg_ctl in a temp folder
 * on a unix socket); each test file makes a database of its own and drops it after, and a
 * case may take a schema of its own inside it (`options=-c search_path=…`).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll } from "vitest";

/** The cluster's URL, or undefined: the PostgreSQL tests then skip, saying why. */
export const TEST_PG_URL: string | undefined = process.env.LORE_TEST_PG_URL || undefined;

/** Why the PostgreSQL tests skip (shown as the skipped suite's title). */
export const PG_SKIP_REASON =
  "PostgreSQL tests skipped: set LORE_TEST_PG_URL to a throw-away cluster's URL (.ci/run starts one)";

/**
 * The URL with another database name (the path), keeping user, host and query.
 *
 * @param url - `postgres[ql]://user@host/db?…` (host may be empty with `?host=/socket`).
 * @param database - the name to put in.
 */
export function withDatabase(url: string, database: string): string {
  const match = /^(postgres(?:ql)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/i.exec(url);
  if (match === null) throw new Error(`not a PostgreSQL URL: ${url}`);
  return `${match[1]}/${database}${match[2] ?? ""}`;
}

/**
 * The URL whose connections use one schema (`search_path`).
 *
 * @param url - a PostgreSQL URL.
 * @param schema - a schema name (lower-case letters, digits, `_`).
 */
export function withSchema(url: string, schema: string): string {
  return `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

/** A database made for one test file. */
export interface TestDatabase {
  /** Its URL. */
  url: string;
  /** Runs SQL on it (a short-lived connection). */
  sql(text: string, params?: unknown[]): Promise<pg.QueryResult>;
  /** A fresh schema in it; answers the URL whose connections use it. */
  schema(): Promise<{ name: string; url: string }>;
  /** Drops the database (every connection to it must be closed). */
  drop(): Promise<void>;
}

async function run(url: string, text: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

/**
 * Creates a database of its own on the test cluster.
 *
 * @param label - a word for its name (`lore_<label>_<random>`).
 * @throws when `LORE_TEST_PG_URL` is not set.
 */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  if (TEST_PG_URL === undefined) throw new Error(PG_SKIP_REASON);
  const admin = TEST_PG_URL;
  const name = `lore_${label}_${randomBytes(4).toString("hex")}`;
  await run(admin, `CREATE DATABASE ${name}`);
  const url = withDatabase(admin, name);
  let schemas = 0;
  return {
    url,
    sql: (text, params) => run(url, text, params),
    async schema() {
      schemas += 1;
      const schema = `s${schemas}_${randomBytes(3).toString("hex")}`;
      await run(url, `CREATE SCHEMA ${schema}`);
      return { name: schema, url: withSchema(url, schema) };
    },
    async drop() {
      await run(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * A fresh schema's URL per call, in one PostgreSQL database made on the first call and
 * dropped after the test file (an `afterAll` is registered now: call at a file's top
 * level); `undefined` without `LORE_TEST_PG_URL`. The engines helpers' PostgreSQL side.
 *
 * @param label - a word for the database's name.
 */
export function freshSchemas(label: string): (() => Promise<string>) | undefined {
  if (TEST_PG_URL === undefined) return undefined;
  let db: Promise<TestDatabase> | undefined;
  afterAll(async () => {
    if (db !== undefined) await (await db).drop();
  });
  return async () => {
    db ??= createTestDatabase(label);
    return (await (await db).schema()).url;
  };
}
