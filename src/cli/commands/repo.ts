import { LoreError } from "../../core/errors/lore-error.js";
import { flag, printJson, stringOption } from "../args.js";
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
  "lore repo create <owner/name> [--public] [--default-branch main] [--json]",
  "lore repo list [--json]",
  "lore repo rm <owner/name> --yes",
];

/** `lore repo create|list|rm`: repositories hosted by the team server. */
export const repoCommand: Command = {
  name: "repo",
  summary: "team server: create, list and remove hosted repositories (bare, in the data folder)",
  help: [
    ...USAGE.map((line, i) => `${i === 0 ? "Usage: " : "       "}${line}`),
    "",
    ...ADMIN_MODES_HELP,
    "",
    "A hosted repository is a bare git repository at <data>/repos/<owner>/<name>.git, served",
    "by lore serve over HTTP and SSH. Names: owner/name, each part 1–100 of a-z, 0-9, “.”,",
    "“_”, “-”, not starting with “-” or “.”, no “..”, not ending in .git; upper case is",
    "refused (write it lower-case). rm deletes the record, its grants and branch rules and",
    "the bare folder with all its history; it asks for --yes, since nothing brings them back.",
    "",
    "Options:",
    "  --public               readable by every user of the server (still with a token)",
    "  --default-branch NAME  the branch HEAD names and the index follows (default main)",
    "  --json                 print the repository (create) or the repositories (list)",
    "  --yes                  rm: yes, delete the repository and its history",
    "",
    "Exit codes: 0 done, 2 invalid name, 3 no such repository (rm), 4 it already exists.",
  ].join("\n"),
  options: {
    public: { type: "boolean" },
    "default-branch": { type: "string" },
    yes: { type: "boolean" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const { sub, rest } = takeSubcommand(args, ["create", "list", "rm"], USAGE);
    return withAdmin(ctx, async (admin) => {
      if (sub === "create") {
        onlyOptions(args, ["public", "default-branch", "json"], "repo create");
        expectPositionals(rest, 1, 1, USAGE);
        const branch = stringOption(args, "default-branch");
        const repo = await admin.createRepo({
          fullName: rest[0] as string,
          public: flag(args, "public"),
          ...(branch === undefined ? {} : { defaultBranch: branch }),
        });
        const dir = repo.path;
        if (flag(args, "json")) printJson(ctx.out, repo);
        else {
          const kind = repo.public ? "public" : "private";
          const kindRu = repo.public ? "публичный" : "закрытый";
          say(
            ctx,
            `created ${repo.fullName} (${kind}, default branch ${repo.defaultBranch}) at ${dir}`,
            `создан ${repo.fullName} (${kindRu}, ветка по умолчанию ${repo.defaultBranch}) в ${dir}`,
          );
        }
      } else if (sub === "list") {
        onlyOptions(args, ["json"], "repo list");
        expectPositionals(rest, 0, 0, USAGE);
        const list = await admin.listRepos();
        if (flag(args, "json")) printJson(ctx.out, list);
        else if (list.length === 0)
          say(
            ctx,
            "no hosted repositories; create one: lore repo create OWNER/NAME",
            "размещённых репозиториев нет; создайте: lore repo create ВЛАДЕЛЕЦ/ИМЯ",
          );
        else {
          for (const repo of list) {
            const kind = repo.public
              ? ctx.lang === "ru"
                ? "публичный"
                : "public"
              : ctx.lang === "ru"
                ? "закрытый"
                : "private";
            ctx.out(`${repo.fullName}  ${kind}  ${repo.defaultBranch}`);
          }
        }
      } else {
        onlyOptions(args, ["yes"], "repo rm");
        expectPositionals(rest, 1, 1, USAGE);
        if (args.values.yes !== true) {
          const name = rest[0] as string;
          throw new LoreError("invalid_input", {
            reason: `lore repo rm deletes ${name} with all its history and cannot be undone; run lore repo rm ${name} --yes`,
            reason_ru: `lore repo rm удаляет ${name} со всей историей, и это не отменить; выполните lore repo rm ${name} --yes`,
          });
        }
        const dir = await admin.removeRepo(rest[0] as string);
        say(ctx, `removed ${rest[0]} and ${dir}`, `удалён ${rest[0]} и ${dir}`);
      }
      return EXIT_CODES.ok;
    });
  },
};
