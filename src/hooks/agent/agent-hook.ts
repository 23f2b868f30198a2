/**
 * The agent hook process (section "Deterministic surfacing through agent hooks"): `lore hook
 * claude-code|codex|cursor`, started by the client before a prompt, a tool call or at a
 * session's start, with the client's JSON on stdin.
 *
 * It never blocks the agent: whatever happens — malformed JSON, no index, a locked index,
 * a broken configuration, an exception — it exits 0 with a valid answer (the client's
 * empty shape) and one line on stderr. It keeps a hard time budget (`[hooks] budget_ms`,
 * default 300 ms) counted from the process start (`performance.now()`, whose origin is the
 * process's): when the budget is spent while it waits (stdin, the index's lock), it answers
 * empty at once and ends. The synchronous parts are bounded too: the index is opened with
 * the budget left as its busy timeout.
 *
 * `src/cli/main.ts` branches here before the command table loads, so the process loads
 * only this module's graph (no MCP SDK, HTTP server, indexer, zod unless a lore.toml exists).
 */
import type { AgentClient } from "../../core/agent-hooks/agent-event.js";
import { hookAnswer } from "../../core/agent-hooks/hook-answer.js";
import { DEFAULT_HOOK_BUDGET_MS } from "../../core/config/config-defaults.js";
import type { LoreSettings } from "../../main/load-config.js";

/** Room kept at the end of the budget for writing the answer and the process's exit, ms. */
export const EXIT_MARGIN_MS = 15;

/** Most bytes of stdin read (a hook's JSON is small; a huge paste is cut, not waited for). */
export const MAX_INPUT_BYTES = 1 << 20;

/** The streams and context of one hook process. */
export interface AgentHookIo {
  stdin: NodeJS.ReadableStream & { destroy?: () => void };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** ms since the process started. Default `performance.now()`. */
  elapsedMs?: () => number;
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    try {
      stream.write(text, () => resolve());
    } catch {
      // A closed pipe: the client went away; nothing more to tell it.
      resolve();
    }
  });
}

/** Reads stdin to its end, at most {@link MAX_INPUT_BYTES}. */
function readInput(stdin: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stdin.on("data", (chunk: Buffer | string) => {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      if (size < MAX_INPUT_BYTES) chunks.push(buf);
      size += buf.length;
    });
    stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stdin.on("error", reject);
  });
}

/**
 * Runs one agent hook call to its answer.
 *
 * @param client - `claude-code`, `codex` or `cursor`.
 * @param io - see {@link AgentHookIo}.
 * @returns 0, always (the exit code; a hook never fails the agent).
 */
export async function runAgentHook(client: AgentClient, io: AgentHookIo): Promise<number> {
  const elapsed = io.elapsedMs ?? (() => performance.now());
  let eventName = "";
  let done = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const finish = async (answer: string, note?: string): Promise<void> => {
    if (done) return;
    done = true;
    if (timer !== undefined) clearTimeout(timer);
    await write(io.stdout, `${answer}\n`);
    if (note !== undefined) await write(io.stderr, `${note}\n`);
  };

  // The settings come first, so the timer runs on the configured budget from the start.
  const compose = await import("../../main/compose-agent-hook.js");
  let settings: LoreSettings | undefined;
  let settingsError: unknown;
  try {
    settings = await compose.loadHookSettings(io.cwd, io.env);
  } catch (error) {
    settingsError = error;
  }
  const budget = settings === undefined ? DEFAULT_HOOK_BUDGET_MS : compose.hookBudgetMs(settings);
  const remaining = () => budget - EXIT_MARGIN_MS - elapsed();
  const spent = new Promise<"budget">((resolve) => {
    timer = setTimeout(() => resolve("budget"), Math.max(0, remaining()));
  });

  const work = (async () => {
    const input = await readInput(io.stdin);
    try {
      const parsed = JSON.parse(input) as { hook_event_name?: unknown };
      if (typeof parsed?.hook_event_name === "string") eventName = parsed.hook_event_name;
    } catch {
      // Said by answerAgentHook's refusal below.
    }
    if (settings === undefined) throw settingsError;
    return compose.answerAgentHook(client, input, {
      cwd: io.cwd,
      settings,
      remainingMs: remaining,
    });
  })();

  const outcome = await Promise.race([
    work.then(
      (answer) => ({ kind: "answer" as const, answer }),
      (error: unknown) => ({ kind: "error" as const, error }),
    ),
    spent.then(() => ({ kind: "budget" as const })),
  ]);
  if (outcome.kind === "answer") {
    await finish(outcome.answer.answer, outcome.answer.note);
  } else if (outcome.kind === "error") {
    const reason = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    await finish(hookAnswer(client, eventName), `lore: hook ${client} answered nothing: ${reason}`);
  } else {
    await finish(
      hookAnswer(client, eventName),
      `lore: hook ${client} answered nothing: its time budget of ${budget} ms was spent`,
    );
    // What still waits (stdin never closed) must not keep the process past its budget.
    io.stdin.destroy?.();
  }
  return 0;
}
