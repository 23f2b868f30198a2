#!/usr/bin/env node
import * as nodeModule from "node:module";
import { quietOnClosedPipe } from "./closed-pipe.js";

// Node 22.1+ keeps the compiled code of Lore's modules on disk between runs, which a
// one-shot command (`lore recall`) feels most; older Node has no such call.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// A reader that stops early (`lore recall x | head -1`) closes the pipe: the command ends
// quietly with its own exit code instead of an EPIPE stack (closed-pipe.ts).
quietOnClosedPipe(process.stdout);
quietOnClosedPipe(process.stderr);

const [word, client] = process.argv.slice(2);
if (word === "hook" && (client === "claude-code" || client === "codex" || client === "cursor")) {
  // An agent hook runs before every prompt and tool call: it skips the command table and
  // loads only its own small graph (src/hooks/agent/agent-hook.ts), and it always exits 0.
  process.exitCode = 0;
  // The build's bundle of that graph (src/build/bundle-agent-hook.ts) loads in half the
  // time of its ~60 modules; without one (a tree built by tsc alone) the modules load.
  const bundle = new URL("../hooks/agent/bundle/agent-hook.js", import.meta.url).href;
  const { runAgentHook } = (await import(bundle).catch(
    () => import("../hooks/agent/agent-hook.js"),
  )) as typeof import("../hooks/agent/agent-hook.js");
  process.exitCode = await runAgentHook(client, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  });
} else if (word === "hook" && (client === "pre-receive" || client === "post-receive")) {
  await runPushHookEarly();
} else {
  // Imported after the compile cache is on, so that the cache covers every module.
  const { runCli } = await loadRunCli(word);

  // The `lore` bin (package.json "bin"). process.exitCode, not process.exit(): stdout drains.
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
  });
}

/**
 * The command line's code for the command `word`: for the hot commands (`recall`, `mcp`)
 * the build's bundle of it (src/build/bundle-cli.ts: 22 chunks instead of 106 modules; 45
 * holding the MCP SDK, zod and ajv too instead of 193 modules and ~200 of packages), else — and when there is no bundle, or one older than the `run-cli.js`
 * that tsc wrote since — the modules themselves. Both are the same code: same output,
 * errors and exit codes (test/e2e/hot-command-bundle.test.ts).
 */
async function loadRunCli(word: string | undefined): Promise<typeof import("./run-cli.js")> {
  if (word === "recall" || word === "mcp") {
    const bundle = new URL(`../bundle/${word}.js`, import.meta.url);
    const { statSync } = await import("node:fs");
    const mtimeOf = (url: URL) => statSync(url, { throwIfNoEntry: false })?.mtimeMs;
    const bundled = mtimeOf(bundle);
    const source = mtimeOf(new URL("./run-cli.js", import.meta.url));
    if (bundled !== undefined && (source === undefined || bundled >= source)) {
      const loaded = await import(bundle.href).catch(() => undefined);
      if (loaded !== undefined) return loaded as typeof import("./run-cli.js");
    }
  }
  return import("./run-cli.js");
}

/**
 * A git push hook (`lore hook pre-receive|post-receive`, run by git once per push and hook)
 * in the shape Lore's hook scripts write skips the command table too and loads the build's
 * bundle of its graph (src/hooks/push/push-hook.ts, src/build/bundle-push-hook.ts); without
 * a bundle, its modules; any other shape goes through the full CLI.
 */
async function runPushHookEarly(): Promise<void> {
  const bundle = new URL("../hooks/push/bundle/push-hook.js", import.meta.url).href;
  const hook = (await import(bundle).catch(
    () => import("../hooks/push/push-hook.js"),
  )) as typeof import("../hooks/push/push-hook.js");
  const args = hook.pushHookArgs(process.argv.slice(2));
  if (args === undefined) {
    const { runCli } = await import("./run-cli.js");
    process.exitCode = await runCli(process.argv.slice(2), {
      stdout: process.stdout,
      stderr: process.stderr,
      cwd: process.cwd(),
    });
    return;
  }
  process.exitCode = await hook.runPushHookProcess(args, {
    stdin: process.stdin,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  });
}
