import { join, resolve } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import { flag, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { expectPositionals, onlyOptions, say, takeSubcommand } from "../server-admin.js";

const USAGE = [
  "lore db migrate --to postgres://USER[:PASSWORD]@HOST[:PORT]/DB [--data DIR] [--json]",
];

/**
 * `lore db migrate --to URL [--data DIR] [--json]` (scale-out: PostgreSQL as the team
 * server's database): copies the SQLite server database `<data>/server.db` into an empty
 * PostgreSQL database in one transaction, ids and sequences kept, with the SQLite index's
 * usage counters and their days and its load receipts (`[index] database`), and prints the
 * rows of each table after comparing them on both sides.
 *
 * @throws LoreError `invalid_input` (no `--to`, not a postgres:// URL), `path_not_found`
 *   (no server.db), `migration_target_not_empty` (exit 4), `migration_mismatch` (exit 1),
 *   `database_unavailable` (exit 6), `index_failed`.
 */
export const dbCommand: Command = {
  name: "db",
  summary: "move the team server's database from SQLite to PostgreSQL (db migrate --to URL)",
  help: [
    `Usage: ${USAGE[0]}`,
    "",
    "Copies the team server's SQLite database (server.db in the data folder) into an EMPTY",
    "PostgreSQL database: users, groups and members, tokens (their hashes), SSH keys,",
    "repositories, grants, branch rules, draft limits, merge requests and approvals, rate",
    "windows and web sessions, every id kept and each id sequence moved past the largest id",
    "SQLite ever gave; and from the index ([index] database) the usage counters and their",
    "days, the load receipts with their hits (ids and order kept) and the drafts. One",
    "transaction: the rows of every table (and the counters' shown/read totals, the drafts'",
    "bytes) are compared on both sides before it commits, so the copy is whole or absent.",
    "Stop lore serve first, then set [server] database to the URL. The rest of the index",
    "(entries, their full text) stays in the SQLite index, where lore serve reads it.",
    "",
    "Options:",
    "  --to URL     the PostgreSQL database (postgres:// or postgresql://)",
    "  --data DIR   the data folder holding server.db; default: [server] data",
    "  --json       print {target, tables: [{table, rows}]} as JSON",
    "",
    "Exit codes: 0 copied and verified, 2 bad option, 3 no server.db, 4 the target holds",
    "Lore data (migration_target_not_empty), 6 PostgreSQL cannot be reached",
    "(database_unavailable), 1 the counts differ (migration_mismatch; nothing is kept).",
  ].join("\n"),
  options: {
    to: { type: "string" },
    data: { type: "string" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const { rest } = takeSubcommand(args, ["migrate"], USAGE);
    onlyOptions(args, ["to", "data", "json"], "db migrate");
    expectPositionals(rest, 0, 0, USAGE);
    const to = stringOption(args, "to");
    if (to === undefined || !/^postgres(ql)?:\/\//i.test(to)) {
      throw new LoreError("invalid_input", {
        reason: `--to needs a PostgreSQL URL (postgres://…); usage: ${USAGE[0]}`,
        reason_ru: `для --to нужен адрес PostgreSQL (postgres://…); использование: ${USAGE[0]}`,
      });
    }
    const dataOption = stringOption(args, "data");
    const data =
      dataOption === undefined ? ctx.settings().server.data : resolve(ctx.cwd, dataOption);
    const { SERVER_DB_FILE } = await import("../../index/server-store/sqlite-server-store.js");
    const { copyServerStoreToPg } = await import("../../index/server-store/copy-to-pg.js");
    const { redactDatabaseUrl } = await import("../../index/server-store/pg-db-error.js");
    // The counters, their days and the load receipts from the server's index (the file
    // `lore serve` reads).
    const { serverIndexFile } = await import("../../main/server-index-file.js");
    const settings = ctx.settings();
    const tables = await copyServerStoreToPg(
      join(data, SERVER_DB_FILE),
      to,
      serverIndexFile({ ...settings, server: { ...settings.server, data } }),
    );
    const target = redactDatabaseUrl(to);
    if (flag(args, "json")) {
      printJson(ctx.out, { target, tables });
      return EXIT_CODES.ok;
    }
    const width = Math.max(...tables.map((t) => t.table.length));
    say(
      ctx,
      `copied ${join(data, SERVER_DB_FILE)} to ${target}:`,
      `скопировано ${join(data, SERVER_DB_FILE)} в ${target}:`,
    );
    for (const { table, rows } of tables) ctx.out(`  ${table.padEnd(width)}  ${rows}`);
    const total = tables.reduce((sum, t) => sum + t.rows, 0);
    say(
      ctx,
      `${tables.length} tables, ${total} rows; the counts match on both sides`,
      `${tables.length} таблиц, ${total} строк; число строк совпадает в обеих базах`,
    );
    return EXIT_CODES.ok;
  },
};
