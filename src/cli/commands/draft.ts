import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import type { DraftFields } from "../../mcp/knowledge-port.js";
import { flag, printJson, stringOption } from "../args.js";
import type { CliContext, Command, CommandArgs } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { expectPositionals, onlyOptions, say, takeSubcommand } from "../server-admin.js";

const USAGE = [
  "lore draft add (--title T --body B [--words a,b] [--tool X] [--links ID,…] | --file F | -) [--branch B] [--repo R] [--json]",
  "lore draft list [--branch B] [--repo R] [--json]",
  "lore draft rm <id> [--repo R]",
];

const ADD_OPTIONS = ["title", "body", "words", "tool", "links", "file", "branch", "repo", "json"];

/** The list values of a comma-separated option. */
function commaList(args: CommandArgs, name: string): string[] | undefined {
  const raw = stringOption(args, name);
  if (raw === undefined) return undefined;
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Reads stdin whole (`lore draft add -`). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The draft's content: a file, stdin, or the fields. @throws LoreError `invalid_input`. */
async function fieldsOf(ctx: CliContext, args: CommandArgs, rest: string[]): Promise<DraftFields> {
  const file = stringOption(args, "file");
  const stdin = rest[0] === "-";
  const title = stringOption(args, "title");
  const body = stringOption(args, "body");
  if (file !== undefined || stdin) {
    if (title !== undefined || body !== undefined || (file !== undefined && stdin)) {
      throw new LoreError("invalid_input", {
        reason: `give the entry as --file F, as - (stdin), or as --title and --body; usage: ${USAGE[0]}`,
        reason_ru: `передайте запись как --file F, как - (stdin) или как --title и --body; использование: ${USAGE[0]}`,
      });
    }
    const text =
      file === undefined
        ? await readStdin()
        : await readFile(resolve(ctx.cwd, file), "utf8").catch((error: unknown) => {
            throw new LoreError("path_not_found", { path: file }, { cause: error });
          });
    return { text };
  }
  if (title === undefined || body === undefined) {
    throw new LoreError("invalid_input", {
      reason: `--title and --body are needed (or --file F, or -); usage: ${USAGE[0]}`,
      reason_ru: `нужны --title и --body (или --file F, или -); использование: ${USAGE[0]}`,
    });
  }
  const words = commaList(args, "words");
  const links = commaList(args, "links");
  const tool = stringOption(args, "tool");
  return {
    title,
    body,
    ...(words === undefined ? {} : { words }),
    ...(tool === undefined ? {} : { tool }),
    ...(links === undefined ? {} : { links }),
  };
}

/**
 * `lore draft add|list|rm` (seed 004 "Как знание выходит наружу"): drafts of the current
 * repository and branch — in the local index, or on the team server when `[server] url` is
 * set (then the repository is `owner/name` of the origin remote, or `--repo`).
 */
export const draftCommand: Command = {
  name: "draft",
  summary: "write, list or remove knowledge drafts (local, or the team server of [server] url)",
  help: [
    ...USAGE.map((line, i) => `${i === 0 ? "Usage: " : "       "}${line}`),
    "",
    "A draft is an entry saved for the team at once — visible to every reader of the",
    "repository, marked unverified — that reaches the repository only as a file of a",
    "reviewed commit (lore deliver). Without [server] url drafts live in the local index for",
    "the current repository and its checked-out branch; with it they go to the team server.",
    "The entry is strict: an unknown key is refused with the nearest known one; the id is",
    "assigned; at most 64 KB as a file; 200 drafts per author unless an admin raised it.",
    "",
    "Options:",
    "  --title T --body B  the entry's summary line and body (add)",
    "  --words a,b         on_query words (add)",
    "  --tool X            an on_tool name (add)",
    "  --links ID,…        ids of related entries (add)",
    "  --file F | -        the whole entry file from F or stdin (add)",
    "  --branch B          the branch (default: the checked-out one; list: all)",
    "  --repo R            the repository: a folder locally, owner/name on the team server",
    "  --json              print JSON",
    "",
    "Exit codes: 0 done, 2 invalid entry or options, 3 no such draft or repository, 4 the",
    "draft limit is reached, 5 forbidden, 6 the team server does not answer.",
  ].join("\n"),
  options: {
    title: { type: "string" },
    body: { type: "string" },
    words: { type: "string" },
    tool: { type: "string" },
    links: { type: "string" },
    file: { type: "string" },
    branch: { type: "string" },
    repo: { type: "string" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const { sub, rest } = takeSubcommand(args, ["add", "list", "rm"], USAGE);
    const lore = await ctx.openLore();
    const { machineDraftsPort } = await import("../../main/compose-drafts.js");
    const drafts = machineDraftsPort(lore, { cwd: ctx.cwd, env: process.env });
    const repo = stringOption(args, "repo");
    const branch = stringOption(args, "branch");
    const place = {
      ...(repo === undefined ? {} : { repo }),
      ...(branch === undefined ? {} : { branch }),
    };
    if (sub === "add") {
      onlyOptions(args, ADD_OPTIONS, "draft add");
      expectPositionals(rest, 0, 1, USAGE);
      const draft = await drafts.write({ ...place, draft: await fieldsOf(ctx, args, rest) });
      if (flag(args, "json")) printJson(ctx.out, draft);
      else
        say(
          ctx,
          `draft ${draft.id} on ${draft.branch} (${draft.size} bytes)`,
          `черновик ${draft.id} в ${draft.branch} (${draft.size} байт)`,
        );
    } else if (sub === "list") {
      onlyOptions(args, ["branch", "repo", "json"], "draft list");
      expectPositionals(rest, 0, 0, USAGE);
      const items = [];
      let after: string | undefined;
      do {
        const page = await drafts.list({ ...place, per_page: 100, ...(after ? { after } : {}) });
        items.push(...page.items);
        after = page.next_cursor ?? undefined;
      } while (after !== undefined);
      if (flag(args, "json")) printJson(ctx.out, items);
      else if (items.length === 0) say(ctx, "no drafts", "черновиков нет");
      else {
        for (const d of items) {
          const summary = summaryOf(d.text);
          const where = d.delivered
            ? ` → ${d.delivered.branch}${d.delivered.merge_request === undefined ? "" : ` !${d.delivered.merge_request}`}`
            : "";
          ctx.out(`${d.id}  ${d.branch}  ${d.author}${where}  ${summary}`);
        }
      }
    } else {
      onlyOptions(args, ["repo"], "draft rm");
      expectPositionals(rest, 1, 1, USAGE);
      const id = rest[0] as string;
      await drafts.discard({ id, ...(repo === undefined ? {} : { repo }) });
      say(ctx, `draft ${id} removed`, `черновик ${id} снят`);
    }
    return EXIT_CODES.ok;
  },
};

/** The first line of a draft's body, for the list. */
function summaryOf(text: string): string {
  const body = text.replace(/^---\n[\s\S]*?\n---\n/, "");
  return (body.split("\n").find((line) => line.trim() !== "") ?? "").trim().slice(0, 100);
}
