/**
 * The team server on PostgreSQL as users run it (scale-out): the built `lore` with
 * `[server] database` set — `lore serve` keeps its users and tokens there, the
 * administration CLI beside it writes there too, no `server.db` is made — and `lore db
 * migrate --to` moving a SQLite server database over with the index's usage counters,
 * refusing a second time. Needs
 * `LORE_TEST_PG_URL` (a throw-away cluster; `.ci/run` starts one); skips without it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openIndex } from "../../src/index/entry-index.js";
import { sqliteDraftStore } from "../../src/services/drafts/sqlite-draft-store.js";
import { draftOf } from "../helpers/draft-store-contract.js";
import { makeRepo } from "../helpers/make-repo.js";
import {
  createTestDatabase,
  PG_SKIP_REASON,
  TEST_PG_URL,
  type TestDatabase,
} from "../helpers/pg-test-database.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

if (TEST_PG_URL === undefined) {
  describe.skip(PG_SKIP_REASON, () => {
    it("serves and administers the team server on PostgreSQL", () => undefined);
  });
} else {
  let db: TestDatabase;
  let sandbox: ReturnType<typeof isolatedEnv>;
  beforeAll(async () => {
    db = await createTestDatabase("e2e");
    sandbox = isolatedEnv();
  });
  afterAll(async () => {
    await db?.drop();
    sandbox?.cleanup();
  });

  /** A lore.toml in its own folder; answers its path. */
  function config(name: string, toml: string): string {
    const dir = join(sandbox.dir, name);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "lore.toml");
    writeFileSync(file, toml);
    return file;
  }

  describe("lore serve and the administration CLI on [server] database", () => {
    let served: ServedLore | undefined;
    afterAll(async () => {
      await served?.stop();
    });

    it("keeps the owner, users, tokens and repositories in PostgreSQL, not in server.db", async () => {
      const schema = await db.schema();
      const file = config("serve", `[server]\ndatabase = ${JSON.stringify(schema.url)}\n`);
      const env = sandbox.env;
      served = await startServe(["--port", "0", "--config", file], { cwd: sandbox.dir, env });
      const me = await fetch(new URL("/api/v1/user", served.url), { headers: served.headers });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { name: string }).name).toBe("tester");
      const lore = (...args: string[]) =>
        runLore([...args, "--config", file], { cwd: sandbox.dir, env });
      expect((await lore("user", "add", "anna")).code).toBe(0);
      expect((await lore("user", "add", "anna")).stderr).toBe(
        "lore: the user anna already exists [user_exists]\n",
      );
      expect((await lore("repo", "create", "acme/app")).code).toBe(0);
      expect((await lore("access", "grant", "anna", "acme/app", "write")).code).toBe(0);
      const users = JSON.parse((await lore("user", "list", "--json")).stdout) as {
        name: string;
      }[];
      expect(users.map((u) => u.name)).toEqual(["anna", "tester"]);
      // The server sees the CLI's writes at once: one database.
      const repos = await fetch(new URL("/api/v1/repos", served.url), { headers: served.headers });
      expect(JSON.stringify(await repos.json())).toContain("acme/app");
      const rows = await db.sql(
        `SELECT (SELECT count(*) FROM ${schema.name}.users)::int AS users,
                (SELECT count(*) FROM ${schema.name}.tokens)::int AS tokens,
                (SELECT count(*) FROM ${schema.name}.grants)::int AS grants`,
      );
      expect(rows.rows).toEqual([{ users: 2, tokens: 1, grants: 1 }]);
      expect(existsSync(join(env.XDG_DATA_HOME as string, "lore", "server", "server.db"))).toBe(
        false,
      );
    });

    it("answers 503 database_unavailable while the database is gone, and says why", async () => {
      const gone = await createTestDatabase("gone");
      const file = config("gone", `[server]\ndatabase = ${JSON.stringify(gone.url)}\n`);
      // A server of its own: its data folder and its index file.
      const env = {
        ...sandbox.env,
        XDG_DATA_HOME: join(sandbox.dir, "gone-data"),
        LORE_DB: join(sandbox.dir, "gone-data", "index.db"),
      };
      const server = await startServe(["--port", "0", "--config", file], { cwd: sandbox.dir, env });
      try {
        const me = () => fetch(new URL("/api/v1/user", server.url), { headers: server.headers });
        expect((await me()).status).toBe(200);
        await gone.drop(); // WITH (FORCE): the server's connections are ended
        const down = await me();
        expect(down.status).toBe(503);
        const body = JSON.stringify(await down.json());
        expect(body).toContain("database_unavailable");
        expect(body).toContain("the server database cannot be reached");
        expect((await fetch(new URL("/healthz", server.url))).status).toBe(200);
      } finally {
        await server.stop();
      }
    });

    it("says database_unavailable (exit 6) when PostgreSQL cannot be reached, without the password", async () => {
      const file = config(
        "down",
        `[server]\ndatabase = "postgres://lore:hunter2-secret@127.0.0.1:1/lore"\n`,
      );
      const run = await runLore(["user", "list", "--config", file], {
        cwd: sandbox.dir,
        env: sandbox.env,
      });
      expect(run.code).toBe(6);
      expect(run.stderr).toMatch(
        /^lore: the server database cannot be reached: .*ECONNREFUSED.* \[database_unavailable\]\n$/,
      );
      expect(run.stderr).not.toContain("hunter2-secret");
    });
  });

  describe("the push hooks on [server] database", () => {
    it("read branch protection from PostgreSQL: a push goes through, a force push is refused", async () => {
      const schema = await db.schema();
      const data = join(sandbox.dir, "hook-data");
      const file = config(
        "hook",
        `[server]\ndata = ${JSON.stringify(data)}\ndatabase = ${JSON.stringify(schema.url)}\n`,
      );
      const lore = (...args: string[]) =>
        runLore([...args, "--config", file], { cwd: sandbox.dir, env: sandbox.env });
      expect((await lore("repo", "create", "acme/app")).code).toBe(0);
      expect((await lore("branch", "protect", "acme/app", "main")).code).toBe(0);
      expect(existsSync(join(data, "server.db"))).toBe(false);
      const work = await makeRepo({ "notes.md": "one\n" });
      try {
        const git = (...args: string[]) =>
          spawnSync("git", args, { cwd: work.dir, env: sandbox.env, encoding: "utf8" });
        const bare = join(data, "repos", "acme", "app.git");
        expect(git("push", bare, "main").status).toBe(0);
        writeFileSync(join(work.dir, "notes.md"), "two\n");
        expect(git("commit", "-q", "--amend", "-a", "-m", "rewritten").status).toBe(0);
        const forced = git("push", "--force", bare, "main");
        expect(forced.status).not.toBe(0);
        expect(forced.stderr).toContain("[branch_protected]");
        expect(forced.stderr).not.toContain("cannot be read");
      } finally {
        await work.cleanup();
      }
    });
  });

  describe("lore db migrate --to", () => {
    it("moves a SQLite server database, prints the verified counts, and refuses a second time", async () => {
      const data = join(sandbox.dir, "sqlite-data");
      const file = config("sqlite", `[server]\ndata = ${JSON.stringify(data)}\n`);
      const lore = (...args: string[]) =>
        runLore([...args, "--config", file], { cwd: sandbox.dir, env: sandbox.env });
      expect((await lore("user", "add", "bob", "--admin")).code).toBe(0);
      expect((await lore("user", "add", "vera")).code).toBe(0);
      expect((await lore("token", "create", "bob", "--scopes", "repo:read")).code).toBe(0);
      expect((await lore("repo", "create", "acme/lib")).code).toBe(0);
      // Counts in the server's index (the file lore serve counts in on SQLite).
      const index = openIndex(sandbox.env.LORE_DB as string);
      const id = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
      index.recordShown("vera", [{ repo: "acme/lib", id }], Date.UTC(2026, 2, 1));
      index.recordShown("vera", [{ repo: "acme/lib", id }], Date.UTC(2026, 2, 2));
      index.recordRead("bob", { repo: "acme/lib", id }, Date.UTC(2026, 2, 2));
      // And a load receipt of a recall on it, with two hits.
      const hit = { repo: "acme/lib", id, revision: "c".repeat(40), draft: false, why: [] };
      const receiptId = index.receipts.write({
        at: Date.UTC(2026, 2, 2),
        user: "vera",
        client: "claude-code",
        session: null,
        query: "rollback",
        tool: null,
        offset: 0,
        limit: 10,
        total: 2,
        hits: [
          { ...hit, rank: 1, score: 2 },
          { ...hit, rank: 2, score: 1, draft: true },
        ],
      });
      // And a draft of the repository, written as lore serve on SQLite writes one.
      const draft = draftOf(9, "vera", "acme/lib");
      await sqliteDraftStore(index).insert(draft.draft, draft.entry, 200);
      index.close();
      const target = await db.schema();
      const moved = await lore("db", "migrate", "--to", target.url);
      expect(moved.stderr).toBe("");
      expect(moved.code).toBe(0);
      expect(moved.stdout).toContain(`copied ${join(data, "server.db")} to `);
      expect(moved.stdout).toMatch(/\n {2}users +2\n/);
      expect(moved.stdout).toMatch(/\n {2}tokens +1\n/);
      expect(moved.stdout).toMatch(
        /\n {2}counters +2\n {2}usage_days +3\n {2}receipts +1\n {2}receipt_hits +2\n {2}drafts +1\n {2}draft_changes +1\n/,
      );
      expect(moved.stdout).toMatch(/20 tables, 14 rows; the counts match on both sides\n$/);
      const drafts = await db.sql(`SELECT repo, id, author, text FROM ${target.name}.drafts`);
      expect(drafts.rows).toEqual([
        { repo: "acme/lib", id: draft.draft.id, author: "vera", text: draft.draft.text },
      ]);
      const receipts = await db.sql(`SELECT public_id, user_name FROM ${target.name}.receipts`);
      expect(receipts.rows).toEqual([{ public_id: receiptId, user_name: "vera" }]);
      const counted = await db.sql(
        `SELECT user_name, shown::int, read::int FROM ${target.name}.counters ORDER BY user_name`,
      );
      expect(counted.rows).toEqual([
        { user_name: "bob", shown: 0, read: 1 },
        { user_name: "vera", shown: 2, read: 0 },
      ]);
      const pgConfig = config(
        "after",
        `[server]\ndata = ${JSON.stringify(data)}\ndatabase = ${JSON.stringify(target.url)}\n`,
      );
      const list = await runLore(["user", "list", "--json", "--config", pgConfig], {
        cwd: sandbox.dir,
        env: sandbox.env,
      });
      expect((JSON.parse(list.stdout) as { name: string }[]).map((u) => u.name)).toEqual([
        "bob",
        "vera",
      ]);
      const again = await lore("db", "migrate", "--to", target.url, "--json");
      expect(again.code).toBe(4);
      expect(again.stderr).toContain("[migration_target_not_empty]");
      const json = await lore(
        "db",
        "migrate",
        "--to",
        (await db.schema()).url,
        "--json",
        "--data",
        data,
      );
      expect(json.code).toBe(0);
      const report = JSON.parse(json.stdout) as { tables: { table: string; rows: number }[] };
      expect(report.tables.find((t) => t.table === "repos")?.rows).toBe(1);
      expect(report.tables.find((t) => t.table === "counters")?.rows).toBe(2);
      const bad = await lore("db", "migrate", "--to", "mysql://x/y");
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--to needs a PostgreSQL URL");
    });
  });
}
