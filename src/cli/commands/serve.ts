import type { ServedIndex } from "../../main/compose.js";
import { atMostPositionals, intOption, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { startRepos, TOOL_NAMES_HELP, toolNameStyleOption, untilStopped } from "./mcp.js";

const USAGE =
  "lore serve [--host H] [--port N] [--repo PATH]... [--tool-names=underscore|dotted|seed]";

/**
 * `lore serve`: MCP over Streamable HTTP at `/mcp` plus `GET /healthz`, on 127.0.0.1:7377 by
 * default. Indexes the repositories at start, like `lore mcp`.
 */
export const serveCommand: Command = {
  name: "serve",
  summary: "MCP server over Streamable HTTP at http://127.0.0.1:7377/mcp",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Serves the entry and knowledge-root tools over Streamable HTTP (stateless, POST /mcp)",
    "and GET /healthz: knowledge_recall, knowledge_open, knowledge_check, knowledge_read_file,",
    "knowledge_write_file, knowledge_route_context, knowledge_status. The federation tools",
    "(wikis, projects, tasks) are served by `lore mcp` (stdio) only. Listens on [server]",
    "host and port of your own configuration file (a project's lore.toml counts only in a",
    "folder you trusted: lore trust), default 127.0.0.1:7377; on a loopback address, requests",
    "with a non-loopback Host header or a non-loopback Origin are refused with 403 (DNS",
    "rebinding); elsewhere an Origin other than the server's own. There is no authentication",
    "yet: keep it on 127.0.0.1. A request body over 4 MiB is refused with 413",
    "(request_too_large); the server goes on.",
    "The address is printed on stderr once it listens.",
    "",
    "Options:",
    "  --host H            address to listen on",
    "  --port N            port; 0 picks a free one",
    "  --repo PATH         a repository or folder to index at start (repeatable)",
    ...TOOL_NAMES_HELP,
    "",
    "Exit codes: 0 after SIGINT/SIGTERM, 2 bad option or configuration (or a host or port",
    "this user cannot listen on), 6 the address is in use (address_in_use: stop the other",
    "process, or pick --port N, or --port 0 for any free one).",
  ].join("\n"),
  options: {
    host: { type: "string" },
    port: { type: "string" },
    repo: { type: "string", multiple: true },
    "tool-names": { type: "string" },
  },
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    const style = toolNameStyleOption(ctx, args);
    const settings = ctx.settings();
    const host = stringOption(args, "host") ?? settings.server.host;
    const port = intOption(args, "port", { min: 0, max: 65535 }) ?? settings.server.port;
    const repos = startRepos(ctx, args);
    const lore = await ctx.openLore();
    const { createMcpServer } = await import("../../mcp/create-mcp-server.js");
    const { startMcpHttpServer } = await import("../../mcp/mcp-http-server.js");
    let indexing = true;
    // Indexing starts once the server listens: when it cannot (address_in_use), nothing
    // runs on after the refusal (no write into an index the CLI is closing). Until then
    // the tools wait on `late`, which stands for the index upkeep started after listen.
    let served: ServedIndex | undefined;
    let listening = (): void => {};
    const started = new Promise<void>((resolve) => {
      listening = resolve;
    });
    const late: ServedIndex = {
      ready: started.then(() => served?.ready),
      fresh: (signal) => started.then(() => served?.fresh(signal)),
      close: async () => {
        await served?.close();
      },
    };
    const ready = late.ready.finally(() => {
      indexing = false;
    });
    const http = await startMcpHttpServer({
      host,
      port,
      createServer: () =>
        // Remote callers: a knowledge_path must be a configured root.
        createMcpServer(lore.port(ready, { remote: true }, late), {
          toolNames: style,
          lang: ctx.lang,
          version: ctx.version,
        }),
      health: () => ({ version: ctx.version, indexing }),
      log: ctx.err,
      lang: ctx.lang,
    });
    served = lore.serveIndex(repos);
    listening();
    ctx.err(
      ctx.lang === "ru"
        ? `lore: MCP по HTTP на ${http.url} (проверка: GET /healthz)`
        : `lore: serving MCP over HTTP at ${http.url} (health: GET /healthz)`,
    );
    await untilStopped();
    await http.close();
    await late.close();
    return EXIT_CODES.ok;
  },
};
