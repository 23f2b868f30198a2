import { flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import {
  ADMIN_MODES_HELP,
  expectPositionals,
  onlyOptions,
  say,
  takeSubcommand,
  withAdmin,
} from "../server-admin.js";

const USAGE = [
  "lore group add <group>",
  "lore group list [--json]",
  "lore group rm <group>",
  "lore group member add|rm <group> <user>",
  "lore group member list <group> [--json]",
];

/** `lore group add|list|rm|member`: groups of the team server's users. */
export const groupCommand: Command = {
  name: "group",
  summary: "team server: groups of users and their members",
  help: [
    ...USAGE.map((line, i) => `${i === 0 ? "Usage: " : "       "}${line}`),
    "",
    "A grant to a group (lore access grant group:NAME …) applies to every member. Names are",
    "as user names. Removing a group removes its memberships and grants.",
    "",
    ...ADMIN_MODES_HELP,
    "",
    "Options:",
    "  --json   print the groups with their members (list) or the members (member list) as JSON",
    "",
    "Exit codes: 0 done, 2 invalid name, 3 no such group or user, 4 the group already exists.",
  ].join("\n"),
  options: { json: { type: "boolean" } },
  async run(ctx, args) {
    const { sub, rest } = takeSubcommand(args, ["add", "list", "rm", "member"], USAGE);
    return withAdmin(ctx, async (admin) => {
      if (sub === "add") {
        onlyOptions(args, [], "group add");
        expectPositionals(rest, 1, 1, USAGE);
        const group = await admin.addGroup(rest[0] as string);
        say(ctx, `group ${group.name} added`, `группа ${group.name} добавлена`);
      } else if (sub === "list") {
        onlyOptions(args, ["json"], "group list");
        expectPositionals(rest, 0, 0, USAGE);
        const list = await admin.listGroups();
        if (flag(args, "json")) printJson(ctx.out, list);
        else if (list.length === 0) say(ctx, "no groups", "групп нет");
        else for (const g of list) ctx.out(`${g.name}: ${g.members.join(", ") || "—"}`);
      } else if (sub === "rm") {
        onlyOptions(args, [], "group rm");
        expectPositionals(rest, 1, 1, USAGE);
        await admin.removeGroup(rest[0] as string);
        say(ctx, `group ${rest[0]} removed`, `группа ${rest[0]} удалена`);
      } else {
        const [action, group, user] = rest;
        if (action === "list") {
          onlyOptions(args, ["json"], "group member list");
          expectPositionals(rest, 2, 2, USAGE);
          const members = await admin.listMembers(group as string);
          if (flag(args, "json")) printJson(ctx.out, members);
          else if (members.length === 0)
            say(ctx, `${group} has no members`, `в группе ${group} нет участников`);
          else for (const name of members) ctx.out(name);
          return EXIT_CODES.ok;
        }
        onlyOptions(args, [], "group member");
        expectPositionals(rest, 3, 3, USAGE);
        if (action === "add") {
          await admin.addMember(group as string, user as string);
          say(ctx, `${user} is a member of ${group}`, `${user} — участник группы ${group}`);
        } else if (action === "rm") {
          const was = await admin.removeMember(group as string, user as string);
          say(
            ctx,
            was ? `${user} removed from ${group}` : `${user} was not a member of ${group}`,
            was
              ? `${user} исключён из группы ${group}`
              : `${user} не был участником группы ${group}`,
          );
        } else {
          takeSubcommand({ values: {}, positionals: rest }, ["add", "rm", "list"], USAGE);
        }
      }
      return EXIT_CODES.ok;
    });
  },
};
