import type { MergeRequestView } from "../../core/merge-requests/merge-request-view.js";
import { flag, printJson, stringOption } from "../args.js";
import type { CliContext, Command, CommandArgs } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import {
  expectPositionals,
  onlyOptions,
  say,
  takeSubcommand,
  usageError,
} from "../server-admin.js";

const USAGE = [
  "lore mr list [--state open|closed|merged|all] [--repo owner/name] [--json]",
  "lore mr show N [--repo owner/name] [--json]",
  "lore mr approve N [--repo owner/name] [--json]",
  "lore mr merge N [--repo owner/name] [--json]",
  "lore mr close N [--repo owner/name] [--json]",
];

const SUBCOMMANDS = ["list", "show", "approve", "merge", "close"] as const;

/** `lore mr list|show|approve|merge|close`: merge requests on the team server. */
export const mrCommand: Command = {
  name: "mr",
  summary: "team server: list, show, approve, merge or close merge requests",
  help: [
    ...USAGE.map((line, i) => `${i === 0 ? "Usage: " : "       "}${line}`),
    "",
    "Works over the team server's API ([server] url, the token of LORE_TOKEN or [server]",
    "token in auth.toml). The repository is --repo, else the current clone's origin remote",
    "when it points at that server (…/OWNER/NAME.git).",
    "",
    "A merge makes a merge commit with two parents (also when a fast-forward would do),",
    "refused with merge_conflict on a conflict (nothing written), branch_protected when the",
    "target's protection does not let you push, approvals_required when the target needs",
    "more approvals (lore branch protect … --approvals N). You cannot approve your own.",
    "",
    "Options:",
    "  --repo OWNER/NAME  the hosted repository (default: from the origin remote)",
    "  --state S          open (default), closed, merged or all (list)",
    "  --json             print the server's answer as JSON",
    "",
    "Exit codes: 0 done, 2 invalid input, 3 no such repository or request, 4 conflict or",
    "not open, 5 not allowed (rights, protection, approvals), 6 server unreachable.",
  ].join("\n"),
  options: {
    repo: { type: "string" },
    state: { type: "string" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const { sub, rest } = takeSubcommand(args, SUBCOMMANDS, USAGE);
    onlyOptions(args, sub === "list" ? ["repo", "state", "json"] : ["repo", "json"], `mr ${sub}`);
    expectPositionals(rest, sub === "list" ? 0 : 1, sub === "list" ? 0 : 1, USAGE);
    // A usage mistake is told before anything is asked of the server.
    const number = sub === "list" ? 0 : numberArg(rest[0] as string);
    const { configuredTeamClient, serverNotConfigured } = await import("../../main/team-client.js");
    const settings = ctx.settings();
    const client = configuredTeamClient(settings, process.env);
    if (client === null) {
      const { authFilePath } = await import("../../main/load-forge.js");
      throw serverNotConfigured("url", authFilePath(process.env));
    }
    const repo = await repoArg(ctx, args, client.url);
    const base = `/api/v1/repos/${repo}/pulls`;
    if (sub === "list") {
      const state = stringOption(args, "state") ?? "open";
      const list = await client.request<MergeRequestView[]>(
        "GET",
        `${base}?state=${encodeURIComponent(state)}`,
      );
      if (flag(args, "json")) printJson(ctx.out, list);
      else if (list.length === 0) say(ctx, "no merge requests", "запросов на слияние нет");
      else for (const mr of list) ctx.out(listLine(mr, ctx));
      return EXIT_CODES.ok;
    }
    const answer =
      sub === "show"
        ? await client.request<MergeRequestView>("GET", `${base}/${number}`)
        : await client.request<MergeRequestView>("POST", `${base}/${number}/${sub}`);
    if (flag(args, "json")) printJson(ctx.out, answer);
    else if (sub === "show") for (const line of showLines(answer, ctx)) ctx.out(line);
    else if (sub === "approve") {
      say(
        ctx,
        `#${answer.number} approved (${answer.approvals.length} approval(s))`,
        `#${answer.number} одобрен (одобрений: ${answer.approvals.length})`,
      );
    } else if (sub === "merge") {
      say(
        ctx,
        `#${answer.number} merged into ${answer.target}: ${answer.merge_commit ?? ""}`,
        `#${answer.number} слит в ${answer.target}: ${answer.merge_commit ?? ""}`,
      );
    } else say(ctx, `#${answer.number} closed`, `#${answer.number} закрыт`);
    return EXIT_CODES.ok;
  },
};

/** `--repo`, else the origin remote of the current clone on the team server. */
async function repoArg(ctx: CliContext, args: CommandArgs, server: string): Promise<string> {
  const given = stringOption(args, "repo");
  if (given !== undefined) {
    if (!/^[^/\s]+\/[^/\s]+$/.test(given)) {
      throw usageError(USAGE, {
        en: `--repo takes owner/name, not “${given}”`,
        ru: `--repo принимает owner/name, а не «${given}»`,
      });
    }
    return given.split("/").map(encodeURIComponent).join("/");
  }
  const { currentHostedRepo } = await import("../../main/current-repo.js");
  const found = await currentHostedRepo(ctx.cwd, server);
  if (found === undefined) {
    throw usageError(USAGE, {
      en: `give --repo owner/name (the origin remote here does not point at ${server})`,
      ru: `укажите --repo owner/name (remote origin здесь не указывает на ${server})`,
    });
  }
  return found;
}

function numberArg(text: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(text)) {
    throw usageError(USAGE, {
      en: `a merge request number is 1, 2, …, not “${text}”`,
      ru: `номер запроса на слияние — 1, 2, …, а не «${text}»`,
    });
  }
  return Number(text);
}

function listLine(mr: MergeRequestView, ctx: CliContext): string {
  const approvals =
    ctx.lang === "ru" ? `одобрений: ${mr.approvals.length}` : `${mr.approvals.length} approval(s)`;
  const machine = mr.origin === "machine" ? " [machine]" : "";
  return `#${mr.number}  ${mr.state}  ${mr.source} → ${mr.target}  ${mr.title}${machine}  (${mr.author}, ${approvals})`;
}

function showLines(mr: MergeRequestView, ctx: CliContext): string[] {
  const ru = ctx.lang === "ru";
  const lines = [
    `#${mr.number} ${mr.title}`,
    `${ru ? "состояние" : "state"}: ${mr.state}${mr.merge_commit === undefined ? "" : ` (${mr.merge_commit})`}`,
    `${mr.source} → ${mr.target}`,
    `${ru ? "автор" : "author"}: ${mr.author} (${mr.origin}), ${mr.created_at}`,
  ];
  if (mr.diff_stat !== undefined) {
    const d = mr.diff_stat;
    lines.push(
      ru
        ? `изменено файлов: ${d.files}, +${d.insertions} −${d.deletions}`
        : `${d.files} file(s) changed, +${d.insertions} −${d.deletions}`,
    );
  }
  lines.push(
    `${ru ? "одобрения" : "approvals"}: ${mr.approvals.length === 0 ? "—" : mr.approvals.map((a) => a.user).join(", ")}`,
  );
  if (mr.body !== "") lines.push("", mr.body);
  return lines;
}
