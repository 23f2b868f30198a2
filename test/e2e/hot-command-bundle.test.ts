import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SNOWBALL_CACHE_NAME } from "../../src/main/snowball-code-cache.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { initializeRequest } from "../helpers/mcp-messages.js";
import { knowledgeFiles } from "./fixture-entries.js";
import { isolatedEnv, LORE_BIN, type LoreRun, runLore } from "./run-lore.js";

/*
 * `lore recall` and `lore mcp` load the build's bundle of their graph (dist/bundle/,
 * src/build/bundle-cli.ts) instead of the modules tsc wrote. The two must be the same
 * program: every answer, refusal and exit code below is compared with the same command run
 * through `dist/cli/run-cli.js` itself, each in a sandbox of its own (recall counts what
 * it showed, so the two never share a database).
 */

const DIST = join(LORE_BIN, "..", "..");
const RUN_CLI = pathToFileURL(join(DIST, "cli", "run-cli.js")).href;

/** `runCli` of the unbundled modules, in a process of its own, as main.js would call it. */
const MODULES_MAIN = `const { runCli } = await import(${JSON.stringify(RUN_CLI)});
process.exitCode = await runCli(process.argv.slice(1), {
  stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(),
});`;

type Path = "bundle" | "modules" | "raw";

/** The node arguments: the bin (`bundle`), run-cli.js itself (`modules`), or `args` as is. */
function nodeArgs(path: Path, args: readonly string[]): string[] {
  if (path === "raw") return [...args];
  return path === "bundle"
    ? [LORE_BIN, ...args]
    : ["--input-type=module", "-e", MODULES_MAIN, ...args];
}

/** Runs a command to its end on one path; `input` is written to stdin. */
function run(
  path: Path,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  input = "",
): Promise<LoreRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs(path, args), { cwd, env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
    child.stdin.end(input);
  });
}

/**
 * One MCP session over stdio: `initialize`, then each request in turn, each sent once the
 * previous answer arrived; stdin is closed after the last answer. Returns the answers.
 */
function mcpSession(
  path: Path,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  requests: readonly { method: string; params?: unknown }[],
): Promise<{ answers: unknown[]; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs(path, ["mcp", ...args]), { cwd, env });
    const answers: unknown[] = [];
    let buffer = "";
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const next = () => {
      const i = answers.length - 1;
      if (i === 0) send({ jsonrpc: "2.0", method: "notifications/initialized" });
      const request = requests[i];
      if (request === undefined) child.stdin.end();
      else send({ jsonrpc: "2.0", id: i + 2, ...request });
    };
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        answers.push(JSON.parse(buffer.slice(0, end)));
        buffer = buffer.slice(end + 1);
        next();
      }
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ answers, code }));
    send(initializeRequest("bundle-test"));
  });
}

let repo: TestRepo;
const sandboxes: Record<"bundle" | "modules", ReturnType<typeof isolatedEnv>> = {} as never;

beforeAll(async () => {
  repo = await makeRepo(knowledgeFiles());
  for (const path of ["bundle", "modules"] as const) {
    sandboxes[path] = isolatedEnv();
    const indexed = await runLore(["index", "."], { cwd: repo.dir, env: sandboxes[path].env });
    expect(indexed.code).toBe(0);
  }
});
afterAll(async () => {
  await repo.cleanup();
  for (const sandbox of Object.values(sandboxes)) sandbox.cleanup();
});

/** The same command on both paths, each in its own sandbox. */
async function both(args: readonly string[]): Promise<Record<"bundle" | "modules", LoreRun>> {
  return {
    bundle: await run("bundle", args, repo.dir, sandboxes.bundle.env),
    modules: await run("modules", args, repo.dir, sandboxes.modules.env),
  };
}

describe("the bundle of recall and mcp", () => {
  it("is built beside the modules", () => {
    for (const file of ["recall.js", "mcp.js", "index-worker.js"]) {
      expect(existsSync(join(DIST, "bundle", file))).toBe(true);
    }
  });

  it("is what recall and mcp load; other commands load the modules", async () => {
    // A module loader hook (node:module register) that notes every URL the process loads.
    const dir = sandboxes.bundle.dir;
    const hooks = join(dir, "note-loads.mjs");
    const register = join(dir, "register.mjs");
    writeFileSync(
      hooks,
      `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(process.env.LOADS_FILE, url + "\\n");
  return next(url, context);
}`,
    );
    writeFileSync(
      register,
      `import { register } from "node:module";
register(${JSON.stringify(pathToFileURL(hooks).href)});`,
    );
    const loadsOf = async (args: string[], name: string) => {
      const file = join(dir, `${name}.loads`);
      const env = { ...sandboxes.bundle.env, LOADS_FILE: file };
      const done = await run("raw", ["--import", register, LORE_BIN, ...args], repo.dir, env);
      expect(done.code, done.stderr).toBe(0);
      return readFileSync(file, "utf8").split("\n");
    };
    const bundleOf = (name: string) => pathToFileURL(join(DIST, "bundle", `${name}.js`)).href;
    const modules = pathToFileURL(join(DIST, "cli", "run-cli.js")).href;
    const recall = await loadsOf(["recall", "релиз"], "recall");
    expect(recall).toContain(bundleOf("recall"));
    expect(recall).not.toContain(modules);
    // stdin is closed at once: the server ends with exit 0.
    const mcp = await loadsOf(["mcp", "--repo", repo.dir], "mcp");
    expect(mcp).toContain(bundleOf("mcp"));
    expect(mcp).not.toContain(modules);
    const version = await loadsOf(["--version"], "version");
    expect(version).toContain(modules);
    expect(version.some((url) => url.includes("/dist/bundle/"))).toBe(false);
  });

  it("recall answers, refuses and exits as the modules do", async () => {
    const cases: string[][] = [
      ["recall", "как", "откатить", "релиз"],
      ["recall", "--tool", "run_migration", "--json"],
      ["recall", "rollback", "--limit", "1", "--json"],
      ["recall"],
      ["recall", "x", "--colour"],
      ["recall", "--limit", "0", "x"],
      ["recall", "--help"],
    ];
    for (const args of cases) {
      const { bundle, modules } = await both(args);
      expect(bundle, args.join(" ")).toEqual(modules);
    }
    const answered = await both(["recall", "как", "откатить", "релиз"]);
    expect(answered.bundle.code).toBe(0);
    expect(answered.bundle.stdout).not.toBe("");
  });

  it("mcp lists the same tools and gives the same first answer", async () => {
    const requests = [
      { method: "tools/list" },
      { method: "tools/call", params: { name: "knowledge_recall", arguments: { query: "релиз" } } },
      { method: "tools/call", params: { name: "knowledge_recall", arguments: {} } },
    ];
    const args = ["--repo", repo.dir];
    const bundle = await mcpSession("bundle", args, repo.dir, sandboxes.bundle.env, requests);
    const modules = await mcpSession("modules", args, repo.dir, sandboxes.modules.env, requests);
    expect(bundle.answers).toHaveLength(4);
    expect(bundle).toEqual(modules);
    const tools = (bundle.answers[1] as { result: { tools: unknown[] } }).result.tools;
    expect(tools.length).toBeGreaterThan(5);
  });

  it("mcp refuses a bad option as the modules do", async () => {
    const { bundle, modules } = await both(["mcp", "--tool-names=camel"]);
    expect(bundle.code).toBe(2);
    expect(bundle).toEqual(modules);
  });
});

describe("the stemmers' code cache", () => {
  const query = ["recall", "как", "откатить", "релиз"];

  it("is written under the user's cache folder and used by the next recall", async () => {
    const sandbox = sandboxes.bundle;
    const first = await run("bundle", query, repo.dir, sandbox.env);
    const cache = join(sandbox.env.HOME ?? "", ".cache", "lore", SNOWBALL_CACHE_NAME);
    expect(readFileSync(cache).subarray(0, 13).toString()).toBe("lore-v8cache-");
    const second = await run("bundle", query, repo.dir, sandbox.env);
    expect(second).toEqual(first);
  });

  it("a damaged cache changes no answer and is written anew", async () => {
    const expected = await run("bundle", query, repo.dir, sandboxes.bundle.env);
    const env = { ...sandboxes.bundle.env, XDG_CACHE_HOME: join(sandboxes.bundle.dir, "damaged") };
    const cache = join(env.XDG_CACHE_HOME, "lore", SNOWBALL_CACHE_NAME);
    mkdirSync(join(env.XDG_CACHE_HOME, "lore"), { recursive: true });
    await run("bundle", query, repo.dir, env);
    const good = readFileSync(cache);
    // The payload's bytes flipped under an intact header, then a truncated file, then noise.
    const flipped = Buffer.from(good);
    for (let i = good.length - 2000; i < good.length; i++) flipped[i] = (flipped[i] ?? 0) ^ 0xff;
    for (const damage of [flipped, good.subarray(0, good.length >> 1), Buffer.from("garbage")]) {
      writeFileSync(cache, damage);
      const again = await run("bundle", query, repo.dir, env);
      expect(again).toEqual(expected);
      expect(readFileSync(cache).equals(damage)).toBe(false);
    }
  });

  it("a cache folder that cannot be written changes no answer", async () => {
    const expected = await run("bundle", query, repo.dir, sandboxes.bundle.env);
    // A regular file where the folder should be: mkdir fails whoever runs the test (root too).
    const blocked = join(sandboxes.bundle.dir, "not-a-folder");
    writeFileSync(blocked, "");
    const env = { ...sandboxes.bundle.env, XDG_CACHE_HOME: blocked };
    const again = await run("bundle", query, repo.dir, env);
    expect(again).toEqual(expected);
    expect(readFileSync(blocked, "utf8")).toBe("");
  });
});
