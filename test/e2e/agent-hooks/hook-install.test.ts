/**
 * `lore hook install|uninstall claude-code|codex|cursor [--project|--user]` on real settings
 * files that already hold other hooks and keys: merged, never clobbered; a second install
 * changes nothing; uninstall removes exactly what install added; the installed command
 * runs this Lore. Real processes (`node dist/cli/main.js`), temp folders for the project and
 * HOME.
 */
import { spawn } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isolatedEnv, LORE_BIN, type LoreRun, runLore } from "../run-lore.js";

let box: ReturnType<typeof isolatedEnv>;
let project: string;

beforeEach(() => {
  box = isolatedEnv();
  project = join(box.dir, "project");
  mkdirSync(project, { recursive: true });
});
afterEach(() => box.cleanup());

const lore = (args: string[], env = box.env) => runLore(args, { cwd: project, env });

function writeJson(file: string, value: unknown): string {
  mkdirSync(join(file, ".."), { recursive: true });
  const text = `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(file, text);
  return text;
}

const readJson = (file: string) =>
  JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

/** Claude Code's settings with hooks of another tool and keys Lore must keep. */
const CLAUDE_SETTINGS = {
  permissions: { allow: ["Bash(npm run test:*)"] },
  hooks: {
    PreToolUse: [
      {
        matcher: "Bash",
        hooks: [{ type: "command", command: "/usr/local/bin/guard-bash", timeout: 10 }],
      },
    ],
    PostToolUse: [
      { matcher: "Edit|Write", hooks: [{ type: "command", command: "npx prettier --write" }] },
    ],
  },
  model: "claude-sonnet-4-5",
};

/** The Lore commands in a Claude Code / Codex settings object, by event. */
function loreCommands(settings: Record<string, unknown>, client: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const hooks = (settings.hooks ?? {}) as Record<
    string,
    { hooks?: { command: string }[]; command?: string }[]
  >;
  for (const [event, groups] of Object.entries(hooks)) {
    for (const group of groups) {
      const commands = group.hooks?.map((h) => h.command) ?? [group.command ?? ""];
      for (const command of commands) {
        if (command.endsWith(` hook ${client}`)) out[event] = [...(out[event] ?? []), command];
      }
    }
  }
  return out;
}

function runCommand(command: string, input: string, env: Record<string, string>): Promise<LoreRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], {
      cwd: project,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe("lore hook install claude-code", () => {
  it("--project merges into .claude/settings.json, idempotent, and uninstall is exact", async () => {
    const file = join(project, ".claude", "settings.json");
    const original = writeJson(file, CLAUDE_SETTINGS);

    const first = await lore(["hook", "install", "claude-code", "--project"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`wrote Lore's claude-code hooks into ${file}`);
    const installed = readJson(file);
    // Every other key and hook stays, in place.
    expect(installed.permissions).toEqual(CLAUDE_SETTINGS.permissions);
    expect(installed.model).toBe(CLAUDE_SETTINGS.model);
    const hooks = installed.hooks as Record<string, unknown[]>;
    expect(hooks.PreToolUse?.[0]).toEqual(CLAUDE_SETTINGS.hooks.PreToolUse[0]);
    expect(hooks.PostToolUse).toEqual(CLAUDE_SETTINGS.hooks.PostToolUse);
    const commands = loreCommands(installed, "claude-code");
    expect(Object.keys(commands).sort()).toEqual([
      "PreToolUse",
      "SessionStart",
      "UserPromptSubmit",
    ]);
    for (const list of Object.values(commands)) expect(list).toHaveLength(1);
    // Absolute node and main.js, quoted for sh.
    expect(commands.UserPromptSubmit?.[0]).toBe(
      `'${process.execPath}' '${LORE_BIN}' hook claude-code`,
    );
    expect(hooks.UserPromptSubmit?.[0]).toEqual({
      hooks: [{ type: "command", command: commands.UserPromptSubmit?.[0], timeout: 5 }],
    });

    const afterFirst = readFileSync(file, "utf8");
    const second = await lore(["hook", "install", "claude-code"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("already in");
    expect(readFileSync(file, "utf8")).toBe(afterFirst);

    const removed = await lore(["hook", "uninstall", "claude-code", "--project"]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("(3)");
    expect(readJson(file)).toEqual(JSON.parse(original));
    const again = await lore(["hook", "uninstall", "claude-code"]);
    expect(again.stdout).toContain("nothing changed");
  });

  it("--user writes ~/.claude/settings.json, and the installed command answers as the client expects", async () => {
    const run = await lore(["hook", "install", "claude-code", "--user"]);
    expect(run.code).toBe(0);
    const file = join(box.env.HOME as string, ".claude", "settings.json");
    expect(existsSync(join(project, ".claude"))).toBe(false);
    const command = loreCommands(readJson(file), "claude-code").SessionStart?.[0] as string;
    // A wide budget: a loaded test machine may take the default 300 ms to start node.
    const config = join(box.env.XDG_CONFIG_HOME as string, "lore");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "lore.toml"), "[hooks]\nbudget_ms = 60000\n");
    // No index yet: a valid empty answer, exit 0.
    const answered = await runCommand(
      command,
      JSON.stringify({
        session_id: "s",
        cwd: project,
        hook_event_name: "SessionStart",
        source: "startup",
      }),
      box.env,
    );
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.stdout)).toEqual({});
    expect(answered.stderr).toContain("no index at");
  });

  it("replaces a moved Lore's stale entry instead of adding a second one", async () => {
    const file = join(project, ".claude", "settings.json");
    writeJson(file, {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: "command",
                command: "'/old/node' '/old/lore/dist/cli/main.js' hook claude-code",
              },
            ],
          },
        ],
      },
    });
    await lore(["hook", "install", "claude-code"]);
    const commands = loreCommands(readJson(file), "claude-code");
    expect(commands.UserPromptSubmit).toHaveLength(1);
    expect(commands.UserPromptSubmit?.[0]).toContain(process.execPath);
  });

  it("--project from a subfolder of a git work tree writes at the work tree's top", async () => {
    mkdirSync(join(project, ".git"));
    const sub = join(project, "src", "deep");
    mkdirSync(sub, { recursive: true });
    const run = await runLore(["hook", "install", "claude-code"], { cwd: sub, env: box.env });
    expect(run.code).toBe(0);
    expect(existsSync(join(project, ".claude", "settings.json"))).toBe(true);
    expect(existsSync(join(sub, ".claude"))).toBe(false);
  });

  it("writes through a settings file kept as a link: the link stays, its target changes", async () => {
    const dotfiles = join(box.dir, "dotfiles", "claude-settings.json");
    const original = writeJson(dotfiles, CLAUDE_SETTINGS);
    const file = join(project, ".claude", "settings.json");
    mkdirSync(join(project, ".claude"), { recursive: true });
    symlinkSync(dotfiles, file);
    expect((await lore(["hook", "install", "claude-code", "--project"])).code).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(Object.keys(loreCommands(readJson(dotfiles), "claude-code"))).toHaveLength(3);
    expect((await lore(["hook", "uninstall", "claude-code", "--project"])).code).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readJson(dotfiles)).toEqual(JSON.parse(original));
  });

  it("refuses a settings file that is not JSON, and leaves it as it is", async () => {
    const file = join(project, ".claude", "settings.json");
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(file, "{ broken");
    const run = await lore(["hook", "install", "claude-code"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("is not valid JSON");
    expect(readFileSync(file, "utf8")).toBe("{ broken");
  });

  it("refuses --project with --user", async () => {
    const run = await lore(["hook", "install", "claude-code", "--project", "--user"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--project and --user");
  });
});

describe("lore hook install codex", () => {
  it("merges into .codex/hooks.json and $CODEX_HOME/hooks.json; uninstall is exact", async () => {
    const file = join(project, ".codex", "hooks.json");
    const original = writeJson(file, {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: "command", command: "/usr/bin/python3 .codex/hooks/stop.py", timeout: 30 },
            ],
          },
        ],
      },
    });
    expect((await lore(["hook", "install", "codex"])).code).toBe(0);
    const installed = readJson(file);
    expect(Object.keys(loreCommands(installed, "codex")).sort()).toEqual([
      "PreToolUse",
      "SessionStart",
      "UserPromptSubmit",
    ]);
    expect((installed.hooks as Record<string, unknown>).Stop).toEqual(
      JSON.parse(original).hooks.Stop,
    );
    const bytes = readFileSync(file, "utf8");
    expect((await lore(["hook", "install", "codex", "--project"])).stdout).toContain("already in");
    expect(readFileSync(file, "utf8")).toBe(bytes);
    expect((await lore(["hook", "uninstall", "codex"])).code).toBe(0);
    expect(readJson(file)).toEqual(JSON.parse(original));

    const codexHome = join(box.dir, "codex-home");
    const env = { ...box.env, CODEX_HOME: codexHome };
    expect((await lore(["hook", "install", "codex", "--user"], env)).code).toBe(0);
    expect(
      Object.keys(loreCommands(readJson(join(codexHome, "hooks.json")), "codex")),
    ).toHaveLength(3);
  });
});

describe("lore hook install cursor", () => {
  it("merges a sessionStart entry into .cursor/hooks.json (version 1); uninstall is exact", async () => {
    const file = join(project, ".cursor", "hooks.json");
    const original = writeJson(file, {
      version: 1,
      hooks: {
        sessionStart: [{ command: "./hooks/banner.sh" }],
        afterFileEdit: [{ command: "./hooks/format.sh" }],
      },
    });
    expect((await lore(["hook", "install", "cursor"])).code).toBe(0);
    const installed = readJson(file);
    const hooks = installed.hooks as Record<string, { command: string }[]>;
    expect(installed.version).toBe(1);
    expect(hooks.afterFileEdit).toEqual([{ command: "./hooks/format.sh" }]);
    expect(hooks.sessionStart?.[0]).toEqual({ command: "./hooks/banner.sh" });
    expect(hooks.sessionStart?.[1]?.command).toMatch(/ hook cursor$/);
    const bytes = readFileSync(file, "utf8");
    expect((await lore(["hook", "install", "cursor"])).stdout).toContain("already in");
    expect(readFileSync(file, "utf8")).toBe(bytes);
    expect((await lore(["hook", "uninstall", "cursor"])).code).toBe(0);
    expect(readJson(file)).toEqual(JSON.parse(original));
  });

  it("--user creates ~/.cursor/hooks.json with the version first", async () => {
    expect((await lore(["hook", "install", "cursor", "--user"])).code).toBe(0);
    const text = readFileSync(join(box.env.HOME as string, ".cursor", "hooks.json"), "utf8");
    expect(Object.keys(JSON.parse(text))).toEqual(["version", "hooks"]);
  });
});

describe("lore hook install <bare-repo> is still the git push hooks", () => {
  it("a folder after install installs the git hooks, not an agent's", async () => {
    const bare = join(box.dir, "srv.git");
    const init = await runLore(["--version"], { cwd: project, env: box.env });
    expect(init.code).toBe(0);
    mkdirSync(bare);
    const made = await new Promise<number | null>((resolve) => {
      spawn("git", ["init", "--bare", "--quiet", bare]).on("close", resolve);
    });
    expect(made).toBe(0);
    const run = await lore(["hook", "install", bare]);
    expect(run.code).toBe(0);
    expect(existsSync(join(bare, "hooks", "pre-receive"))).toBe(true);
    expect(existsSync(join(project, ".claude"))).toBe(false);
  });
});
