import { LoreError } from "../../core/errors/lore-error.js";
import { atMostPositionals, flag, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { say } from "../server-admin.js";

const USAGE =
  "lore deliver [--branch-mode same|separate] [--label L] [--branch B] [--repo R] [--forge] [--json]";

/**
 * `lore deliver` (seed 004 "Как знание выходит наружу"): the drafts of a branch become files
 * `.gitriver/knowledge/<id>.md` in one commit (per 10 MB), into the branch itself (`same`)
 * or `knowledge/<branch>-<label>` (`separate`); locally into the working repository without
 * touching uncommitted work, or on the team server when `[server] url` is set.
 */
export const deliverCommand: Command = {
  name: "deliver",
  summary: "commit a branch's knowledge drafts as entry files, for review",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Commits the drafts of the branch (default: the checked-out one) as files",
    ".gitriver/knowledge/<id>.md, one commit per 10 MB; author: you, committer: Lore.",
    "--branch-mode same (default) commits into the branch itself, so the knowledge is",
    "reviewed in its merge request; separate commits into knowledge/<branch>-<label> made",
    "from the default branch (on the team server with its own merge request). Locally the",
    "commit is written with git plumbing: your uncommitted changes are left as they are.",
    "A delivered draft stays a draft until its file reaches the default branch.",
    "",
    "Options:",
    "  --branch-mode M  same (default) or separate",
    "  --label L        the separate branch's label (default: the time, YYYYMMDD-HHMMSS)",
    "  --branch B       the branch whose drafts are delivered",
    "  --repo R         a folder locally, owner/name on the team server",
    "  --forge          locally: commit through the API of the configured Gitea ([forge]),",
    "                   into the repository the origin remote names there, with a pull",
    "                   request marked lore:machine for --branch-mode separate",
    "  --json           print the answer as JSON",
    "",
    "Exit codes: 0 done (also when nothing was to deliver), 2 bad options, 3 no such branch,",
    "4 the separate branch exists or a file is in the way, 5 the branch is protected,",
    "6 the team server does not answer.",
  ].join("\n"),
  options: {
    "branch-mode": { type: "string" },
    label: { type: "string" },
    branch: { type: "string" },
    repo: { type: "string" },
    forge: { type: "boolean" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    const mode = stringOption(args, "branch-mode") ?? "same";
    if (mode !== "same" && mode !== "separate") {
      throw new LoreError("invalid_input", {
        reason: `--branch-mode must be same or separate, not “${mode}”`,
        reason_ru: `--branch-mode должен быть same или separate, а не «${mode}»`,
      });
    }
    const lore = await ctx.openLore();
    const { machineDraftsPort } = await import("../../main/compose-drafts.js");
    const drafts = machineDraftsPort(lore, { cwd: ctx.cwd, env: process.env });
    const repo = stringOption(args, "repo");
    const branch = stringOption(args, "branch");
    const label = stringOption(args, "label");
    const answer = await drafts.deliver({
      mode,
      ...(repo === undefined ? {} : { repo }),
      ...(branch === undefined ? {} : { branch }),
      ...(label === undefined ? {} : { label }),
      ...(flag(args, "forge") ? { forge: true } : {}),
    });
    if (flag(args, "json")) printJson(ctx.out, answer);
    else if (answer.delivered.length === 0) say(ctx, "nothing to deliver", "доставлять нечего");
    else {
      const n = answer.delivered.length;
      const mr =
        answer.merge_request === undefined ? "" : `, merge request #${answer.merge_request}`;
      const mrRu =
        answer.merge_request === undefined ? "" : `, запрос на слияние #${answer.merge_request}`;
      say(
        ctx,
        `${n} draft(s) delivered into ${answer.branch} in ${answer.commits.join(", ")}${mr}`,
        `доставлено черновиков: ${n}, в ${answer.branch}, коммиты ${answer.commits.join(", ")}${mrRu}`,
      );
    }
    return EXIT_CODES.ok;
  },
};
