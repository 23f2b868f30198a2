/**
 * The agent hooks wired from the settings (section "Deterministic surfacing through agent
 * hooks"): one hook call in, one answer out. Loads only what a hook needs — the settings,
 * the index, recall — never the MCP SDK, the HTTP server, the indexer or git (the hook
 * runs before every prompt and tool call of an agent, so its process start is on the
 * agent's path).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type AgentClient, parseAgentEvent } from "../core/agent-hooks/agent-event.js";
import { hitsContext, sessionNote } from "../core/agent-hooks/context-text.js";
import { hookAnswer, takesContext } from "../core/agent-hooks/hook-answer.js";
import { DEFAULT_HOOK_BUDGET_MS } from "../core/config/config-defaults.js";
import { wikiRepoName } from "../core/recall/hit-source.js";
import { openIndex } from "../index/entry-index.js";
import { toolNames } from "../mcp/tool-names.js";
import { projectFacts, surfaceForEvent } from "../services/agent-hooks/surface.js";
import type { LoreEnv, LoreSettings } from "./load-config.js";

/**
 * The settings of a hook process, read before its stdin so that its time budget
 * (`[hooks] budget_ms`) is known from the start: from the process's working folder (the
 * project: clients start hooks there), cached while the configuration files are unchanged
 * (`hook-settings-cache.ts`: the configuration reader's zod alone costs more CPU than the
 * rest of the hook).
 *
 * @param cwd - the working folder.
 * @param env - the environment.
 * @throws LoreError `config_invalid` when a lore.toml is broken.
 */
export async function loadHookSettings(cwd: string, env: LoreEnv): Promise<LoreSettings> {
  const { cachedHookSettings } = await import("./hook-settings-cache.js");
  return cachedHookSettings(cwd, env);
}

/** The configured budget of a hook, ms (`[hooks] budget_ms`, default 300). */
export function hookBudgetMs(settings: LoreSettings): number {
  return settings.hooks?.budgetMs ?? DEFAULT_HOOK_BUDGET_MS;
}

/** Options of {@link answerAgentHook}. */
export interface AgentHookOptions {
  /** The hook process's working folder (the project, as clients start hooks there). */
  cwd: string;
  /** The settings (see {@link loadHookSettings}). */
  settings: LoreSettings;
  /** What is left of the time budget now, ms (may be ≤ 0). */
  remainingMs(): number;
}

/** The answer of {@link answerAgentHook}. */
export interface AgentHookAnswer {
  /** The JSON for stdout (one line). */
  answer: string;
  /** A line for stderr when nothing could be surfaced for a reason the user should know. */
  note?: string;
}

/**
 * Answers one hook call: parses the client's JSON, and for an event that takes context
 * recalls (prompt, tool call) or notes what Lore holds (session start), with the
 * configured user, on the configured index (`LORE_DB`, `[index] database`), and counts
 * the shown entries durably; answers the client's documented shape (`hookAnswer`).
 *
 * The index is opened with a busy timeout of the budget left, so a locked file costs at
 * most the budget; a missing index file is not created (the answer is empty and the note
 * says to run `lore index`).
 *
 * @param client - the client the hook was installed for.
 * @param input - the hook's stdin.
 * @param options - see {@link AgentHookOptions}.
 * @throws LoreError `invalid_input` (input not a JSON object), `index_failed`, and SQLite
 *   errors (a locked index past the budget): the edge answers empty for any throw.
 */
export async function answerAgentHook(
  client: AgentClient,
  input: string,
  options: AgentHookOptions,
): Promise<AgentHookAnswer> {
  const event = parseAgentEvent(client, input);
  if (!takesContext(event)) return { answer: hookAnswer(client, event.name) };
  const cwd = resolve(options.cwd, event.cwd ?? ".");
  const { settings } = options;
  const empty = { answer: hookAnswer(client, event.name) };
  if (!existsSync(settings.database)) {
    return { ...empty, note: `lore: no index at ${settings.database}; run \`lore index\`` };
  }
  const left = options.remainingMs();
  if (left <= 0) return { ...empty, note: "lore: hook time budget spent before the index opened" };
  const index = openIndex(settings.database, { busyTimeoutMs: left });
  try {
    const names = toolNames(settings.toolNames);
    if (event.kind === "session") {
      const roots = (settings.roots ?? []).map((root) => root.id);
      const note = sessionNote(projectFacts(index, cwd, roots), names.recall, names.open);
      return { answer: hookAnswer(client, event.name, note) };
    }
    // Each write (the shown counts, then the receipts at close) waits only what is left of
    // the budget for a lock: a locked index costs the budget once.
    index.setBusyTimeout(options.remainingMs());
    const surfaced = surfaceForEvent(index, {
      event,
      user: settings.user,
      wiki: wikiRepoName(resolve(settings.projectDir ?? cwd)),
    });
    const context = hitsContext(surfaced.hits, {
      trigger:
        event.kind === "tool" ? { kind: "tool", tool: event.tool ?? "" } : { kind: "prompt" },
      openTool: names.open,
      total: surfaced.total,
    });
    return {
      answer: hookAnswer(client, event.name, context),
      ...(surfaced.counted
        ? {}
        : { note: "lore: the shown entries could not be counted (index busy)" }),
    };
  } finally {
    index.setBusyTimeout(options.remainingMs());
    index.close();
  }
}
