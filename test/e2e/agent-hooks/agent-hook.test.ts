/**
 * `lore hook claude-code|codex|cursor` as the clients run it: a real `node dist/cli/main.js`
 * process, the client's documented hook JSON on stdin (fixtures/), a real SQLite index built
 * by `lore index` from a temp git repository whose entries carry `on_query` / `on_tool`
 * contracts. Every case must exit 0 with a valid answer of the client's shape.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openIndex } from "../../../src/index/entry-index.js";
import { makeRepo, type TestRepo } from "../../helpers/make-repo.js";
import { isolatedEnv, LORE_BIN, type LoreRun, runLore } from "../run-lore.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

const ROLLBACK_ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const BARE_TOOL_ID = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
const FULL_TOOL_ID = "0190f5a4-3b2e-7f32-8c33-4d5e6f708192";
const BASH_ID = "0190f5a4-3b2f-7043-9d44-5e6f708192a3";

const entry = (id: string, contract: string, body: string) =>
  `---\nid: ${id}\norigin: human\ncontract:\n${contract}\n---\n\n${body}\n`;

const FILES = {
  ".gitriver/knowledge/rollback.md": entry(
    ROLLBACK_ID,
    '  - mechanism: on_query\n    params:\n      words: ["rollback", "release"]',
    "Roll a release back with helm rollback, never by redeploying the old tag.",
  ),
  ".gitriver/knowledge/migration-bare.md": entry(
    BARE_TOOL_ID,
    "  - mechanism: on_tool\n    params:\n      name: run_migration",
    "Run production migrations with a lock timeout of 5 s.",
  ),
  ".gitriver/knowledge/migration-full.md": entry(
    FULL_TOOL_ID,
    "  - mechanism: on_tool\n    params:\n      name: mcp__db__run_migration",
    "The db MCP server runs migrations on the primary only.",
  ),
  ".gitriver/knowledge/bash.md": entry(
    BASH_ID,
    "  - mechanism: on_tool\n    params:\n      name: Bash",
    "Prefer the project's make targets over raw shell commands.",
  ),
};

let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;

/** Writes the user's lore.toml of a sandbox with a hook budget, ms. */
function setBudget(box: ReturnType<typeof isolatedEnv>, ms: number): void {
  const folder = join(box.env.XDG_CONFIG_HOME as string, "lore");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "lore.toml"), `[hooks]\nbudget_ms = ${ms}\n`);
}

function fixture(client: string, name: string, cwd = repo.dir): string {
  return readFileSync(join(FIXTURES, client, `${name}.json`), "utf8").replaceAll("{{CWD}}", cwd);
}

function hook(client: string, input: string, env = sandbox.env, cwd = repo.dir): Promise<LoreRun> {
  return runLore(["hook", client], { cwd, env, input });
}

/** The answer's one line of JSON, parsed (the test fails when it is not JSON). */
function answerOf(run: LoreRun): Record<string, unknown> {
  expect(run.code).toBe(0);
  expect(run.stdout.endsWith("\n")).toBe(true);
  expect(run.stdout.trim().split("\n")).toHaveLength(1);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

function contextOf(answer: Record<string, unknown>, event: string): string {
  const out = answer.hookSpecificOutput as { hookEventName: string; additionalContext: string };
  expect(out.hookEventName).toBe(event);
  return out.additionalContext;
}

beforeAll(async () => {
  repo = await makeRepo(FILES);
  sandbox = isolatedEnv();
  // The machine running the tests may be slow: the functional cases get a wide budget (the
  // budget cases below set their own).
  setBudget(sandbox, 60_000);
  const indexed = await runLore(["index", "."], { cwd: repo.dir, env: sandbox.env });
  expect(indexed.code).toBe(0);
});
afterAll(async () => {
  await repo.cleanup();
  sandbox.cleanup();
});

describe("lore hook claude-code", () => {
  it("UserPromptSubmit injects the matched summaries with id and how to open them", async () => {
    const run = await hook("claude-code", fixture("claude-code", "UserPromptSubmit"));
    const context = contextOf(answerOf(run), "UserPromptSubmit");
    expect(context).toContain("Roll a release back with helm rollback");
    expect(context).toContain(`id ${ROLLBACK_ID}`);
    expect(context).toContain('on_query "release"');
    expect(context).toContain("lore get <id>");
    expect(context).toContain("knowledge_open");
    expect(Buffer.byteLength(context)).toBeLessThanOrEqual(4096);
    expect(run.stderr).toBe("");
  });

  it("PreToolUse of mcp__db__run_migration fires on_tool of the full and of the bare name", async () => {
    const run = await hook("claude-code", fixture("claude-code", "PreToolUse"));
    const context = contextOf(answerOf(run), "PreToolUse");
    expect(context).toContain(`id ${BARE_TOOL_ID}`);
    expect(context).toContain(`id ${FULL_TOOL_ID}`);
    expect(context).toContain("on_tool run_migration");
    expect(context).toContain("on_tool mcp__db__run_migration");
    expect(context).toContain("before the call of mcp__db__run_migration");
    expect(context).not.toContain(BASH_ID);
  });

  it("PreToolUse of Bash fires on_tool Bash, and the command's words recall by text", async () => {
    const run = await hook("claude-code", fixture("claude-code", "PreToolUse-Bash"));
    const context = contextOf(answerOf(run), "PreToolUse");
    expect(context).toContain(`id ${BASH_ID}`);
    // "helm rollback … release" in the tool input matches the rollback entry's contract.
    expect(context).toContain(`id ${ROLLBACK_ID}`);
  });

  it("SessionStart notes what Lore holds for the project", async () => {
    const run = await hook("claude-code", fixture("claude-code", "SessionStart"));
    const context = contextOf(answerOf(run), "SessionStart");
    expect(context).toContain("holds 4 knowledge entries");
    expect(context).toContain("knowledge_recall");
  });

  it("an event Lore does not serve (Stop) answers {} without opening the index", async () => {
    const run = await hook("claude-code", fixture("claude-code", "Stop"));
    expect(answerOf(run)).toEqual({});
    expect(run.stderr).toBe("");
  });

  it("a prompt that matches nothing answers {}", async () => {
    const input = JSON.stringify({
      session_id: "s",
      cwd: repo.dir,
      hook_event_name: "UserPromptSubmit",
      prompt: "zebra quantum marmalade",
    });
    const run = await hook("claude-code", input);
    expect(answerOf(run)).toEqual({});
  });

  it("malformed JSON, an empty stdin, a JSON array: exit 0, {}, one line on stderr", async () => {
    for (const input of ["{nope", "", "[1,2]"]) {
      const run = await hook("claude-code", input);
      expect(answerOf(run)).toEqual({});
      expect(run.stderr).toMatch(/^lore: hook claude-code answered nothing: .+\n$/);
    }
  });

  it("a missing index: exit 0, {}, a line saying to run lore index, and no file is created", async () => {
    const box = isolatedEnv();
    try {
      setBudget(box, 60_000);
      const run = await hook("claude-code", fixture("claude-code", "UserPromptSubmit"), box.env);
      expect(answerOf(run)).toEqual({});
      expect(run.stderr).toContain("no index at");
      expect(existsSync(box.env.LORE_DB as string)).toBe(false);
    } finally {
      box.cleanup();
    }
  });

  it("a broken lore.toml: exit 0, {} and the reason on stderr", async () => {
    const box = isolatedEnv({ LORE_DB: sandbox.env.LORE_DB as string });
    try {
      const folder = join(box.env.XDG_CONFIG_HOME as string, "lore");
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, "lore.toml"), "[hooks]\nbudget_ms = -3\n");
      const run = await hook("claude-code", fixture("claude-code", "UserPromptSubmit"), box.env);
      expect(answerOf(run)).toEqual({});
      expect(run.stderr).toMatch(/^lore: hook claude-code answered nothing: .+/);
    } finally {
      box.cleanup();
    }
  });

  it("the surfaced entries count as shown for the configured user, durably", async () => {
    const before = shownOf("tester", ROLLBACK_ID);
    const run = await hook("claude-code", fixture("claude-code", "UserPromptSubmit"));
    contextOf(answerOf(run), "UserPromptSubmit");
    // Read by another connection after the process ended: the count was committed.
    expect(shownOf("tester", ROLLBACK_ID)).toBe(before + 1);
    // A session start shows no entry: nothing is counted.
    await hook("claude-code", fixture("claude-code", "SessionStart"));
    expect(shownOf("tester", ROLLBACK_ID)).toBe(before + 1);
  });
});

describe("the settings cache", () => {
  it("reuses the settings of an unchanged lore.toml and reads a changed one again", async () => {
    const box = isolatedEnv({ LORE_DB: sandbox.env.LORE_DB as string });
    try {
      setBudget(box, 60_000);
      const first = await hook("claude-code", fixture("claude-code", "UserPromptSubmit"), box.env);
      contextOf(answerOf(first), "UserPromptSubmit");
      const cache = join(box.env.HOME as string, ".cache", "lore", "hook-settings.json");
      expect(existsSync(cache)).toBe(true);
      // Another user in the file: the next hook must count for that user, not the cached one.
      const before = shownOf("cached-other", ROLLBACK_ID);
      const folder = join(box.env.XDG_CONFIG_HOME as string, "lore");
      writeFileSync(
        join(folder, "lore.toml"),
        'user = "cached-other"\n[hooks]\nbudget_ms = 60000\n',
      );
      const second = await hook("claude-code", fixture("claude-code", "UserPromptSubmit"), box.env);
      contextOf(answerOf(second), "UserPromptSubmit");
      expect(shownOf("cached-other", ROLLBACK_ID)).toBe(before + 1);
    } finally {
      box.cleanup();
    }
  });
});

/** The user's shown count of an entry, read from the index file. */
function shownOf(user: string, id: string): number {
  const index = openIndex(sandbox.env.LORE_DB as string);
  try {
    return index.stats(user).find((row) => row.entryId === id)?.shown ?? 0;
  } finally {
    index.close();
  }
}

describe("lore hook codex", () => {
  it("answers the same hookSpecificOutput shape for its three events", async () => {
    const prompt = contextOf(
      answerOf(await hook("codex", fixture("codex", "UserPromptSubmit"))),
      "UserPromptSubmit",
    );
    expect(prompt).toContain(`id ${ROLLBACK_ID}`);
    const tool = contextOf(
      answerOf(await hook("codex", fixture("codex", "PreToolUse"))),
      "PreToolUse",
    );
    expect(tool).toContain(`id ${BASH_ID}`);
    const session = contextOf(
      answerOf(await hook("codex", fixture("codex", "SessionStart"))),
      "SessionStart",
    );
    expect(session).toContain("holds 4 knowledge entries");
  });
});

describe("lore hook cursor", () => {
  it("sessionStart injects the note as additional_context", async () => {
    const answer = answerOf(await hook("cursor", fixture("cursor", "sessionStart")));
    expect(Object.keys(answer)).toEqual(["additional_context"]);
    expect(answer.additional_context).toContain("holds 4 knowledge entries");
  });

  it("beforeSubmitPrompt (no context field in Cursor) answers its no-op and counts nothing", async () => {
    const before = shownOf("tester", ROLLBACK_ID);
    const run = await hook("cursor", fixture("cursor", "beforeSubmitPrompt"));
    expect(answerOf(run)).toEqual({ continue: true });
    expect(shownOf("tester", ROLLBACK_ID)).toBe(before);
  });

  it("beforeMCPExecution decides no permission: {}", async () => {
    expect(answerOf(await hook("cursor", fixture("cursor", "beforeMCPExecution")))).toEqual({});
  });

  it("malformed JSON answers {}", async () => {
    const run = await hook("cursor", "not json");
    expect(answerOf(run)).toEqual({});
    expect(run.stderr).toMatch(/^lore: hook cursor answered nothing/);
  });
});

describe("the time budget", () => {
  it("a locked index: exit 0 with {} once the budget is spent, the reason on stderr", async () => {
    const box = isolatedEnv({ LORE_DB: sandbox.env.LORE_DB as string });
    const locker = await lockIndex(sandbox.env.LORE_DB as string);
    try {
      setBudget(box, 1_500);
      const run = await hook("claude-code", fixture("claude-code", "UserPromptSubmit"), box.env);
      expect(answerOf(run)).toEqual({});
      expect(run.stderr).toMatch(
        /^lore: hook claude-code answered nothing: .*(budget|locked|busy|set up)/,
      );
    } finally {
      await locker.release();
      box.cleanup();
    }
  });

  it("an index another process is writing: the answer comes, the writes wait the budget once", async () => {
    const box = isolatedEnv({ LORE_DB: sandbox.env.LORE_DB as string });
    const locker = await lockIndex(sandbox.env.LORE_DB as string, "write");
    try {
      const budget = 2_000;
      setBudget(box, budget);
      const started = Date.now();
      const run = await hook("claude-code", fixture("claude-code", "UserPromptSubmit"), box.env);
      const took = Date.now() - started;
      expect(run.code).toBe(0);
      // Readers go on beside a writer (WAL): the context is there, only the counting fails.
      expect(JSON.stringify(answerOf(run))).toContain("additionalContext");
      expect(run.stderr).toContain("could not be counted");
      // Before the fix each of the two writes (shown counts, receipts) waited a whole budget.
      expect(took).toBeLessThan(budget * 1.75);
    } finally {
      await locker.release();
      box.cleanup();
    }
  });

  it("a client that never closes stdin: the hook answers {} at its budget and exits 0", async () => {
    const box = isolatedEnv({ LORE_DB: sandbox.env.LORE_DB as string });
    try {
      setBudget(box, 1_000);
      const run = await new Promise<LoreRun>((resolve, reject) => {
        const child = spawn(process.execPath, [LORE_BIN, "hook", "claude-code"], {
          cwd: repo.dir,
          env: box.env,
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
        child.stdin.write('{"hook_event_name": "UserPromptSubmit", ');
      });
      expect(answerOf(run)).toEqual({});
      expect(run.stderr).toContain("time budget of 1000 ms was spent");
    } finally {
      box.cleanup();
    }
  });
});

/**
 * Holds the index file locked from another process until `release`: `all` —
 * `locking_mode = EXCLUSIVE` and a write transaction, no other connection can read it;
 * `write` — a write transaction only (`BEGIN IMMEDIATE`): readers go on, writers wait.
 */
async function lockIndex(
  file: string,
  mode: "all" | "write" = "all",
): Promise<{ release: () => Promise<void> }> {
  const sqlite = createRequire(import.meta.url).resolve("better-sqlite3");
  const lock =
    mode === "all"
      ? 'db.pragma("locking_mode = EXCLUSIVE"); db.exec("BEGIN EXCLUSIVE");'
      : 'db.exec("BEGIN IMMEDIATE");';
  const script = `
    const Database = require(${JSON.stringify(sqlite)});
    const db = new Database(${JSON.stringify(file)});
    ${lock}
    process.stdout.write("locked\\n");
    process.stdin.on("data", () => { db.exec("COMMIT"); db.close(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      if (d.includes("locked")) resolve();
    });
  });
  return {
    release: () =>
      new Promise<void>((resolve) => {
        child.on("close", () => resolve());
        child.stdin.write("go\n");
      }),
  };
}
