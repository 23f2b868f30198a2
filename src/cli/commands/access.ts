import { parseAccessLevel } from "../../core/access/parse-subject.js";
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
  "lore access grant <user|group:NAME> <owner/name> read|write|admin",
  "lore access revoke <user|group:NAME> <owner/name>",
  "lore access list <owner/name> [--json]",
];

/** `lore access grant|revoke|list`: access levels per hosted repository. */
export const accessCommand: Command = {
  name: "access",
  summary: "team server: grant and revoke read, write or admin on a repository",
  help: [
    ...USAGE.map((line, i) => `${i === 0 ? "Usage: " : "       "}${line}`),
    "",
    ...ADMIN_MODES_HELP,
    "",
    "Levels: read (fetch, recall and open its knowledge), write (also push and write",
    "knowledge), admin (also administer it). A user's level is the highest of their own",
    "grant and their groups' grants; a public repository is readable by every user; a site",
    "admin has admin everywhere. A repository a user cannot read answers as a missing one.",
    "",
    "Options:",
    "  --json   print {repo, public, grants: [{subject, level}]} (list)",
    "",
    "Exit codes: 0 done, 2 invalid level, 3 no such user, group or repository.",
  ].join("\n"),
  options: { json: { type: "boolean" } },
  async run(ctx, args) {
    const { sub, rest } = takeSubcommand(args, ["grant", "revoke", "list"], USAGE);
    return withAdmin(ctx, async (admin) => {
      if (sub === "grant") {
        onlyOptions(args, [], "access grant");
        expectPositionals(rest, 3, 3, USAGE);
        const [subject, repo, levelText] = rest as [string, string, string];
        const level = parseAccessLevel(levelText);
        await admin.grantAccess({ subject, repo, level });
        say(ctx, `${subject}: ${level} on ${repo}`, `${subject}: ${level} на ${repo}`);
      } else if (sub === "revoke") {
        onlyOptions(args, [], "access revoke");
        expectPositionals(rest, 2, 2, USAGE);
        const [subject, repo] = rest as [string, string];
        const had = await admin.revokeAccess({ subject, repo });
        say(
          ctx,
          had ? `${subject}: access to ${repo} revoked` : `${subject} had no grant on ${repo}`,
          had ? `${subject}: доступ к ${repo} отозван` : `у ${subject} не было прав на ${repo}`,
        );
      } else {
        onlyOptions(args, ["json"], "access list");
        expectPositionals(rest, 1, 1, USAGE);
        const access = await admin.listAccess(rest[0] as string);
        const list = access.grants;
        if (flag(args, "json")) printJson(ctx.out, access);
        else {
          if (access.public)
            say(ctx, "public: every user reads", "публичный: читают все пользователи");
          if (list.length === 0 && !access.public)
            say(
              ctx,
              "no grants (site admins only)",
              "прав не выдано (только администраторы сервера)",
            );
          for (const grant of list) ctx.out(`${grant.subject}  ${grant.level}`);
        }
      }
      return EXIT_CODES.ok;
    });
  },
};
