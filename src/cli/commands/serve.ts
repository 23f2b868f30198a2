import { atMostPositionals, intOption, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { startRepos, TOOL_NAMES_HELP, toolNameStyleOption, untilStopped } from "./mcp.js";

const USAGE =
  "lore serve [--host H] [--port N] [--ssh-port N] [--repo PATH]... [--tool-names=underscore|dotted|seed]";

/**
 * `lore serve`: the team server (seed 004) — one HTTP application on 127.0.0.1:7377 by
 * default: `GET /healthz`, the REST API under `/api/v1`, MCP Streamable HTTP at `/mcp`;
 * every route but `/healthz` needs a token. Its records live in `[server] data`.
 */
export const serveCommand: Command = {
  name: "serve",
  summary: "Team server: REST API, MCP over HTTP at http://127.0.0.1:7377/mcp (token required)",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Serves, on one port: GET /healthz (no token), the web view at / (sign in with a token),",
    "the REST API under /api/v1 (user, repos,",
    "a repository's knowledge and raw files; GET /api/v1/openapi.json) and MCP over",
    "Streamable HTTP (stateless, POST /mcp): knowledge_recall, knowledge_open, knowledge_check,",
    "the draft tools knowledge_draft, knowledge_drafts, knowledge_discard, knowledge_deliver",
    "(on the hosted repositories, with the caller's rights; repo and branch are needed),",
    "knowledge_stats (shown/read counters: me; team and dead with a Pro licence; repo needed),",
    "knowledge_receipts (the caller's own load receipts: what each recall surfaced and why),",
    "and for site admins the knowledge-root tools knowledge_read_file, knowledge_write_file,",
    "knowledge_route_context, knowledge_status. The federation tools (wikis, projects, tasks)",
    "are served by `lore mcp` (stdio) only. Every route but /healthz needs a token:",
    "Authorization: Bearer <token> (git clients: the token as the Basic password); a token",
    "in the URL is refused. Recall and open see only the repositories the token's user can",
    "read; the --repo folders and knowledge roots of this OS user only site admins see.",
    "The data folder is [server] data (default $XDG_DATA_HOME/lore/server). On a first start",
    "with no users, a site-admin user named after you is created with a token in",
    "<data>/owner-token (mode 0600); stderr says how to pass it (claude mcp add …).",
    "Listens on [server] host and port of your own configuration file (a project's lore.toml",
    "counts only in a folder you trusted: lore trust), default 127.0.0.1:7377; a non-loopback",
    "address is refused until a user holds a token (listen_needs_auth). On a loopback",
    "address, requests with a non-loopback Host header or a non-loopback Origin are refused",
    "with 403 (DNS rebinding); elsewhere an Origin other than the server's own. A request",
    "body over 4 MiB on /mcp is refused with 413 (request_too_large); the server goes on.",
    "Git: the hosted repositories (lore repo create) over smart HTTP on the same port",
    "(http://HOST:PORT/OWNER/NAME.git, the token as the password) and over SSH on",
    "[server] ssh_port (default 7378, 0 = off; keys: lore key add). Every push is parsed",
    "(remote: lines); the default branch feeds the index.",
    "The edition (Community, Pro, Max) comes from the licence file [server] license names",
    "(see lore license --help; none: Community); GET /healthz shows it under license. A",
    "licence that is not valid stops the start (license_invalid); an expired one is logged",
    "and the server runs Community.",
    "The address is printed on stderr once it listens.",
    "",
    "Options:",
    "  --host H            address to listen on",
    "  --port N            port; 0 picks a free one",
    "  --ssh-port N        port of git over SSH; 0 = off (default [server] ssh_port, 7378)",
    "  --repo PATH         a repository or folder to index at start (repeatable)",
    ...TOOL_NAMES_HELP,
    "",
    "Exit codes: 0 after SIGINT/SIGTERM, 2 bad option or configuration (or a host or port",
    "this user cannot listen on, listen_needs_auth, or license_invalid), 6 the address is in use",
    "(address_in_use: stop the other process, or pick --port N, or --port 0 for any free one;",
    "for the SSH port --ssh-port N, or --ssh-port 0 to turn git over SSH off).",
  ].join("\n"),
  options: {
    host: { type: "string" },
    port: { type: "string" },
    "ssh-port": { type: "string" },
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
    // The server's own index (its data folder's, unless one was named): every part of
    // this process — the index, the hooks it installs — then uses that file.
    const { prepareServerIndexFile, serverIndexFile } = await import(
      "../../main/server-index-file.js"
    );
    settings.database = serverIndexFile(settings);
    delete settings.databaseIsDefault;
    prepareServerIndexFile(settings.database, settings.server.data);
    const lore = await ctx.openLore();
    const { startTeamServer } = await import("../../main/compose-server.js");
    const server = await startTeamServer({
      lore,
      host,
      port,
      repos,
      lang: ctx.lang,
      version: ctx.version,
      toolNames: style,
      sshPort: intOption(args, "ssh-port", { min: 0, max: 65535 }) ?? settings.server.sshPort,
      log: ctx.err,
    });
    ctx.err(
      ctx.lang === "ru"
        ? `lore: MCP по HTTP на ${server.url} (проверка: GET /healthz; веб: ${server.base}/; API: ${server.base}/api/v1; git: ${server.base}/OWNER/NAME.git${server.sshPort === undefined ? "" : `, ssh://git@HOST:${server.sshPort}/OWNER/NAME.git`})`
        : `lore: serving MCP over HTTP at ${server.url} (health: GET /healthz; web view: ${server.base}/; API: ${server.base}/api/v1; git: ${server.base}/OWNER/NAME.git${server.sshPort === undefined ? "" : `, ssh://git@HOST:${server.sshPort}/OWNER/NAME.git`})`,
    );
    if (server.sshFingerprint !== undefined)
      ctx.err(
        ctx.lang === "ru"
          ? `lore: ключ хоста SSH ED25519 ${server.sshFingerprint} — сверьте с тем, что покажет ssh при первом подключении`
          : `lore: SSH host key ED25519 ${server.sshFingerprint} — check it against what ssh shows on the first connection`,
      );
    await untilStopped();
    await server.close();
    return EXIT_CODES.ok;
  },
};
