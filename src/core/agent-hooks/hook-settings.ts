/**
 * Lore's entries in an agent client's hook settings (section "Deterministic surfacing
 * through agent hooks": `lore hook install|uninstall <client>`): merged into what the file
 * holds, never clobbering other hooks or keys, idempotent, and removed exactly. Pure: the
 * settings are parsed JSON values; reading and writing the file is the service's.
 *
 * The documented shapes:
 * - Claude Code (`.claude/settings.json`, `~/.claude/settings.json`) and Codex CLI
 *   (`.codex/hooks.json`, `~/.codex/hooks.json`): `{"hooks": {<Event>: [{"matcher"?: …,
 *   "hooks": [{"type": "command", "command": …, "timeout": <s>}]}]}}`. No matcher = every
 *   tool / every session source.
 * - Cursor (`.cursor/hooks.json`, `~/.cursor/hooks.json`): `{"version": 1, "hooks":
 *   {<event>: [{"command": …}]}}`.
 *
 * Lore's entries are recognised by their command: it ends with `hook <client>` and runs
 * Lore (`…/cli/main.js` or a `lore` binary), wherever that Lore was installed, so a moved
 * Lore's stale entry is replaced rather than doubled.
 */
import { LoreError } from "../errors/lore-error.js";
import type { AgentClient } from "./agent-event.js";

/** The events Lore installs per client (Cursor takes context at session start only). */
export const INSTALLED_EVENTS: Readonly<Record<AgentClient, readonly string[]>> = {
  "claude-code": ["SessionStart", "UserPromptSubmit", "PreToolUse"],
  codex: ["SessionStart", "UserPromptSubmit", "PreToolUse"],
  cursor: ["sessionStart"],
};

/**
 * The client's own time limit written with each entry, seconds: far above Lore's budget
 * (`[hooks] budget_ms`, 300 ms), only a guard should the process hang before Lore runs.
 */
export const CLIENT_TIMEOUT_S = 5;

/** A parsed settings file: a JSON object. */
export type SettingsObject = Record<string, unknown>;

/**
 * Whether a hook command is Lore's agent hook for a client.
 *
 * @param command - the `command` of a hook entry.
 * @param client - the client.
 */
export function isLoreHookCommand(command: unknown, client: AgentClient): boolean {
  if (typeof command !== "string") return false;
  const trimmed = command.trim();
  return (
    trimmed.endsWith(` hook ${client}`) &&
    /(?:cli\/main\.js|(?:^|[\s/'"])lore)['"]?\s/u.test(trimmed)
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function notShaped(file: string, what: string): LoreError {
  return new LoreError("invalid_input", {
    reason: `${file}: ${what}; not changed`,
    reason_ru: `${file}: ${what}; файл не изменён`,
  });
}

/** The `hooks` object of a settings file (absent = none), checked. */
function hooksOf(settings: SettingsObject, file: string): Record<string, unknown> | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) throw notShaped(file, '"hooks" is not an object');
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) throw notShaped(file, `"hooks.${event}" is not an array`);
  }
  return hooks;
}

function loreEntry(client: AgentClient, command: string): Record<string, unknown> {
  return client === "cursor"
    ? { command }
    : { type: "command", command, timeout: CLIENT_TIMEOUT_S };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Whether the file already holds exactly Lore's entries for the client, once each. */
function installedExactly(
  hooks: Record<string, unknown> | undefined,
  client: AgentClient,
  command: string,
): boolean {
  if (hooks === undefined) return false;
  const want = loreEntry(client, command);
  for (const event of INSTALLED_EVENTS[client]) {
    const list = (hooks[event] ?? []) as unknown[];
    let found = 0;
    let exact = false;
    for (const item of list) {
      if (client === "cursor") {
        if (isObject(item) && isLoreHookCommand(item.command, client)) {
          found++;
          exact = sameJson(item, want);
        }
        continue;
      }
      if (!isObject(item) || !Array.isArray(item.hooks)) continue;
      for (const hook of item.hooks) {
        if (isObject(hook) && isLoreHookCommand(hook.command, client)) {
          found++;
          // A matcher the user put on Lore's group (to run it for fewer tools) is theirs to keep.
          exact = sameJson(hook, want);
        }
      }
    }
    if (found !== 1 || !exact) return false;
  }
  // No Lore entry left over in an event Lore no longer installs.
  for (const [event, list] of Object.entries(hooks)) {
    if (INSTALLED_EVENTS[client].includes(event)) continue;
    if (removeFrom(list as unknown[], client).removed > 0) return false;
  }
  return true;
}

/** The list without Lore's entries for the client, and how many were dropped. */
function removeFrom(
  list: readonly unknown[],
  client: AgentClient,
): { list: unknown[]; removed: number } {
  let removed = 0;
  const out: unknown[] = [];
  for (const item of list) {
    if (client === "cursor") {
      if (isObject(item) && isLoreHookCommand(item.command, client)) removed++;
      else out.push(item);
      continue;
    }
    if (!isObject(item) || !Array.isArray(item.hooks)) {
      out.push(item);
      continue;
    }
    const kept = item.hooks.filter(
      (hook) => !(isObject(hook) && isLoreHookCommand(hook.command, client)),
    );
    const dropped = item.hooks.length - kept.length;
    removed += dropped;
    // A group Lore's entry emptied was Lore's own: it goes too; another group keeps its keys.
    if (dropped === 0) out.push(item);
    else if (kept.length > 0) out.push({ ...item, hooks: kept });
  }
  return { list: out, removed };
}

/** The result of {@link installHookSettings} / {@link uninstallHookSettings}. */
export interface SettingsChange {
  /** The new settings (a copy; the input is not changed). */
  settings: SettingsObject;
  /** False when the settings were already as asked (the file is then left as it is). */
  changed: boolean;
  /** Lore entries dropped (uninstall; install: stale ones replaced). */
  removed: number;
}

/**
 * Removes Lore's entries for a client from a settings object: from every event, groups and
 * events they leave empty with them, and `hooks` itself when nothing is left in it; every
 * other key, hook, group and event stays as it was.
 *
 * @param settings - the parsed file (`{}` for a missing one).
 * @param client - the client.
 * @param file - the file's path, for messages.
 * @throws LoreError `invalid_input` when `hooks` or one of its events is not shaped as the client documents.
 */
export function uninstallHookSettings(
  settings: SettingsObject,
  client: AgentClient,
  file: string,
): SettingsChange {
  const hooks = hooksOf(settings, file);
  if (hooks === undefined) return { settings, changed: false, removed: 0 };
  const next: Record<string, unknown> = {};
  let removed = 0;
  for (const [event, list] of Object.entries(hooks)) {
    const cut = removeFrom(list as unknown[], client);
    removed += cut.removed;
    if (cut.removed > 0 && cut.list.length === 0) continue;
    next[event] = cut.removed > 0 ? cut.list : list;
  }
  if (removed === 0) return { settings, changed: false, removed: 0 };
  const out: SettingsObject = { ...settings };
  if (Object.keys(next).length === 0) delete out.hooks;
  else out.hooks = next;
  return { settings: out, changed: true, removed };
}

/**
 * Adds Lore's entries for a client (one per event of {@link INSTALLED_EVENTS}, each in its
 * own group after the file's own, running `command`). When the file already holds exactly
 * them, nothing changes; else Lore's old entries are removed first (a moved Lore, an older
 * set of events), so a second install is never a second copy.
 *
 * @param settings - the parsed file (`{}` for a missing one).
 * @param client - the client.
 * @param command - the shell command that runs this Lore's hook (`'node' '…/main.js' hook <client>`).
 * @param file - the file's path, for messages.
 * @throws LoreError `invalid_input` when `hooks` or one of its events is not shaped as the client documents.
 */
export function installHookSettings(
  settings: SettingsObject,
  client: AgentClient,
  command: string,
  file: string,
): SettingsChange {
  if (installedExactly(hooksOf(settings, file), client, command)) {
    return { settings, changed: false, removed: 0 };
  }
  const cleared = uninstallHookSettings(settings, client, file);
  // Cursor's documented file starts with its format version.
  const out: SettingsObject =
    client === "cursor" && cleared.settings.version === undefined
      ? { version: 1, ...cleared.settings }
      : { ...cleared.settings };
  const hooks: Record<string, unknown> = { ...((out.hooks as Record<string, unknown>) ?? {}) };
  const entry = loreEntry(client, command);
  for (const event of INSTALLED_EVENTS[client]) {
    const list = [...((hooks[event] as unknown[] | undefined) ?? [])];
    list.push(client === "cursor" ? entry : { hooks: [entry] });
    hooks[event] = list;
  }
  out.hooks = hooks;
  return { settings: out, changed: true, removed: cleared.removed };
}
