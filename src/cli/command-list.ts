import type { Command } from "./command.js";

/**
 * One `lore` command as `lore --help` lists it, with its code loaded only when it runs
 * (a one-shot `lore recall` or `lore --version` never loads the MCP SDK or the HTTP
 * server): the name, the one-line summary, and `load()` importing the command's module.
 */
export interface CommandEntry {
  /** The command word, e.g. `recall`. */
  name: string;
  /** One line for `lore --help`; equal to the loaded command's `summary` (a test checks). */
  summary: string;
  /** Imports the command's module. */
  load(): Promise<Command>;
}

/** Every command, in the order `lore --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "init",
    summary: "create .gitriver/knowledge/ with one example entry",
    load: async () => (await import("./commands/init.js")).initCommand,
  },
  {
    name: "new",
    summary: "write a fresh entry file <uuidv7>.md into .gitriver/knowledge/",
    load: async () => (await import("./commands/new.js")).newCommand,
  },
  {
    name: "id",
    summary: "print a fresh UUIDv7 for an entry's id",
    load: async () => (await import("./commands/id.js")).idCommand,
  },
  {
    name: "check",
    summary: "lint entry files; exit 7 when any is wrong (for pre-commit and CI)",
    load: async () => (await import("./commands/check.js")).checkCommand,
  },
  {
    name: "index",
    summary: "index a git repository or folder incrementally; print the parse report",
    load: async () => (await import("./commands/index.js")).indexCommand,
  },
  {
    name: "recall",
    summary: "find knowledge for a question (one score: most matched words first)",
    load: async () => (await import("./commands/recall.js")).recallCommand,
  },
  {
    name: "get",
    summary: "print one entry whole by id (counts a read)",
    load: async () => (await import("./commands/get.js")).getCommand,
  },
  {
    name: "stats",
    summary: "shown/read counters of the entries and the dead-memory report (me, team, dead)",
    load: async () => (await import("./commands/stats.js")).statsCommand,
  },
  {
    name: "receipts",
    summary: "list the load receipts: what each recall surfaced and why",
    load: async () => (await import("./commands/receipts.js")).receiptsCommand,
  },
  {
    name: "why",
    summary: "explain when and why an entry surfaced, or why it did not",
    load: async () => (await import("./commands/why.js")).whyCommand,
  },
  {
    name: "repos",
    summary: "list the indexed repositories: path, identity, commit, entries, last indexed",
    load: async () => (await import("./commands/repos.js")).reposCommand,
  },
  {
    name: "forget",
    summary: "drop a repository from the index (its files in git stay)",
    load: async () => (await import("./commands/forget.js")).forgetCommand,
  },
  {
    name: "import",
    summary: "turn a file or a folder of rules, skills or notes into entry files",
    load: async () => (await import("./commands/import.js")).importCommand,
  },
  {
    name: "export",
    summary: "write the reachable entries as AGENTS.md, Cursor rules or Agent Skills",
    load: async () => (await import("./commands/export.js")).exportCommand,
  },
  {
    name: "draft",
    summary: "write, list or remove knowledge drafts (local, or the team server of [server] url)",
    load: async () => (await import("./commands/draft.js")).draftCommand,
  },
  {
    name: "deliver",
    summary: "commit a branch's knowledge drafts as entry files, for review",
    load: async () => (await import("./commands/deliver.js")).deliverCommand,
  },
  {
    name: "read",
    summary: "print a file of a knowledge root (primary, group, public …)",
    load: async () => (await import("./commands/read.js")).readCommand,
  },
  {
    name: "write",
    summary: "write a file of the primary root (read-only roots refuse)",
    load: async () => (await import("./commands/write.js")).writeCommand,
  },
  {
    name: "route",
    summary: "hot sections and the roots overlay for a question",
    load: async () => (await import("./commands/route.js")).routeCommand,
  },
  {
    name: "status",
    summary: "the knowledge roots: id, kind, path, exists, writable, files",
    load: async () => (await import("./commands/status.js")).statusCommand,
  },
  {
    name: "doctor",
    summary: "check the configuration and the knowledge roots",
    load: async () => (await import("./commands/doctor.js")).doctorCommand,
  },
  {
    name: "trust",
    summary: "trust a folder's lore.toml (forge, server, data paths); --list",
    load: async () => (await import("./commands/trust.js")).trustCommand,
  },
  {
    name: "untrust",
    summary: "stop trusting a folder's lore.toml",
    load: async () => (await import("./commands/trust.js")).untrustCommand,
  },
  {
    name: "sync",
    summary: "cache every forge repository's task board and wiki index",
    load: async () => (await import("./commands/sync.js")).syncCommand,
  },
  {
    name: "ask",
    summary: "ask other projects' wikis (knowledge.ask_projects)",
    load: async () => (await import("./commands/ask.js")).askCommand,
  },
  {
    name: "wiki",
    summary: "search, read, write, promote and check wiki pages",
    load: async () => (await import("./commands/wiki.js")).wikiCommand,
  },
  {
    name: "tasks",
    summary: "give a project a task (tasks.create)",
    load: async () => (await import("./commands/tasks.js")).tasksCommand,
  },
  {
    name: "mcp",
    summary: "MCP server over stdio (for Claude Code, Cursor, VS Code)",
    load: async () => (await import("./commands/mcp.js")).mcpCommand,
  },
  {
    name: "hook",
    summary: "agent hooks (Claude Code, Codex, Cursor) and the parse-on-push git hooks",
    load: async () => (await import("./commands/hook.js")).hookCommand,
  },
  {
    name: "serve",
    summary: "Team server: REST API, MCP over HTTP at http://127.0.0.1:7377/mcp (token required)",
    load: async () => (await import("./commands/serve.js")).serveCommand,
  },
  {
    name: "license",
    summary: "editions: make a licence key pair, sign a licence, show a licence file",
    load: async () => (await import("./commands/license.js")).licenseCommand,
  },
  {
    name: "user",
    summary: "team server: add, list and remove users (lore user add anna)",
    load: async () => (await import("./commands/user.js")).userCommand,
  },
  {
    name: "token",
    summary: "team server: create (shown once), list and revoke API tokens",
    load: async () => (await import("./commands/token.js")).tokenCommand,
  },
  {
    name: "group",
    summary: "team server: groups of users and their members",
    load: async () => (await import("./commands/group.js")).groupCommand,
  },
  {
    name: "access",
    summary: "team server: grant and revoke read, write or admin on a repository",
    load: async () => (await import("./commands/access.js")).accessCommand,
  },
  {
    name: "key",
    summary: "team server: add, list and remove users' SSH public keys",
    load: async () => (await import("./commands/key.js")).keyCommand,
  },
  {
    name: "repo",
    summary: "team server: create, list and remove hosted repositories (bare, in the data folder)",
    load: async () => (await import("./commands/repo.js")).repoCommand,
  },
  {
    name: "branch",
    summary:
      "team server: protect branches (who may push, force pushes, required approvals) of a repository",
    load: async () => (await import("./commands/branch.js")).branchCommand,
  },
  {
    name: "mr",
    summary: "team server: list, show, approve, merge or close merge requests",
    load: async () => (await import("./commands/mr.js")).mrCommand,
  },
  {
    name: "db",
    summary: "move the team server's database from SQLite to PostgreSQL (db migrate --to URL)",
    load: async () => (await import("./commands/db.js")).dbCommand,
  },
];
