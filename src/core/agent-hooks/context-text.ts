/**
 * The text an agent hook injects into the model's context (section "Deterministic
 * surfacing through agent hooks"): the matched summaries, compact and under a byte budget,
 * each with its id and how to open it; and the session-start note of what Lore holds for
 * the project. Pure.
 */
import type { MatchReason } from "../recall/contract-match.js";
import { cutUtf8 } from "./query-text.js";

/** Most bytes of context a hook injects (UTF-8): a few entries' summaries, never a body. */
export const CONTEXT_BUDGET_BYTES = 4_096;

/** Most bytes of one hit's summary in the context (a summary is ≤ 512 bytes; most are far less). */
export const SUMMARY_BYTES = 320;

/** The parts of a recall hit the context shows (a `RecallHit` is one). */
export interface ContextHit {
  id: string;
  kind: "entry" | "note" | "wiki";
  summary: string;
  /** The repository of an entry, the root of a note, the page path of a wiki page. */
  source: string;
  path: string;
  root?: string;
  draft?: true;
  branch?: string;
  why: readonly MatchReason[];
}

/** Options of {@link hitsContext}. */
export interface HitsContextOptions {
  /** What the hits were recalled for: the prompt, or the tool about to run. */
  trigger: { kind: "prompt" } | { kind: "tool"; tool: string };
  /** The MCP tool that opens an entry, as this Lore names it (`knowledge_open`). */
  openTool: string;
  /** The hits recalled in all (the answer's `total`), to say when more exist. */
  total: number;
  /** The byte budget. Default {@link CONTEXT_BUDGET_BYTES}. */
  budgetBytes?: number;
}

function oneLine(value: string): string {
  return value.replace(/\s+/gu, " ").trim();
}

function whyText(why: readonly MatchReason[]): string {
  return why
    .map((w) =>
      w.kind === "on_query"
        ? `on_query "${w.word}"`
        : w.kind === "on_tool"
          ? `on_tool ${w.name}`
          : "text",
    )
    .join(", ");
}

function hitLine(hit: ContextHit): string {
  const where =
    hit.kind === "wiki"
      ? `wiki ${hit.source}`
      : hit.kind === "note"
        ? `note [${hit.root ?? hit.source}] ${hit.path}`
        : `entry ${hit.source} ${hit.path}`;
  const draft = hit.draft === true ? `, unverified draft of branch ${hit.branch ?? "?"}` : "";
  const summary = cutUtf8(oneLine(hit.summary), SUMMARY_BYTES);
  return `- ${summary} [id ${hit.id}; ${where}${draft}; why: ${whyText(hit.why)}]`;
}

/**
 * The context for the hits of a prompt's or a tool call's recall: a header saying what
 * they are and how to open one (`lore get <id>`, or the MCP tool), then one line per hit
 * (summary, id, source, why), best first, as many as fit in the budget.
 *
 * @param hits - the hits, best first.
 * @param options - see {@link HitsContextOptions}.
 * @returns the text (≤ the budget in UTF-8 bytes), or `""` when there is no hit.
 */
export function hitsContext(hits: readonly ContextHit[], options: HitsContextOptions): string {
  if (hits.length === 0) return "";
  const budget = options.budgetBytes ?? CONTEXT_BUDGET_BYTES;
  const what =
    options.trigger.kind === "tool"
      ? `before the call of ${options.trigger.tool}`
      : "for this prompt";
  const header =
    `Lore knowledge ${what} (summaries of entries that match; drafts are unverified). ` +
    `Open one whole with \`lore get <id>\` or the MCP tool ${options.openTool} {"id": "<id>"}.`;
  const lines = [cutUtf8(header, budget)];
  let used = Buffer.byteLength(lines[0] as string, "utf8");
  let shown = 0;
  for (const hit of hits) {
    const line = hitLine(hit);
    const cost = Buffer.byteLength(line, "utf8") + 1;
    // Room is kept for the closing line that says how many were left out.
    if (used + cost + 64 > budget) break;
    lines.push(line);
    used += cost;
    shown++;
  }
  if (shown === 0) return "";
  const more = Math.max(options.total, hits.length) - shown;
  if (more > 0) lines.push(`(${more} more match; \`lore recall\` lists them.)`);
  return lines.join("\n");
}

/** What Lore holds for a project, for the session-start note. */
export interface ProjectFacts {
  /** The project's repository (its index identity), when it is indexed. */
  repo?: string;
  /** Entries of the project's repository (0 when it is not indexed). */
  entries: number;
  /** Drafts of the project's repository not yet delivered (seed 004: visible, unverified). */
  draftsWaiting: number;
  /** Every indexed source (repositories, folders, roots) and their entries. */
  sources: number;
  totalEntries: number;
  /** The configured knowledge roots' ids (seed 003). */
  roots: readonly string[];
}

/**
 * The session-start note: what Lore holds for this project (entries, drafts waiting, the
 * index over every source, the roots) and how to ask it.
 *
 * @param facts - see {@link ProjectFacts}.
 * @param openTool - the MCP open tool's name; `recallTool` the recall tool's.
 * @returns one short paragraph (well under {@link CONTEXT_BUDGET_BYTES}).
 */
export function sessionNote(facts: ProjectFacts, recallTool: string, openTool: string): string {
  const project =
    facts.repo === undefined
      ? "This project is not in Lore's index yet (`lore index .` adds it)."
      : `This project (${facts.repo}) holds ${facts.entries} knowledge entr${facts.entries === 1 ? "y" : "ies"}` +
        (facts.draftsWaiting > 0
          ? ` and ${facts.draftsWaiting} draft${facts.draftsWaiting === 1 ? "" : "s"} waiting for review (\`lore draft list\`, \`lore deliver\`).`
          : ".");
  const index = `Lore's index: ${facts.totalEntries} entries in ${facts.sources} source${facts.sources === 1 ? "" : "s"}`;
  const roots = facts.roots.length > 0 ? `; knowledge roots: ${facts.roots.join(", ")}.` : ".";
  const how =
    `Entries whose contract matches a prompt or a tool call are shown here by Lore's hooks; ` +
    `ask for more with the MCP tool ${recallTool} or \`lore recall <words>\`, open one with ${openTool} or \`lore get <id>\`.`;
  return cutUtf8(`Lore: ${project} ${index}${roots} ${how}`, CONTEXT_BUDGET_BYTES);
}
