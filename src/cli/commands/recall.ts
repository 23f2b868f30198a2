import { LoreError } from "../../core/errors/lore-error.js";
import type { RecallArgs } from "../../mcp/knowledge-port.js";
import { cursorOffset, MAX_LIMIT } from "../../services/knowledge/hit-page.js";
import type { RecallAnswer } from "../../services/knowledge/recall.js";
import { flag, intOption, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE =
  "lore recall <query…> [--tool NAME] [--limit N] [--cursor C] [--root ID] [--repo R] [--json]";

type Hit = RecallAnswer["hits"][number];

function whyText(hit: Hit): string {
  return hit.why
    .map((why) =>
      why.kind === "on_query"
        ? `on_query “${why.word}”`
        : why.kind === "on_tool"
          ? `on_tool ${why.name}`
          : "text",
    )
    .join(", ");
}

/**
 * Prints a recall answer for people: numbered summaries, then id, kind and source
 * (`entry <repo>: <path>`, `note <root>: <path>`, `wiki .wiki/<slug>.md`; a draft adds
 * `draft, branch <b>`), why and score.
 *
 * @param answer - the answer.
 * @param out - the line writer.
 * @param lang - the language of the footer.
 * @param offset - hits on earlier pages (from `--cursor`): numbering goes on from there and
 *   the footer says `11–20 of 41`.
 */
export function printRecall(
  answer: RecallAnswer,
  out: (text: string) => void,
  lang: "en" | "ru",
  offset = 0,
): void {
  answer.hits.forEach((hit, i) => {
    out(`${offset + i + 1}. ${hit.summary}`);
    // Each hit names its kind and its source: an entry's repository (its identity), a
    // note's root (`[root]`), a wiki page's path.
    const where =
      hit.kind === "wiki"
        ? hit.source
        : `${hit.root === undefined ? hit.repo : `[${hit.root}]`}  ${hit.path}`;
    // A draft is marked unverified, with the branch it was written on (seed 004).
    const draft =
      hit.draft === true
        ? `  ${lang === "ru" ? "черновик, ветка" : "draft, branch"} ${hit.branch ?? "?"}`
        : "";
    out(`   ${hit.id}  ${hit.kind} ${where}${draft}`);
    out(`   ${lang === "ru" ? "почему" : "why"}: ${whyText(hit)}  score ${hit.score.toFixed(3)}`);
  });
  if (answer.hits.length === 0) out(lang === "ru" ? "ничего не найдено" : "nothing found");
  const more =
    answer.next_cursor === null
      ? ""
      : lang === "ru"
        ? `; дальше: --cursor ${answer.next_cursor}`
        : `; more: --cursor ${answer.next_cursor}`;
  const shown =
    offset > 0 && answer.hits.length > 0
      ? `${offset + 1}–${offset + answer.hits.length}`
      : `${answer.hits.length}`;
  out(
    lang === "ru"
      ? `показано ${shown} из ${answer.total}${more}`
      : `${shown} of ${answer.total}${more}`,
  );
}

/** `lore recall`: the main job from the command line. */
export const recallCommand: Command = {
  name: "recall",
  summary: "find knowledge for a question (one score: most matched words first)",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Lists the entries, root notes and the project's wiki pages (.wiki/) that match the",
    "query's words (by contract: any word form, ё = е; or by text) or --tool, in one order by",
    "one score: most query words matched first, a firing contract above an equal text match",
    "only. Each hit:",
    "summary, id, kind (entry, note, wiki) and source, why it matched, score.",
    "Listed entries count as shown for the configured user, and the recall leaves a load",
    "receipt (lore receipts, lore why). Words need no quotes:",
    "  lore recall как откатить релиз",
    "",
    "Options:",
    "  --tool NAME   the tool an agent is about to call (on_tool contracts)",
    "  --limit N     most hits (default 10)",
    "  --cursor C    the next page (`next_cursor` of the previous answer)",
    "  --root ID     only the notes of this knowledge root (group, public, primary …)",
    "  --repo R      only the entries of this repository (identity or folder, see lore repos)",
    "  --json        print {hits, total, total_exact, next_cursor}",
    "",
    "Exit codes: 0 answered (even with no hit), 2 empty query or bad option.",
  ].join("\n"),
  options: {
    tool: { type: "string" },
    limit: { type: "string" },
    cursor: { type: "string" },
    root: { type: "string" },
    repo: { type: "string" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    // The load receipt names the command line as the client (README "Load receipts").
    const input: RecallArgs = { client: "cli" };
    const query = args.positionals.join(" ").trim();
    if (query.length > 0) input.query = query;
    const tool = stringOption(args, "tool");
    if (tool !== undefined) input.tool = tool;
    const limit = intOption(args, "limit", { min: 1, max: MAX_LIMIT });
    if (limit !== undefined) input.limit = limit;
    const cursor = stringOption(args, "cursor");
    if (cursor !== undefined) input.cursor = cursor;
    const root = stringOption(args, "root");
    if (root !== undefined) input.knowledge_root_id = root;
    const repo = stringOption(args, "repo");
    if (repo !== undefined) input.repo = repo;
    if (input.query === undefined && input.tool === undefined) throw new LoreError("empty_query");
    const lore = await ctx.openLore();
    // The roots' notes change on disk between runs: bring them up to date first.
    if (lore.roots.length > 0) await lore.indexRoots();
    // The project's wiki pages are recalled too: bring them up to date (incremental).
    await lore.indexWiki();
    const answer = await lore.recall(input);
    if (flag(args, "json")) printJson(ctx.out, answer);
    else printRecall(answer, ctx.out, ctx.lang, cursorOffset(input.cursor));
    return EXIT_CODES.ok;
  },
};
