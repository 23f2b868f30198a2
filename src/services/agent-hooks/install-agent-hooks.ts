/**
 * `lore hook install|uninstall claude-code|codex|cursor [--project|--user]` (section
 * "Deterministic surfacing through agent hooks"): Lore's hook entries written into the
 * client's settings file, merged with what it holds (`core/agent-hooks/hook-settings.ts`),
 * written atomically (beside, then renamed), and only when something changes.
 */
import { existsSync } from "node:fs";
import { chmod, lstat, mkdir, readFile, readlink, rename, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { AgentClient } from "../../core/agent-hooks/agent-event.js";
import {
  installHookSettings,
  type SettingsObject,
  uninstallHookSettings,
} from "../../core/agent-hooks/hook-settings.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { shellQuote } from "../../core/push/hook-script.js";

/** Which settings file: the project's (committed with it, or kept beside it) or the user's own. */
export type HookScope = "project" | "user";

/**
 * The settings file a client reads its hooks from.
 *
 * - claude-code: `<project>/.claude/settings.json`, `~/.claude/settings.json`;
 * - codex: `<project>/.codex/hooks.json`, `$CODEX_HOME/hooks.json` (default `~/.codex`);
 * - cursor: `<project>/.cursor/hooks.json`, `~/.cursor/hooks.json`.
 *
 * @param client - the client.
 * @param scope - `project` or `user`.
 * @param where - the project folder, the home folder, the environment (`CODEX_HOME`).
 * @returns the absolute path.
 */
export function hookSettingsFile(
  client: AgentClient,
  scope: HookScope,
  where: { project: string; home: string; env: Readonly<Record<string, string | undefined>> },
): string {
  const folder = client === "claude-code" ? ".claude" : client === "codex" ? ".codex" : ".cursor";
  const file = client === "claude-code" ? "settings.json" : "hooks.json";
  if (scope === "project") return join(where.project, folder, file);
  if (client === "codex" && where.env.CODEX_HOME) return join(where.env.CODEX_HOME, file);
  return join(where.home, folder, file);
}

/**
 * The project folder whose hook settings `--project` writes: the top of the git work tree
 * holding `cwd` (the nearest folder above it with a `.git`), where the clients look for
 * `.claude/`, `.codex/`, `.cursor/`; `cwd` itself outside a work tree.
 *
 * @param cwd - the working folder.
 * @returns an absolute path.
 */
export function projectFolder(cwd: string): string {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/**
 * The command a client runs for Lore's hook: this node and this Lore's `dist/cli/main.js`,
 * absolute and quoted for `sh` (as the git hook scripts do), so it works whatever `PATH`
 * the client gives its hooks.
 *
 * @param client - the client.
 * @param run - `node` (`process.execPath`) and `main` (the absolute path of `cli/main.js`).
 */
export function agentHookCommand(client: AgentClient, run: { node: string; main: string }): string {
  return `${shellQuote(run.node)} ${shellQuote(run.main)} hook ${client}`;
}

/** What an install or uninstall did. */
export interface HookFileChange {
  file: string;
  /** False when the file already was as asked (it is then not written). */
  changed: boolean;
  /** Lore entries removed (uninstall), or stale ones replaced (install). */
  removed: number;
}

async function readSettings(file: string): Promise<SettingsObject | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    throw new LoreError("invalid_input", {
      reason: `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}); not changed`,
      reason_ru: `${file} — не JSON; файл не изменён`,
    });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new LoreError("invalid_input", {
      reason: `${file} does not hold a JSON object; not changed`,
      reason_ru: `${file} не содержит объекта JSON; файл не изменён`,
    });
  }
  return value as SettingsObject;
}

async function writeSettings(file: string, settings: SettingsObject): Promise<void> {
  // A settings file kept as a link (a dotfiles repository) is written through the link: the
  // rename lands on its target, so the link stays and the target holds the change.
  const target = await linkTarget(file);
  await mkdir(dirname(target), { recursive: true });
  const mode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const temp = `${target}.lore-${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(settings, null, 2)}\n`);
  if (mode !== undefined) await chmod(temp, mode);
  await rename(temp, target);
}

/** The file a path names after following its symbolic links (a dangling one included). */
async function linkTarget(file: string, depth = 0): Promise<string> {
  const info = await lstat(file).catch(() => undefined);
  if (info === undefined || !info.isSymbolicLink() || depth > 16) return file;
  return linkTarget(resolve(dirname(file), await readlink(file)), depth + 1);
}

/**
 * Installs Lore's hook entries into a client's settings file (created with its folder when
 * absent); a file already holding exactly them is not touched.
 *
 * @param client - the client.
 * @param file - the settings file (see {@link hookSettingsFile}).
 * @param command - the command (see {@link agentHookCommand}).
 * @throws LoreError `invalid_input` when the file is not a JSON object or its `hooks` is not
 *   shaped as the client documents (the file is left as it is).
 */
export async function installAgentHooks(
  client: AgentClient,
  file: string,
  command: string,
): Promise<HookFileChange> {
  const before = (await readSettings(file)) ?? {};
  const change = installHookSettings(before, client, command, file);
  if (change.changed) await writeSettings(file, change.settings);
  return { file, changed: change.changed, removed: change.removed };
}

/**
 * Removes Lore's hook entries (recognised by their command) from a client's settings file;
 * everything else in it stays. A missing file, or one without Lore's entries, is not touched.
 *
 * @param client - the client.
 * @param file - the settings file.
 * @throws LoreError `invalid_input` as {@link installAgentHooks}.
 */
export async function uninstallAgentHooks(
  client: AgentClient,
  file: string,
): Promise<HookFileChange> {
  const before = await readSettings(file);
  if (before === undefined) return { file, changed: false, removed: 0 };
  const change = uninstallHookSettings(before, client, file);
  if (change.changed) await writeSettings(file, change.settings);
  return { file, changed: change.changed, removed: change.removed };
}
