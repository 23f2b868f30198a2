import { resolve } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import { parseToolNameStyle, type ToolNameStyle } from "../../mcp/tool-names.js";
import { atMostPositionals, listOption, stringOption } from "../args.js";
import type { CliContext, Command, CommandArgs } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore mcp [--repo PATH]... [--tool-names=underscore|dotted|seed]";

/**
 * The tool name style in use: `--tool-names`, else `[mcp] tool_names` of the
 * configuration, else `underscore`.
 *
 * @throws LoreError `invalid_input` for a `--tool-names` value other than `underscore`,
 *   `dotted` or `seed`; `config_invalid` from reading the configuration.
 */
export function toolNameStyleOption(ctx: CliContext, args: CommandArgs): ToolNameStyle {
  const raw = stringOption(args, "tool-names");
  if (raw === undefined) return ctx.settings().toolNames ?? "underscore";
  const style = parseToolNameStyle(raw);
  if (style === undefined) {
    throw new LoreError("invalid_input", {
      reason: `--tool-names must be underscore, dotted or seed, not “${raw}”`,
      reason_ru: `--tool-names должен быть underscore, dotted или seed, а не «${raw}»`,
    });
  }
  return style;
}

/** The `--tool-names` lines of the `mcp` and `serve` help. */
export const TOOL_NAMES_HELP = [
  "  --tool-names=STYLE  underscore (default: knowledge_recall …), dotted (knowledge.recall …)",
  "                      or seed (each seed's own names: read_knowledge_file, route_context,",
  "                      knowledge.ask_projects, tasks.create …); default [mcp] tool_names",
];

/** The repositories to index at start: `--repo` values, else the configured ones. */
export function startRepos(ctx: CliContext, args: CommandArgs): string[] {
  const named = listOption(args, "repo").map((path) => resolve(ctx.cwd, path));
  return named.length > 0 ? named : ctx.settings().repos;
}

/** Resolves when the process is asked to stop (SIGINT, SIGTERM) or `extra` resolves. */
export function untilStopped(extra?: Promise<void>): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    extra?.then(stop);
  });
}

/**
 * `lore mcp`: the MCP server over stdio. Indexes the repositories at start (the tools await
 * it); stdout carries only the protocol, every log and diagnostic goes to stderr.
 */
export const mcpCommand: Command = {
  name: "mcp",
  summary: "MCP server over stdio (for Claude Code, Cursor, VS Code)",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Runs the MCP server on stdin/stdout. It keeps the repositories indexed — the --repo",
    "paths, else [index] repos of the configuration, else the current folder when it holds",
    ".gitriver/knowledge/: the tools answer at once from the existing index while it",
    "refreshes in the background (a repository never indexed is waited for), and a moved",
    "HEAD is indexed before the next answer. The background refresh starts once the first",
    "tool call is answered or after 200 ms without a request. Stdout carries only the",
    "protocol; logs and parse diagnostics go to stderr. A message (one line) over 4 MiB is refused with",
    "request_too_large and a line on stderr; the server goes on with the next one.",
    "",
    "Tools (underscore names):",
    "  entries          knowledge_recall, knowledge_open, knowledge_check",
    "  drafts           knowledge_draft, knowledge_drafts, knowledge_discard, knowledge_deliver",
    "                   (local index of this repository, or the team server of [server] url)",
    "  stats            knowledge_stats (me; team and dead with a Pro licence; local index)",
    "  receipts         knowledge_receipts (what each recall surfaced and why; local index)",
    "  knowledge roots  knowledge_read_file, knowledge_write_file, knowledge_route_context,",
    "                   knowledge_status",
    "  with [wiki] shared: knowledge_search, knowledge_get, knowledge_suggest_promote,",
    "                   knowledge_promote",
    "  with [forge]:    knowledge_ask_projects, knowledge_get_from, tasks_create,",
    "                   projects_sync, projects_status",
    "  with either:     knowledge_ingest",
    "Tools whose forge or shared wiki is not configured are not listed.",
    "",
    "Options:",
    "  --repo PATH         a repository or folder to index at start (repeatable)",
    ...TOOL_NAMES_HELP,
    "",
    "Exit codes: 0 after the client disconnects, 2 bad option or configuration.",
  ].join("\n"),
  options: { repo: { type: "string", multiple: true }, "tool-names": { type: "string" } },
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    const style = toolNameStyleOption(ctx, args);
    const repos = startRepos(ctx, args);
    const lore = await ctx.openLore();
    // Loaded on demand so that other commands start without the MCP SDK.
    const { createMcpServer } = await import("../../mcp/create-mcp-server.js");
    const { BoundedStdioServerTransport } = await import("../../mcp/bounded-stdio-transport.js");
    const { StartUpGate } = await import("../../mcp/start-up-gate.js");
    const { ANSWERS_AFTER_END_MS, allObservers, InFlightRequests } = await import(
      "../../mcp/in-flight-requests.js"
    );
    const { IdleScavenge } = await import("../../mcp/idle-scavenge.js");
    // Answers at once from the existing index; refreshes in the background (and before an
    // answer when HEAD moved); waits only for repositories never indexed. The start-up
    // refresh of indexed repositories begins once the first tools/call is answered or the
    // session is idle for 200 ms, so its git processes do not slow the first answer.
    const gate = new StartUpGate();
    const served = lore.serveIndex(repos, { begin: gate.opened });
    const ready = served.ready;
    const { toolNames } = await import("../../mcp/tool-names.js");
    const { federationFeatures } = await import("../../main/lazy-federation.js");
    const { machineDraftsPort } = await import("../../main/compose-drafts.js");
    const { localStats } = await import("../../main/local-stats.js");
    // Drafts: the local index of this repository, or the team server of [server] url
    // (recall stays local either way).
    // Object.assign keeps the port's `ready` getter (a spread would read it once).
    const port = Object.assign(lore.port(ready, {}, served), {
      drafts: machineDraftsPort(lore, { cwd: ctx.cwd, env: process.env }),
      // Stats: the counters of this machine's index (recall and open count here).
      stats: localStats(lore, { cwd: ctx.cwd, env: process.env, log: ctx.err }),
    });
    const server = createMcpServer(port, {
      toolNames: style,
      lang: ctx.lang,
      version: ctx.version,
      // Only the federation tools whose forge or shared wiki is configured are listed.
      federation: lore.federation(toolNames(style)),
      federationFeatures: federationFeatures(ctx.settings()),
    });
    let inputEnded = false;
    const closed = new Promise<void>((done) => {
      process.stdin.once("end", () => done());
      process.stdin.once("close", () => done());
    }).then(() => {
      inputEnded = true;
    });
    // Requests read before the input ended are still answered (a client may write them
    // all and close its end); a signal stops at once.
    const inFlight = new InFlightRequests();
    // A line over the 4 MiB message limit is refused with `request_too_large` and one line
    // on stderr; the session goes on (the SDK's own transport would end it in silence).
    const transport = new BoundedStdioServerTransport(process.stdin, process.stdout, {
      lang: ctx.lang,
      log: ctx.err,
      // The young generation is collected between bursts of requests, not inside one.
      observer: allObservers(gate, inFlight, new IdleScavenge(() => inFlight.size > 0)),
    });
    transport.onclose = () => {};
    gate.arm();
    await server.connect(transport);
    await untilStopped(closed);
    if (inputEnded) await inFlight.settled(ANSWERS_AFTER_END_MS);
    gate.close();
    await served.close();
    await server.close();
    return EXIT_CODES.ok;
  },
};
