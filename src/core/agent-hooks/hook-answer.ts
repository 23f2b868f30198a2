/**
 * The JSON an agent hook answers on stdout, per client (section "Deterministic surfacing
 * through agent hooks"). Pure.
 *
 * - Claude Code and Codex CLI: `{"hookSpecificOutput": {"hookEventName": <event>,
 *   "additionalContext": <text>}}` for `UserPromptSubmit`, `PreToolUse` and `SessionStart`
 *   (the field both document for these events; Codex's published output schemas list it for
 *   all three). Nothing to say: `{}` (every output field is optional).
 * - Cursor: only `sessionStart` takes context, as `{"additional_context": <text>}`.
 *   `beforeSubmitPrompt` can only allow or block (`{"continue": true}` is its no-op), and
 *   `beforeMCPExecution` / `beforeShellExecution` only decide a permission: Lore answers
 *   `{}` there, deciding nothing (an `allow` would skip the user's approval).
 */
import type { AgentClient, AgentEvent } from "./agent-event.js";

/**
 * Whether the client takes injected context for this event (else recalling would show the
 * model nothing, and no entry may be counted as shown).
 *
 * @param event - the hook call.
 */
export function takesContext(event: Pick<AgentEvent, "client" | "kind">): boolean {
  if (event.kind === "other") return false;
  if (event.client === "cursor") return event.kind === "session";
  return true;
}

/**
 * The answer for an event, with context or without.
 *
 * @param client - the client.
 * @param eventName - the event as the client spells it (`""` when the input was unreadable).
 * @param context - the text to inject; `""` or absent = inject nothing.
 * @returns one line of JSON (no newline).
 */
export function hookAnswer(client: AgentClient, eventName: string, context?: string): string {
  const has = context !== undefined && context !== "";
  if (client === "cursor") {
    if (eventName === "sessionStart" && has) return JSON.stringify({ additional_context: context });
    if (eventName === "beforeSubmitPrompt") return JSON.stringify({ continue: true });
    return "{}";
  }
  if (!has) return "{}";
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: eventName, additionalContext: context },
  });
}
