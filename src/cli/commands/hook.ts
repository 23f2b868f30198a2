import { homedir } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type AgentClient, isAgentClient } from "../../core/agent-hooks/agent-event.js";
import { LoreError } from "../../core/errors/lore-error.js";
import {
  HOOK_LAYOUTS,
  type HookLayout,
  hookFile,
  LORE_HOOKS,
  type LoreHook,
} from "../../core/push/hook-script.js";
import { runPushHook } from "../../hooks/push/push-hook.js";
import { flag, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE =
  "lore hook install <bare-repo> [--layout plain|gitlab|gitea] [--name owner/name] [--data D] [--force]";

const AGENT_USAGE = "lore hook install|uninstall claude-code|codex|cursor [--project|--user]";

/**
 * `lore hook`: the agent hooks (`lore hook claude-code|codex|cursor`, run by the client;
 * `install|uninstall <client>` into its settings file) and Lore's push hooks (`install
 * <bare-repo>`; `pre-receive`, `post-receive`, run by git). The word after `install` tells
 * them apart: a client's name, else a folder.
 */
export const hookCommand: Command = {
  name: "hook",
  summary: "agent hooks (Claude Code, Codex, Cursor) and the parse-on-push git hooks",
  help: [
    `Usage: ${AGENT_USAGE}`,
    "       lore hook claude-code|codex|cursor          (run by the agent client, JSON on stdin)",
    `       ${USAGE}`,
    "       lore hook pre-receive|post-receive --data D [--name owner/name]   (run by git)",
    "",
    "Agent hooks: install writes Lore's entries into the client's hook settings, merged",
    "with what the file holds (other hooks and keys stay), idempotent; uninstall removes",
    "exactly Lore's entries (known by their command). --project (default) is the project's",
    "file (at the top of the git work tree, else in the working folder), --user the user's:",
    "  claude-code  .claude/settings.json  ~/.claude/settings.json",
    "               (SessionStart, UserPromptSubmit, PreToolUse)",
    "  codex        .codex/hooks.json      $CODEX_HOME/hooks.json (~/.codex)",
    "               (SessionStart, UserPromptSubmit, PreToolUse)",
    "  cursor       .cursor/hooks.json     ~/.cursor/hooks.json   (sessionStart)",
    "The command runs this node and this Lore by absolute path. At a prompt the hook",
    "recalls with the prompt, before a tool call with the tool's name and input, at a",
    "session's start it notes what Lore holds; the summaries (≤ 4 KiB, each with its id)",
    "are injected, and count as shown. It always exits 0 within [hooks] budget_ms",
    "(default 300 ms); a failure answers nothing and says one line on stderr.",
    "",
    "Git push hooks:",
    "install writes hooks/pre-receive and hooks/post-receive (mode 0755) into a bare",
    "repository: small sh scripts that run this node and this Lore with the index file",
    "([index] database / LORE_DB), the server's data folder ([server] data) and the",
    "configuration file embedded, so they work under git http-backend, inside another git",
    "server's hooks folder (Gitea, GitLab) and without lore serve running. A hook that is",
    "not Lore's is refused unless --force.",
    "",
    "pre-receive parses the knowledge files each pushed branch changed and prints the",
    "report (remote: lines); it refuses a push only by branch protection. post-receive",
    "indexes the default branch's changed files. Any failure is logged to",
    "<data>/logs/hooks.log and the push goes through, except into a repository with",
    "branch protection rules (its lore-protected marker): there a pre-receive that cannot",
    "run or check refuses the push (branch_protected).",
    "",
    "Options:",
    "  --name owner/name  the repository's name in the index (default: from the folder,",
    "                     <data>/repos/<owner>/<name>.git or <owner>/<name>.git)",
    "  --layout L         where the server runs hooks from: plain (hooks/, default),",
    "                     gitlab (custom_hooks/), gitea (hooks/pre-receive.d/lore …)",
    "  --force            replace hooks that are not Lore's",
    "  --data D           (pre-receive, post-receive) the server's data folder",
    "",
    "Exit codes: 0 ok (and every push the parse fails on), 5 a push refused by branch",
    "protection (the script makes it git's refusal), 3 the folder does not exist, 4 a hook",
    "that is not Lore's is there.",
  ].join("\n"),
  options: {
    name: { type: "string" },
    force: { type: "boolean" },
    data: { type: "string" },
    layout: { type: "string" },
    project: { type: "boolean" },
    user: { type: "boolean" },
  },
  async run(ctx, args) {
    const [word, target, ...extra] = args.positionals;
    if (isAgentClient(word) && target === undefined) {
      const { runAgentHook } = await import("../../hooks/agent/agent-hook.js");
      return runAgentHook(word, {
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
        env: process.env,
        cwd: ctx.cwd,
      });
    }
    if ((word === "install" || word === "uninstall") && isAgentClient(target)) {
      if (extra.length > 0) {
        throw new LoreError("invalid_input", { reason: `usage: ${AGENT_USAGE}` });
      }
      return agentHookFiles(ctx, word, target, args);
    }
    if (word === "install") {
      if (target === undefined || extra.length > 0) {
        throw new LoreError("invalid_input", { reason: `usage: ${AGENT_USAGE}; ${USAGE}` });
      }
      const settings = ctx.settings();
      const { installHooks } = await import("../../services/push/install-hooks.js");
      const { hookInstallOptions } = await import("../../main/compose-hook.js");
      const dir = resolve(ctx.cwd, target);
      const name = stringOption(args, "name");
      const layout = stringOption(args, "layout") ?? "plain";
      if (!(HOOK_LAYOUTS as readonly string[]).includes(layout)) {
        throw new LoreError("invalid_input", {
          reason: `--layout must be one of ${HOOK_LAYOUTS.join(", ")}`,
          reason_ru: `--layout должен быть одним из: ${HOOK_LAYOUTS.join(", ")}`,
        });
      }
      await installHooks(dir, {
        layout: layout as HookLayout,
        ...hookInstallOptions(settings, stringOption(args, "data")),
        ...(name === undefined ? {} : { name }),
        force: flag(args, "force"),
      });
      const files = LORE_HOOKS.map((hook) => hookFile(hook, layout as HookLayout)).join(", ");
      ctx.out(ctx.lang === "ru" ? `записаны в ${dir}: ${files}` : `wrote into ${dir}: ${files}`);
      return EXIT_CODES.ok;
    }
    if (word !== undefined && (LORE_HOOKS as readonly string[]).includes(word)) {
      return runGitHook(ctx, word as LoreHook, args);
    }
    throw new LoreError("invalid_input", {
      reason: `usage: ${AGENT_USAGE}; ${USAGE}`,
      reason_ru: `использование: ${AGENT_USAGE}; ${USAGE}`,
    });
  },
};

/** `lore hook install|uninstall <client>`: the settings file written, one line said. */
async function agentHookFiles(
  ctx: Parameters<Command["run"]>[0],
  word: "install" | "uninstall",
  client: AgentClient,
  args: Parameters<Command["run"]>[1],
): Promise<number> {
  if (flag(args, "project") && flag(args, "user")) {
    throw new LoreError("invalid_input", {
      reason: "--project and --user exclude each other",
      reason_ru: "--project и --user исключают друг друга",
    });
  }
  const scope = flag(args, "user") ? "user" : "project";
  const {
    agentHookCommand,
    hookSettingsFile,
    installAgentHooks,
    projectFolder,
    uninstallAgentHooks,
  } = await import("../../services/agent-hooks/install-agent-hooks.js");
  const file = hookSettingsFile(client, scope, {
    project: projectFolder(ctx.cwd),
    home: homedir(),
    env: process.env,
  });
  const ru = ctx.lang === "ru";
  if (word === "install") {
    const command = agentHookCommand(client, {
      node: process.execPath,
      main: fileURLToPath(new URL("../main.js", import.meta.url)),
    });
    const change = await installAgentHooks(client, file, command);
    ctx.out(
      change.changed
        ? ru
          ? `хуки Lore для ${client} записаны в ${file}`
          : `wrote Lore's ${client} hooks into ${file}`
        : ru
          ? `хуки Lore для ${client} уже есть в ${file}; без изменений`
          : `Lore's ${client} hooks are already in ${file}; nothing changed`,
    );
    return EXIT_CODES.ok;
  }
  const change = await uninstallAgentHooks(client, file);
  ctx.out(
    change.changed
      ? ru
        ? `хуки Lore для ${client} удалены из ${file} (${change.removed})`
        : `removed Lore's ${client} hooks from ${file} (${change.removed})`
      : ru
        ? `в ${file} нет хуков Lore для ${client}; без изменений`
        : `no Lore ${client} hooks in ${file}; nothing changed`,
  );
  return EXIT_CODES.ok;
}

/** Runs a hook as git calls it (see `hooks/push/push-hook.ts`). */
async function runGitHook(
  ctx: Parameters<Command["run"]>[0],
  hook: LoreHook,
  args: Parameters<Command["run"]>[1],
): Promise<number> {
  const data = stringOption(args, "data");
  const name = stringOption(args, "name");
  return runPushHook(
    hook,
    { ...(data === undefined ? {} : { data }), ...(name === undefined ? {} : { name }) },
    {
      stdin: process.stdin,
      stderr: process.stderr,
      env: process.env,
      cwd: ctx.cwd,
      settings: () => ctx.settings(),
      lang: () => ctx.lang,
    },
  );
}
