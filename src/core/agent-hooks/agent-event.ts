/**
 * An agent client's hook call, read from the JSON the client writes on the hook's stdin
 * (issue "Knowledge that surfaces by itself", section "Deterministic surfacing through agent
 * hooks"; seed 004's contracts `on_query` / `on_tool` are what it fires). Pure: no I/O.
 *
 * The shapes, from the clients' hook documentation:
 * - Claude Code (`hooks` in `.claude/settings.json`): every event carries `session_id`,
 *   `transcript_path`, `cwd`, `hook_event_name`; `UserPromptSubmit` adds `prompt`,
 *   `PreToolUse` adds `tool_name` and `tool_input` (an object; MCP tools are named
 *   `mcp__<server>__<tool>`), `SessionStart` adds `source` (`startup`, `resume`, `clear`,
 *   `compact`).
 * - Codex CLI (`.codex/hooks.json`): the same wire format (its published input schemas add
 *   `model`, `permission_mode`, `turn_id`, `tool_use_id`).
 * - Cursor (`.cursor/hooks.json`): every event carries `conversation_id`, `generation_id`,
 *   `hook_event_name`, `workspace_roots`; `sessionStart` adds `session_id`,
 *   `beforeSubmitPrompt` adds `prompt`, `beforeMCPExecution` adds `tool_name` and
 *   `tool_input` (a JSON string), `beforeShellExecution` adds `command` and `cwd`.
 */
import { LoreError } from "../errors/lore-error.js";

/** The agent clients `lore hook <client>` answers. */
export const AGENT_CLIENTS = ["claude-code", "codex", "cursor"] as const;

/** One of {@link AGENT_CLIENTS}. */
export type AgentClient = (typeof AGENT_CLIENTS)[number];

/** Whether a word names an agent client (`lore hook claude-code`). */
export function isAgentClient(word: string | undefined): word is AgentClient {
  return word !== undefined && (AGENT_CLIENTS as readonly string[]).includes(word);
}

/**
 * What an event asks of Lore: `prompt` (recall with the prompt as query), `tool` (recall
 * with the tool's name and its input as query), `session` (a note of what Lore holds),
 * `other` (nothing: an event Lore does not serve).
 */
export type AgentEventKind = "prompt" | "tool" | "session" | "other";

/** A hook call, normalised over the clients. */
export interface AgentEvent {
  client: AgentClient;
  /** The event name as the client spells it (`UserPromptSubmit`, `sessionStart`); `""` when absent. */
  name: string;
  kind: AgentEventKind;
  /** The agent session (`session_id`; Cursor: `session_id`, else `conversation_id`). */
  session?: string;
  /** The project folder (`cwd`; Cursor: `cwd`, else the first of `workspace_roots`). */
  cwd?: string;
  /** The user's prompt (`prompt` events). */
  prompt?: string;
  /** The tool about to run (`tool` events): `Bash`, `mcp__github__create_issue` … */
  tool?: string;
  /** The tool's input as the client sent it (an object, or Cursor's JSON string). */
  toolInput?: unknown;
}

const CLAUDE_KINDS: Readonly<Record<string, AgentEventKind>> = {
  UserPromptSubmit: "prompt",
  PreToolUse: "tool",
  SessionStart: "session",
};

const CURSOR_KINDS: Readonly<Record<string, AgentEventKind>> = {
  beforeSubmitPrompt: "prompt",
  beforeMCPExecution: "tool",
  beforeShellExecution: "tool",
  preToolUse: "tool",
  sessionStart: "session",
};

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Reads a hook call.
 *
 * @param client - the client the hook was installed for (`lore hook <client>`).
 * @param input - the hook's stdin, UTF-8 JSON.
 * @returns the normalised event; an event name Lore does not serve gives kind `other`.
 * @throws LoreError `invalid_input` when the input is not JSON or not a JSON object.
 */
export function parseAgentEvent(client: AgentClient, input: string): AgentEvent {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch (error) {
    throw new LoreError("invalid_input", {
      reason: `the hook input is not JSON (${error instanceof Error ? error.message : String(error)})`,
      reason_ru: "вход хука — не JSON",
    });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new LoreError("invalid_input", {
      reason: "the hook input is not a JSON object",
      reason_ru: "вход хука — не объект JSON",
    });
  }
  const o = value as Record<string, unknown>;
  const name = text(o.hook_event_name) ?? "";
  const kinds = client === "cursor" ? CURSOR_KINDS : CLAUDE_KINDS;
  const event: AgentEvent = { client, name, kind: kinds[name] ?? "other" };
  const session = text(o.session_id) ?? (client === "cursor" ? text(o.conversation_id) : undefined);
  if (session !== undefined) event.session = session;
  const roots = Array.isArray(o.workspace_roots) ? o.workspace_roots : [];
  const cwd = text(o.cwd) ?? (client === "cursor" ? text(roots[0]) : undefined);
  if (cwd !== undefined) event.cwd = cwd;
  if (event.kind === "prompt") {
    const prompt = text(o.prompt);
    if (prompt !== undefined) event.prompt = prompt;
  }
  if (event.kind === "tool") {
    // Cursor's shell hook names no tool: it is the shell, and its command is the input.
    const tool = text(o.tool_name) ?? (name === "beforeShellExecution" ? "Shell" : undefined);
    if (tool !== undefined) event.tool = tool;
    const input = o.tool_input ?? (name === "beforeShellExecution" ? o.command : undefined);
    if (input !== undefined) event.toolInput = input;
  }
  return event;
}

/**
 * The names an `on_tool` contract may use for a tool: the name itself and, for an MCP tool
 * as Claude Code and Codex name it (`mcp__<server>__<tool>`), the bare `<tool>` (which is
 * what an entry written for one MCP server's tool says, whatever the client calls the server).
 *
 * @param tool - the tool name from the hook call.
 * @returns one or two distinct names, the full one first.
 */
export function toolNamesFor(tool: string): string[] {
  const parts = tool.split("__");
  if (parts[0] === "mcp" && parts.length >= 3) {
    const bare = parts.slice(2).join("__");
    if (bare !== "" && bare !== tool) return [tool, bare];
  }
  return [tool];
}
