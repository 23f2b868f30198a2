import { describe, expect, it } from "vitest";
import { isAgentClient, parseAgentEvent, toolNamesFor } from "./agent-event.js";

describe("parseAgentEvent", () => {
  it("reads Claude Code's UserPromptSubmit, PreToolUse and SessionStart", () => {
    const prompt = parseAgentEvent(
      "claude-code",
      JSON.stringify({
        session_id: "s1",
        cwd: "/p",
        hook_event_name: "UserPromptSubmit",
        prompt: "roll back",
      }),
    );
    expect(prompt).toEqual({
      client: "claude-code",
      name: "UserPromptSubmit",
      kind: "prompt",
      session: "s1",
      cwd: "/p",
      prompt: "roll back",
    });
    const tool = parseAgentEvent(
      "claude-code",
      JSON.stringify({
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls" },
      }),
    );
    expect(tool).toMatchObject({ kind: "tool", tool: "Bash", toolInput: { command: "ls" } });
    expect(
      parseAgentEvent("codex", '{"hook_event_name":"SessionStart","source":"startup"}').kind,
    ).toBe("session");
    expect(parseAgentEvent("claude-code", '{"hook_event_name":"Stop"}').kind).toBe("other");
  });

  it("reads Cursor's events: session from conversation_id, cwd from workspace_roots, the shell as a tool", () => {
    const start = parseAgentEvent(
      "cursor",
      JSON.stringify({
        hook_event_name: "sessionStart",
        conversation_id: "c1",
        workspace_roots: ["/w"],
      }),
    );
    expect(start).toMatchObject({ kind: "session", session: "c1", cwd: "/w" });
    const shell = parseAgentEvent(
      "cursor",
      JSON.stringify({
        hook_event_name: "beforeShellExecution",
        command: "make deploy",
        cwd: "/w/sub",
      }),
    );
    expect(shell).toMatchObject({
      kind: "tool",
      tool: "Shell",
      toolInput: "make deploy",
      cwd: "/w/sub",
    });
  });

  it("refuses what is not a JSON object with invalid_input", () => {
    for (const bad of ["", "{x", "[]", "null", "3"]) {
      expect(() => parseAgentEvent("claude-code", bad)).toThrow(
        expect.objectContaining({ code: "invalid_input" }),
      );
    }
  });
});

describe("toolNamesFor / isAgentClient", () => {
  it("gives the full and the bare name of an MCP tool, the name alone otherwise", () => {
    expect(toolNamesFor("mcp__github__create_issue")).toEqual([
      "mcp__github__create_issue",
      "create_issue",
    ]);
    expect(toolNamesFor("mcp__srv__a__b")).toEqual(["mcp__srv__a__b", "a__b"]);
    expect(toolNamesFor("mcp__only")).toEqual(["mcp__only"]);
    expect(toolNamesFor("Bash")).toEqual(["Bash"]);
  });

  it("knows the three clients", () => {
    expect(["claude-code", "codex", "cursor"].every(isAgentClient)).toBe(true);
    expect(isAgentClient("install")).toBe(false);
    expect(isAgentClient(undefined)).toBe(false);
  });
});
