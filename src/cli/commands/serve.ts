import { atMostPositionals, intOption, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { startRepos, toolNameStyleOption, untilStopped } from "./mcp.js";

const USAGE = "lore serve [--host H] [--port N] [--repo PATH]... [--tool-names=dotted]";

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
    "Serves the same MCP tools as `lore mcp` over Streamable HTTP (stateless, POST /mcp)",
    "and GET /healthz. Listens on [server] host and port of the configuration, default",
    "127.0.0.1:7377; on a loopback address, requests with a non-loopback Host header are",
    "refused (DNS rebinding). There is no authentication yet: keep it on 127.0.0.1.",
    "The address is printed on stderr once it listens.",
    "",
    "Options:",
    "  --host H            address to listen on",
    "  --port N            port; 0 picks a free one",
    "  --repo PATH         a repository or folder to index at start (repeatable)",
    "  --tool-names=dotted expose knowledge.recall etc.",
    "",
    "Exit codes: 0 after SIGINT/SIGTERM, 1 cannot listen, 2 bad option or configuration.",
  ].join("\n"),
  options: {
    host: { type: "string" },
    port: { type: "string" },
    repo: { type: "string", multiple: true },
    "tool-names": { type: "string" },
  },
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    const style = toolNameStyleOption(args);
    const settings = ctx.settings();
    const host = stringOption(args, "host") ?? settings.server.host;
    const port = intOption(args, "port", { min: 0, max: 65535 }) ?? settings.server.port;
    const repos = startRepos(ctx, args);
    const lore = await ctx.openLore();
    const { createMcpServer } = await import("../../mcp/create-mcp-server.js");
    const { startMcpHttpServer } = await import("../../mcp/mcp-http-server.js");
    let indexing = true;
    const served = lore.serveIndex(repos);
    const ready = served.ready.finally(() => {
      indexing = false;
    });
    const http = await startMcpHttpServer({
      host,
      port,
      createServer: () =>
        // Remote callers: a knowledge_path must be a configured root (issue 3).
        createMcpServer(lore.port(ready, { remote: true }, served), {
          toolNames: style,
          lang: ctx.lang,
          version: ctx.version,
        }),
      health: () => ({ version: ctx.version, indexing }),
      log: ctx.err,
    });
    ctx.err(
      ctx.lang === "ru"
        ? `lore: MCP по HTTP на ${http.url} (проверка: GET /healthz)`
        : `lore: serving MCP over HTTP at ${http.url} (health: GET /healthz)`,
    );
    await untilStopped();
    await http.close();
    await served.close();
    return EXIT_CODES.ok;
  },
};
