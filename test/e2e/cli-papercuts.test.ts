/**
 * The small things a user trips on, through the built `lore` bin: a closed pipe, `lore
 * import` of one file, placeholders of `lore new`, `lore id`, `lore check --strict` and the
 * README's pre-commit hook, help texts, "did you mean", localized option errors, and that
 * a one-shot command never loads the MCP SDK or the HTTP server.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/command-list.js";
import { isUuidV7 } from "../../src/core/entry/uuid7.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { knowledgeFiles, ROLLBACK_ID } from "./fixture-entries.js";
import { isolatedEnv, LORE_BIN, type LoreRun, runLore } from "./run-lore.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;

beforeAll(async () => {
  repo = await makeRepo(knowledgeFiles());
  sandbox = isolatedEnv();
  await runLore(["index", "."], { cwd: repo.dir, env: sandbox.env });
});
afterAll(async () => {
  await repo.cleanup();
  sandbox.cleanup();
});

const lore = (args: string[], cwd = repo.dir, env = sandbox.env) => runLore(args, { cwd, env });

/** A fresh folder in the sandbox. */
function folder(name: string): string {
  const dir = join(sandbox.dir, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Runs a shell pipeline; returns the left command's exit code (bash PIPESTATUS) and stderr. */
function pipeline(command: string, cwd: string): { code: number; stderr: string; stdout: string } {
  const run = spawnSync("bash", ["-c", `${command}; echo "status=\${PIPESTATUS[0]}" >&2`], {
    cwd,
    env: sandbox.env,
    encoding: "utf8",
  });
  const code = Number(/status=(\d+)/.exec(run.stderr)?.[1] ?? -1);
  return { code, stderr: run.stderr.replace(/status=\d+\n$/, ""), stdout: run.stdout };
}

/** Runs lore with its stdout pipe closed by the reader before anything is written. */
function withClosedStdout(args: string[], cwd: string): Promise<LoreRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LORE_BIN, ...args], {
      cwd,
      env: sandbox.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy(); // the reader is gone: every write of lore meets EPIPE
    const err: Buffer[] = [];
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code, stdout: "", stderr: Buffer.concat(err).toString("utf8") }),
    );
  });
}

describe("a closed pipe ends the command quietly with its normal exit code", () => {
  it("lore recall x | head -1: exit 0, no EPIPE stack", async () => {
    const closed = await withClosedStdout(["recall", "откат", "релиз"], repo.dir);
    expect(closed.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(closed.code).toBe(0);
    const piped = pipeline(`node ${LORE_BIN} recall откат релиз | head -1`, repo.dir);
    expect(piped.stderr).toBe("");
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/^1\. /);
  });

  it("lore check | head -1 over many wrong files: exit 7, no EPIPE stack", () => {
    const dir = folder("many-wrong");
    for (let i = 0; i < 2000; i++) writeFileSync(join(dir, `bad-${i}.md`), "no frontmatter\n");
    const piped = pipeline(`node ${LORE_BIN} check . | head -1`, dir);
    expect(piped.stderr).not.toMatch(/EPIPE|Error| {4}at /);
    expect(piped.code).toBe(7);
    expect(piped.stdout.split("\n")).toHaveLength(2);
  });
});

describe("lore import", () => {
  it("imports one file: lore import CLAUDE.md", async () => {
    const dir = folder("import-one");
    writeFileSync(
      join(dir, "CLAUDE.md"),
      "# Project rules\n\nRun the linter before every commit in this repository.\n",
    );
    const run = await lore(["import", "CLAUDE.md", "--json"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { imported: { path: string }[]; written: string[] };
    expect(report.imported.map((f) => f.path)).toEqual(["CLAUDE.md"]);
    expect(report.written).toHaveLength(1);
    expect(readFileSync(report.written[0] ?? "", "utf8")).toContain(
      "Run the linter before every commit in this repository.",
    );
  });

  it("lore import . leaves out .gitriver/knowledge/ and files that already parse as entries", async () => {
    const dir = folder("import-dot");
    mkdirSync(join(dir, ".gitriver", "knowledge"), { recursive: true });
    const entry = knowledgeFiles()[".gitriver/knowledge/deploy-rollback.md"] ?? "";
    writeFileSync(join(dir, ".gitriver", "knowledge", "deploy-rollback.md"), entry);
    mkdirSync(join(dir, "docs"));
    writeFileSync(join(dir, "docs", "copied-entry.md"), entry);
    writeFileSync(
      join(dir, "docs", "caching.md"),
      "# Caching\n\nCache keys carry the schema version.\n",
    );
    const run = await lore(["import", ".", "--json"], dir);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      imported: { path: string }[];
      skipped: { path: string; code: string; message: string }[];
    };
    expect(report.imported.map((f) => f.path)).toEqual(["docs/caching.md"]);
    expect(report.skipped).toEqual([
      {
        path: "docs/copied-entry.md",
        code: "already_entry",
        message: `already a Lore entry (id ${ROLLBACK_ID}); not imported again`,
      },
    ]);
  });

  it("says it takes a file or a folder when the path is missing", async () => {
    const run = await lore(["import", "NOPE.md"], folder("import-missing"));
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("no such file or folder:");
  });
});

describe("lore new, lore id, placeholders", () => {
  it("a placeholder left in place by lore new fails lore check with placeholder_text", async () => {
    const dir = folder("placeholder");
    const made = await lore(["new", "--words", "cache", "--dir", "k"], dir);
    expect(made.code).toBe(0);
    const check = await lore(["check", "k"], dir);
    expect(check.code).toBe(7);
    expect(check.stdout).toContain(
      "the placeholder text of `lore new` is still here (“Replace this line with the first complete thought — agents see it as the summary.”); replace it with what the entry says [placeholder_text]",
    );
    const file = join(dir, made.stdout.trim());
    writeFileSync(
      file,
      readFileSync(file, "utf8")
        .replace(
          "Replace this line with the first complete thought — agents see it as the summary.",
          "Cache keys carry the schema version.",
        )
        .replace("Then say why it is so, what to try, and when it does not work.", "Bump it."),
    );
    const fixed = await lore(["check", "k"], dir);
    expect(fixed.code).toBe(0);
  });

  it('refuses --words "" instead of writing contract: [] silently', async () => {
    const dir = folder("empty-words");
    const run = await lore(["new", "--words", "", "--title", "x y", "--dir", "k"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "lore: invalid input: --words holds no word; give words separated by commas (--words deploy,release) or leave it out [invalid_input]\n",
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses --tool "run migration" (a space)', async () => {
    const dir = folder("tool-space");
    const run = await lore(["new", "--tool", "run migration", "--title", "x y", "--dir", "k"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "lore: invalid input: --tool must be one tool's exact name, without spaces, not “run migration” (e.g. run_migration) [invalid_input]\n",
    );
  });

  it("lore id prints a fresh UUIDv7, and invalid_id points at it", async () => {
    const first = await lore(["id"]);
    const second = await lore(["id"]);
    expect(first.code).toBe(0);
    expect(isUuidV7(first.stdout.trim())).toBe(true);
    expect(first.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.stdout.trim()).not.toBe(first.stdout.trim());
    const dir = folder("bad-id");
    writeFileSync(join(dir, "x.md"), "---\nid: 42\n---\n\nBody.\n");
    const check = await lore(["check", "x.md"], dir);
    expect(check.stdout).toContain("“42” is not a UUIDv7; print a fresh one with `lore id`");
  });
});

describe("lore check --strict and the README's pre-commit hook", () => {
  const typo = `---\nid: ${ROLLBACK_ID}\non_trigers: [deploy]\n---\n\nDeploy on Fridays only with a second reviewer.\n`;

  it("fails (exit 7) on a not-understood key with --strict, passes without", async () => {
    const dir = folder("strict");
    writeFileSync(join(dir, "typo.md"), typo);
    const lenient = await lore(["check", "typo.md"], dir);
    expect(lenient.code).toBe(0);
    const strict = await lore(["check", "typo.md", "--strict"], dir);
    expect(strict.code).toBe(7);
    expect(strict.stdout).toContain(
      "key “on_trigers” is not known, the nearest known is “contract”",
    );
    expect(strict.stderr).toContain("1 not understood key(s) or mechanism(s) (--strict: failed)");
    const json = JSON.parse((await lore(["check", "typo.md", "--strict", "--json"], dir)).stdout);
    expect(json).toMatchObject({ ok: false, strict: true, skipped: 0, not_understood: 1 });
  });

  it("fails on a mechanism this version does not know with --strict", async () => {
    const dir = folder("strict-mechanism");
    writeFileSync(
      join(dir, "m.md"),
      `---\nid: ${ROLLBACK_ID}\ncontract:\n  - mechanism: on_path\n    params: { glob: "*.sql" }\n---\n\nMigrations need a lock timeout.\n`,
    );
    expect((await lore(["check", "m.md"], dir)).code).toBe(0);
    expect((await lore(["check", "m.md", "--strict"], dir)).code).toBe(7);
  });

  /** The README's hook script. */
  function readmeHook(): string {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const hook = /```sh\n(#!\/bin\/sh\n[\s\S]*?)```/.exec(readme)?.[1];
    expect(hook).toBeDefined();
    return hook ?? "";
  }

  function runHook(dir: string, path: string): { code: number | null; stderr: string } {
    const script = join(dir, "pre-commit");
    writeFileSync(script, readmeHook());
    chmodSync(script, 0o755);
    const run = spawnSync(script, [], {
      cwd: dir,
      env: { ...sandbox.env, PATH: path },
      encoding: "utf8",
    });
    return { code: run.status, stderr: run.stderr };
  }

  it("uses --strict: fails the commit on a typo where Lore is installed", () => {
    const dir = folder("hook-with-lore");
    mkdirSync(join(dir, ".gitriver", "knowledge"), { recursive: true });
    writeFileSync(join(dir, ".gitriver", "knowledge", "typo.md"), typo);
    writeFileSync(join(dir, "package.json"), '{"name":"hooked","version":"1.0.0"}\n');
    mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(LORE_BIN, join(dir, "node_modules", ".bin", "lore"));
    chmodSync(LORE_BIN, 0o755);
    const run = runHook(dir, sandbox.env.PATH ?? "");
    expect(readmeHook()).toContain("lore check --strict");
    expect(run.code).toBe(7);
  });

  it("skips with a notice (exit 0) on a machine without Lore", () => {
    const dir = folder("hook-without-lore");
    mkdirSync(join(dir, ".gitriver", "knowledge"), { recursive: true });
    writeFileSync(join(dir, ".gitriver", "knowledge", "typo.md"), typo);
    // No node_modules/.bin/lore here and none on PATH: only node and npx are found.
    const run = runHook(dir, `${dirname(process.execPath)}:/usr/bin:/bin`);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Lore is not installed here; .gitriver/knowledge/ not checked");
  });
});

describe("help texts, did you mean, localized option errors", () => {
  it("lore --help lists exit codes 5 and 6 and every command", async () => {
    const help = await lore(["--help"]);
    expect(help.stdout).toContain("5 forbidden");
    expect(help.stdout).toContain("6 unavailable");
    for (const command of COMMANDS) expect(help.stdout).toContain(`  ${command.name} `);
  });

  it("lore mcp --help names all 23 tools; lore serve --help says it serves the thirteen", async () => {
    const mcp = (await lore(["mcp", "--help"])).stdout;
    const snapshots = readdirSync(join(ROOT, "src", "mcp", "__toolsnaps__"))
      .filter((f) => f.endsWith(".snap"))
      .map((f) => f.replace(/\.snap$/, ""));
    expect(snapshots).toHaveLength(23);
    for (const tool of snapshots) expect(mcp).toMatch(new RegExp(`\\b${tool}\\b`));
    const serve = (await lore(["serve", "--help"])).stdout;
    for (const tool of [
      "knowledge_recall",
      "knowledge_open",
      "knowledge_check",
      "knowledge_draft",
      "knowledge_drafts",
      "knowledge_discard",
      "knowledge_deliver",
      "knowledge_stats",
      "knowledge_receipts",
      "knowledge_read_file",
      "knowledge_write_file",
      "knowledge_route_context",
      "knowledge_status",
    ]) {
      expect(serve).toContain(tool);
    }
    expect(serve).toContain("The federation tools");
    expect(serve).toContain("are served by `lore mcp` (stdio) only");
    expect(serve).not.toContain("the same MCP tools as");
  });

  it("no help text speaks of issue numbers", async () => {
    for (const command of COMMANDS) {
      const help = await lore([command.name, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout, command.name).not.toMatch(/\bissue \d/i);
    }
  });

  it("lore recal: did you mean “lore recall”?", async () => {
    const run = await lore(["recal", "x"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "lore: unknown command “recal”; did you mean “lore recall”? See lore --help [invalid_input]\n",
    );
  });

  it("lore --verison: did you mean “--version”?", async () => {
    const run = await lore(["--verison"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "lore: “--verison” is not an option of lore; did you mean “--version”? See lore --help [invalid_input]\n",
    );
  });

  it("an unknown option is refused in Russian under LORE_LANG=ru, with the nearest option", async () => {
    const run = await lore(["recall", "x", "--jsn"], repo.dir, { ...sandbox.env, LORE_LANG: "ru" });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "lore: неверный ввод: «--jsn» — не параметр lore recall; может быть, «--json»? (см. lore recall --help) [invalid_input]\n",
    );
    const missing = await lore(["recall", "x", "--limit"], repo.dir, {
      ...sandbox.env,
      LORE_LANG: "ru",
    });
    expect(missing.stderr).toBe(
      "lore: неверный ввод: --limit нужно значение (для значения, начинающегося с «-», пишите --limit=ЗНАЧЕНИЕ) [invalid_input]\n",
    );
  });
});

describe("server_not_configured says what is missing", () => {
  it("with [server] url set and no token it names the token, not the url", async () => {
    const config = join(folder("server-url-only"), "lore.toml");
    writeFileSync(config, '[server]\nurl = "http://127.0.0.1:9"\n');
    for (const lang of ["en", "ru"] as const) {
      const run = await lore(["draft", "add", "--title", "t", "--body", "b"], repo.dir, {
        ...sandbox.env,
        LORE_CONFIG: config,
        LORE_TOKEN: "",
        LORE_LANG: lang,
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("[server_not_configured]");
      expect(run.stderr).toContain("LORE_TOKEN");
      if (lang === "en") {
        expect(run.stderr).toContain("[server] url is set, but there is no token");
        expect(run.stderr).not.toContain("needs [server] url");
      } else {
        expect(run.stderr).toContain("[server] url задан, но токена нет");
      }
    }
  });
});

describe("one-shot commands load only their own code", () => {
  /** The modules a `lore` run resolves, through a module loader hook. */
  function loadedModules(args: string[]): string[] {
    const dir = folder("loader");
    const log = join(dir, `loads-${args.join("-").replace(/[^a-z-]/gi, "")}.txt`);
    const loader = join(dir, "loader.mjs");
    writeFileSync(
      loader,
      `import { appendFileSync } from "node:fs";\nexport async function resolve(spec, ctx, next) {\n  const r = await next(spec, ctx);\n  appendFileSync(${JSON.stringify(log)}, r.url + "\\n");\n  return r;\n}\n`,
    );
    const run = spawnSync(
      process.execPath,
      ["--no-warnings", "--experimental-loader", loader, LORE_BIN, ...args],
      { cwd: repo.dir, env: sandbox.env, encoding: "utf8" },
    );
    expect(run.status).toBe(0);
    return readFileSync(log, "utf8").split("\n").filter(Boolean);
  }

  it("lore --version and lore recall load neither the MCP SDK nor the HTTP server", () => {
    for (const args of [["--version"], ["recall", "откат"]]) {
      const loaded = loadedModules(args);
      expect(loaded.some((url) => url.includes("/dist/cli/main.js"))).toBe(true);
      expect(loaded.filter((url) => url.includes("@modelcontextprotocol"))).toEqual([]);
      expect(loaded.filter((url) => /\/dist\/mcp\/(?!tool-names)/.test(url))).toEqual([]);
      expect(loaded.filter((url) => url.includes("node:http"))).toEqual([]);
    }
    const version = loadedModules(["--version"]);
    expect(version.filter((url) => url.includes("/dist/cli/commands/"))).toEqual([]);
    expect(version.filter((url) => url.includes("/node_modules/"))).toEqual([]);
  });

  it("each listed command loads the command of that name and summary", async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect({ name: command.name, summary: command.summary }).toEqual({
        name: entry.name,
        summary: entry.summary,
      });
    }
  });
});
