import { flag, intOption, printJson, stringOption } from "../args.js";
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
  "lore branch protect <owner/name> <pattern> [--push anna,group:leads] [--allow-force] [--approvals N]",
  "lore branch unprotect <owner/name> <pattern>",
  "lore branch rules <owner/name> [--json]",
];

/** `lore branch protect|unprotect|rules`: branch protection of hosted repositories. */
export const branchCommand: Command = {
  name: "branch",
  summary:
    "team server: protect branches (who may push, force pushes, required approvals) of a repository",
  help: [
    ...USAGE.map((line, i) => `${i === 0 ? "Usage: " : "       "}${line}`),
    "",
    ...ADMIN_MODES_HELP,
    "",
    "A pattern is a branch name where * and ? match (main, release/*), without refs/heads/.",
    "Pushes to a matching branch are refused unless the pusher is listed in --push (users",
    "and group:NAME; none listed: anyone with write access); force pushes and deletions are",
    "refused unless --allow-force. A merge request into a matching branch needs --approvals",
    "approvals (by users other than its author) before it can be merged (lore mr merge).",
    "Protecting a pattern again replaces its rule.",
    "",
    "Options:",
    "  --push LIST     who may push: users and group:NAME, comma-separated (protect)",
    "  --allow-force   allow force pushes and deletions (protect)",
    "  --approvals N   approvals a merge request into it needs, 0-100 (protect; default 0)",
    "  --json          print the rules as JSON (rules)",
    "",
    "Exit codes: 0 done, 2 invalid pattern, 3 no such repository, user or group.",
  ].join("\n"),
  options: {
    push: { type: "string" },
    "allow-force": { type: "boolean" },
    approvals: { type: "string" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const { sub, rest } = takeSubcommand(args, ["protect", "unprotect", "rules"], USAGE);
    return withAdmin(ctx, async (admin) => {
      if (sub === "protect") {
        onlyOptions(args, ["push", "allow-force", "approvals"], "branch protect");
        expectPositionals(rest, 2, 2, USAGE);
        const push = (stringOption(args, "push") ?? "")
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s.length > 0);
        const [repo, pattern] = rest as [string, string];
        const approvals = intOption(args, "approvals", { min: 0, max: 100 }) ?? 0;
        await admin.protectBranch({
          repo,
          pattern,
          push,
          allowForcePush: flag(args, "allow-force"),
          requiredApprovals: approvals,
        });
        const who = push.length === 0 ? "anyone with write access" : push.join(", ");
        const whoRu = push.length === 0 ? "все с правом записи" : push.join(", ");
        const force = flag(args, "allow-force");
        say(
          ctx,
          `${repo} ${pattern}: protected; push: ${who}; force pushes ${force ? "allowed" : "refused"}${approvals > 0 ? `; approvals to merge: ${approvals}` : ""}`,
          `${repo} ${pattern}: защищена; отправка: ${whoRu}; принудительная отправка ${force ? "разрешена" : "запрещена"}${approvals > 0 ? `; одобрений для слияния: ${approvals}` : ""}`,
        );
      } else if (sub === "unprotect") {
        onlyOptions(args, [], "branch unprotect");
        expectPositionals(rest, 2, 2, USAGE);
        const [repo, pattern] = rest as [string, string];
        const had = await admin.unprotectBranch({ repo, pattern });
        say(
          ctx,
          had ? `${repo} ${pattern}: no longer protected` : `${repo} had no rule for ${pattern}`,
          had ? `${repo} ${pattern}: защита снята` : `у ${repo} нет правила для ${pattern}`,
        );
      } else {
        onlyOptions(args, ["json"], "branch rules");
        expectPositionals(rest, 1, 1, USAGE);
        const list = await admin.listBranchRules(rest[0] as string);
        if (flag(args, "json")) printJson(ctx.out, list);
        else if (list.length === 0) say(ctx, "no protected branches", "защищённых веток нет");
        else {
          for (const rule of list) {
            const who =
              rule.push.length === 0
                ? ctx.lang === "ru"
                  ? "все с правом записи"
                  : "anyone with write access"
                : rule.push.join(", ");
            const force = rule.allowForcePush
              ? ctx.lang === "ru"
                ? "принудительно: да"
                : "force: allowed"
              : ctx.lang === "ru"
                ? "принудительно: нет"
                : "force: refused";
            // Shown only when asked for: a rule without approvals reads as before.
            const approvals =
              rule.requiredApprovals === 0
                ? ""
                : ctx.lang === "ru"
                  ? `  одобрений: ${rule.requiredApprovals}`
                  : `  approvals: ${rule.requiredApprovals}`;
            ctx.out(`${rule.pattern}  push: ${who}  ${force}${approvals}`);
          }
        }
      }
      return EXIT_CODES.ok;
    });
  },
};
