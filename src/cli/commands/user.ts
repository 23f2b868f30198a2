import { flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import {
  ADMIN_MODES_HELP,
  expectPositionals,
  formatTime,
  onlyOptions,
  say,
  takeSubcommand,
  withAdmin,
} from "../server-admin.js";

const USAGE = [
  "lore user add <name> [--admin] [--json]",
  "lore user list [--json]",
  "lore user rm <name>",
];

/** `lore user add|list|rm`: the team server's users, on its database or over its API. */
export const userCommand: Command = {
  name: "user",
  summary: "team server: add, list and remove users (lore user add anna)",
  help: [
    ...USAGE.map((line, i) => `${i === 0 ? "Usage: " : "       "}${line}`),
    "",
    ...ADMIN_MODES_HELP,
    "",
    "A name is 1–100 of a-z, 0-9, “.”, “_”, “-”, not starting with “-” or “.”. Removing a",
    "user removes their tokens, SSH keys, grants, group memberships and usage counters; the",
    "server's only site admin stays (last_admin: make another first).",
    "",
    "Options:",
    "  --admin  the user administers the server (admin on every repository)",
    "  --json   print the user (add) or the users (list) as JSON",
    "",
    "Exit codes: 0 done, 2 invalid name, 3 no such user (rm), 4 the user already exists (add).",
  ].join("\n"),
  options: { admin: { type: "boolean" }, json: { type: "boolean" } },
  async run(ctx, args) {
    const { sub, rest } = takeSubcommand(args, ["add", "list", "rm"], USAGE);
    return withAdmin(ctx, async (admin) => {
      if (sub === "add") {
        onlyOptions(args, ["admin", "json"], "user add");
        expectPositionals(rest, 1, 1, USAGE);
        const user = await admin.addUser({
          name: rest[0] as string,
          siteAdmin: flag(args, "admin"),
        });
        if (flag(args, "json")) printJson(ctx.out, user);
        else {
          const admin = user.siteAdmin;
          say(
            ctx,
            `user ${user.name} added${admin ? " (site admin)" : ""}; next: lore token create ${user.name} --scopes …`,
            `пользователь ${user.name} добавлен${admin ? " (администратор сервера)" : ""}; дальше: lore token create ${user.name} --scopes …`,
          );
        }
      } else if (sub === "list") {
        onlyOptions(args, ["json"], "user list");
        expectPositionals(rest, 0, 0, USAGE);
        const list = await admin.listUsers();
        if (flag(args, "json")) printJson(ctx.out, list);
        else if (list.length === 0)
          say(
            ctx,
            "no users yet; add one: lore user add NAME",
            "пользователей пока нет; добавьте: lore user add ИМЯ",
          );
        else {
          for (const user of list) {
            const admin = user.siteAdmin
              ? ctx.lang === "ru"
                ? "  администратор"
                : "  site admin"
              : "";
            ctx.out(`${user.name}${admin}  ${formatTime(user.createdAt, ctx.lang)}`);
          }
        }
      } else {
        onlyOptions(args, [], "user rm");
        expectPositionals(rest, 1, 1, USAGE);
        await admin.removeUser(rest[0] as string);
        say(
          ctx,
          `user ${rest[0]} removed with their tokens, keys, grants and memberships`,
          `пользователь ${rest[0]} удалён вместе с токенами, ключами, правами и членством в группах`,
        );
      }
      return EXIT_CODES.ok;
    });
  },
};
