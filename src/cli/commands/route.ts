import { LoreError } from "../../core/errors/lore-error.js";
import { flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore route <query…> [--json]";

/** `lore route`: the CLI mirror of `route_context`. */
export const routeCommand: Command = {
  name: "route",
  summary: "hot sections and the roots overlay for a question",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Prints the sections of agent-notes.md (primary root) relevant to the query and, when",
    "the query is about group/public/roots/chmod/the registry or names a registry line,",
    "the knowledge-roots-routing-v1 section, the matching registry lines and a preview of",
    "each matched file from its read-only root.",
    "",
    "Options:",
    "  --json   print {sections, knowledge_roots_overlay_applied, overlay?}",
    "",
    "Exit codes: 0 answered, 2 empty query, 3 no primary root.",
  ].join("\n"),
  options: { json: { type: "boolean" } },
  async run(ctx, args) {
    const query = args.positionals.join(" ").trim();
    if (query === "") throw new LoreError("empty_query");
    const lore = await ctx.openLore();
    const answer = await lore.routeContext(query);
    if (flag(args, "json")) {
      printJson(ctx.out, answer);
      return EXIT_CODES.ok;
    }
    for (const section of answer.sections) ctx.out(`${section.text}\n`);
    if (answer.sections.length === 0) {
      ctx.out(ctx.lang === "ru" ? "(нет подходящих hot-секций)" : "(no hot section matches)");
    }
    const overlay = answer.overlay;
    if (overlay !== undefined) {
      ctx.out(
        ctx.lang === "ru" ? "--- маршрутизация по корням ---" : "--- knowledge roots overlay ---",
      );
      if (overlay.routing_section !== null) ctx.out(`${overlay.routing_section}\n`);
      for (const line of overlay.registry_lines) ctx.out(`registry:${line.line}: ${line.text}`);
      for (const p of overlay.previews) {
        ctx.out(`\n[${p.root}] ${p.file_path}`);
        ctx.out(p.preview ?? `(${p.error ?? "unreadable"})`);
      }
    }
    return EXIT_CODES.ok;
  },
};
