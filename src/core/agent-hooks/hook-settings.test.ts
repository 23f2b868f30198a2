import { describe, expect, it } from "vitest";
import { installHookSettings, isLoreHookCommand, uninstallHookSettings } from "./hook-settings.js";

const CMD = "'/usr/bin/node' '/opt/lore/dist/cli/main.js' hook claude-code";

describe("isLoreHookCommand", () => {
  it("knows Lore's command by its ending and its Lore, wherever installed", () => {
    expect(isLoreHookCommand(CMD, "claude-code")).toBe(true);
    expect(isLoreHookCommand("lore hook claude-code", "claude-code")).toBe(true);
    expect(isLoreHookCommand(CMD, "codex")).toBe(false);
    expect(isLoreHookCommand("./my-hook hook claude-code", "claude-code")).toBe(false);
    expect(isLoreHookCommand(undefined, "claude-code")).toBe(false);
  });
});

describe("installHookSettings / uninstallHookSettings", () => {
  const theirs = {
    env: { A: "1" },
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard" }] }],
      // A group shared with another tool's hook: uninstall keeps the group and that hook.
      UserPromptSubmit: [{ hooks: [{ type: "command", command: "log-prompt" }] }],
    },
  };

  it("adds one entry per event after the file's own, and a second install changes nothing", () => {
    const first = installHookSettings(theirs, "claude-code", CMD, "f");
    expect(first.changed).toBe(true);
    const hooks = first.settings.hooks as Record<string, unknown[]>;
    expect(hooks.PreToolUse).toEqual([
      theirs.hooks.PreToolUse[0],
      { hooks: [{ type: "command", command: CMD, timeout: 5 }] },
    ]);
    expect(hooks.SessionStart).toHaveLength(1);
    expect(first.settings.env).toEqual({ A: "1" });
    expect(theirs.hooks.PreToolUse).toHaveLength(1);
    const second = installHookSettings(first.settings, "claude-code", CMD, "f");
    expect(second.changed).toBe(false);
    expect(second.settings).toBe(first.settings);
  });

  it("uninstall gives back exactly the file before install", () => {
    const installed = installHookSettings(theirs, "claude-code", CMD, "f").settings;
    const removed = uninstallHookSettings(installed, "claude-code", "f");
    expect(removed.removed).toBe(3);
    expect(removed.settings).toEqual(theirs);
    expect(uninstallHookSettings({}, "claude-code", "f")).toEqual({
      settings: {},
      changed: false,
      removed: 0,
    });
    const alone = installHookSettings({}, "claude-code", CMD, "f").settings;
    expect(uninstallHookSettings(alone, "claude-code", "f").settings).toEqual({});
  });

  it("keeps another tool's hook that shares a group with Lore's", () => {
    const shared = {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              { type: "command", command: "log" },
              { type: "command", command: CMD },
            ],
          },
        ],
      },
    };
    expect(uninstallHookSettings(shared, "claude-code", "f").settings).toEqual({
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "log" }] }] },
    });
  });

  it("Cursor: flat entries, the version added first", () => {
    const cmd = "'/n' '/l/dist/cli/main.js' hook cursor";
    const out = installHookSettings(
      { hooks: { stop: [{ command: "x" }] } },
      "cursor",
      cmd,
      "f",
    ).settings;
    expect(out).toEqual({
      version: 1,
      hooks: { stop: [{ command: "x" }], sessionStart: [{ command: cmd }] },
    });
    expect(uninstallHookSettings(out, "cursor", "f").settings).toEqual({
      version: 1,
      hooks: { stop: [{ command: "x" }] },
    });
  });

  it("refuses hooks not shaped as documented, naming the file", () => {
    expect(() => installHookSettings({ hooks: [] }, "claude-code", CMD, "/p/s.json")).toThrow(
      /\/p\/s.json/,
    );
    expect(() => installHookSettings({ hooks: { Stop: {} } }, "codex", CMD, "f")).toThrow(
      expect.objectContaining({ code: "invalid_input" }),
    );
  });
});

describe("a matcher the user put on Lore's group", () => {
  it("is kept by a second install", () => {
    const installed = installHookSettings({}, "claude-code", CMD, "f").settings as {
      hooks: Record<string, { matcher?: string }[]>;
    };
    const group = installed.hooks.PreToolUse?.[0] as { matcher?: string };
    group.matcher = "mcp__.*|Bash";
    const again = installHookSettings(installed, "claude-code", CMD, "f");
    expect(again.changed).toBe(false);
  });
});
