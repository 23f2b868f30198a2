import { describe, expect, it } from "vitest";
import { hookAnswer, takesContext } from "./hook-answer.js";

describe("hookAnswer", () => {
  it("Claude Code and Codex: hookSpecificOutput with the event's name, {} when empty", () => {
    expect(JSON.parse(hookAnswer("claude-code", "PreToolUse", "ctx"))).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "ctx" },
    });
    expect(hookAnswer("codex", "UserPromptSubmit", "")).toBe("{}");
    expect(hookAnswer("claude-code", "")).toBe("{}");
  });

  it("Cursor: additional_context at sessionStart only; continue at beforeSubmitPrompt; {} else", () => {
    expect(JSON.parse(hookAnswer("cursor", "sessionStart", "note"))).toEqual({
      additional_context: "note",
    });
    expect(hookAnswer("cursor", "sessionStart")).toBe("{}");
    expect(JSON.parse(hookAnswer("cursor", "beforeSubmitPrompt", "ignored"))).toEqual({
      continue: true,
    });
    expect(hookAnswer("cursor", "beforeMCPExecution", "ignored")).toBe("{}");
  });

  it("takesContext: every served event but Cursor's, which takes it at session start only", () => {
    expect(takesContext({ client: "claude-code", kind: "tool" })).toBe(true);
    expect(takesContext({ client: "codex", kind: "other" })).toBe(false);
    expect(takesContext({ client: "cursor", kind: "prompt" })).toBe(false);
    expect(takesContext({ client: "cursor", kind: "session" })).toBe(true);
  });
});
