import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { runGit } from "../adapters/git-cli/run-git.js";
import { printRecall } from "../cli/commands/recall.js";
import { indexSummary } from "../cli/index-summary.js";
import { composeLore } from "../main/compose.js";
import { detectLang } from "../main/load-config.js";
import type { RecallAnswer } from "../services/knowledge/recall.js";

const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const EXAMPLES = join(PACKAGE_ROOT, "examples", "knowledge");
const CLI = join(PACKAGE_ROOT, "dist", "cli", "main.js");

const out = (text = "") => process.stdout.write(`${text}\n`);
const heading = (text: string) => out(`\n━━ ${text}`);

/** Makes a git repository of the example entries under `.gitriver/knowledge/`, committed. */
async function makeExampleRepo(dir: string): Promise<number> {
  const knowledge = join(dir, ".gitriver", "knowledge");
  mkdirSync(knowledge, { recursive: true });
  const files = readdirSync(EXAMPLES).filter((name) => name.endsWith(".md"));
  for (const name of files) cpSync(join(EXAMPLES, name), join(knowledge, name));
  const env = {
    GIT_AUTHOR_NAME: "Lore Demo",
    GIT_AUTHOR_EMAIL: "demo@example.invalid",
    GIT_COMMITTER_NAME: "Lore Demo",
    GIT_COMMITTER_EMAIL: "demo@example.invalid",
  };
  await runGit({ cwd: dir, args: ["init", "-q", "-b", "main"], env });
  await runGit({ cwd: dir, args: ["add", "-A"], env });
  await runGit({
    cwd: dir,
    args: ["-c", "commit.gpgsign=false", "commit", "-q", "-m", "Team knowledge"],
    env,
  });
  return files.length;
}

function structured<T>(result: unknown): T {
  const value = result as { structuredContent?: unknown; isError?: boolean; content?: unknown };
  if (value.isError) throw new Error(`tool error: ${JSON.stringify(value.content)}`);
  return value.structuredContent as T;
}

/**
 * `npm run demo`: the main job end to end on the embedded default. Copies the
 * example entries of `examples/knowledge/` into a fresh git repository in a temp folder,
 * indexes it with the code of `lore index`, starts `lore mcp` as a child process and asks it
 * through the MCP SDK's client over stdio: an `on_query` question in Russian, an `on_tool`
 * lookup, an open, and a check. Prints the answers, the parse report and what `lore mcp`
 * wrote to stderr (`(nothing)` when it wrote nothing); removes the temp folder.
 */
async function runDemo(): Promise<void> {
  const lang = detectLang();
  const tmp = mkdtempSync(join(tmpdir(), "lore-demo-"));
  const repoDir = join(tmp, "team-repo");
  const database = join(tmp, "index.db");
  try {
    mkdirSync(repoDir);
    const count = await makeExampleRepo(repoDir);
    heading(`A git repository with ${count} example entries: ${repoDir}`);

    heading("lore index — the parse report");
    const lore = await composeLore(
      {
        configPath: null,
        user: "demo",
        lang,
        database,
        repos: [repoDir],
        server: {
          host: "127.0.0.1",
          port: 0,
          data: join(tmpdir(), "lore-server-unused"),
          sshPort: 0,
        },
      },
      { log: (line) => process.stderr.write(`${line}\n`) },
    );
    try {
      const run = await lore.index(repoDir);
      for (const line of run.lines) out(`  ${line}`);
      out(`  ${indexSummary(run, lang)}`);
    } finally {
      await lore.close();
    }

    heading(`lore mcp — started as a child: node ${CLI} mcp --repo <repo>`);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", "--repo", repoDir],
      env: { ...(process.env as Record<string, string>), LORE_DB: database, LORE_USER: "demo" },
      stderr: "pipe",
    });
    const serverLog: string[] = [];
    transport.stderr?.on("data", (chunk: Buffer) => serverLog.push(chunk.toString("utf8")));
    const client = new Client({ name: "lore-demo", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      out(`  tools: ${tools.map((t) => t.name).join(", ")}`);

      heading('knowledge_recall {query: "как откатить релиз"} — an on_query question');
      const byQuery = structured<RecallAnswer>(
        await client.callTool({
          name: "knowledge_recall",
          arguments: { query: "как откатить релиз" },
        }),
      );
      printRecall(byQuery, (line) => out(`  ${line}`), lang);

      heading('knowledge_recall {tool: "run_migration"} — before an agent calls that tool');
      const byTool = structured<RecallAnswer>(
        await client.callTool({ name: "knowledge_recall", arguments: { tool: "run_migration" } }),
      );
      printRecall(byTool, (line) => out(`  ${line}`), lang);

      const first = byQuery.hits[0];
      if (first) {
        heading(`knowledge_open {id: "${first.id}"} — the whole entry`);
        const opened = structured<{ body?: string; path?: string }>(
          await client.callTool({ name: "knowledge_open", arguments: { id: first.id } }),
        );
        out(`  ${opened.path ?? first.path}`);
        for (const line of (opened.body ?? "").trimEnd().split("\n")) out(`  │ ${line}`);
      }

      heading("knowledge_check — a draft with a typo, checked strictly");
      const draft = [
        "---",
        "id: 0193399c-d600-7660-afda-7218344db922",
        "sumary: Restart the worker after changing queues",
        "---",
        "",
        "Restart the worker after changing queue names in settings.",
        "",
      ].join("\n");
      const checked = structured<{
        ok: boolean;
        diagnostics: { line?: number; code: string; message: string }[];
      }>(await client.callTool({ name: "knowledge_check", arguments: { text: draft } }));
      out(`  ok: ${checked.ok}`);
      for (const d of checked.diagnostics) {
        out(`  ${d.line === undefined ? "" : `line ${d.line}: `}${d.message} [${d.code}]`);
      }
    } finally {
      await client.close();
    }
    heading("lore mcp's stderr (stdout carried only the protocol)");
    const logged = serverLog
      .join("")
      .trimEnd()
      .split("\n")
      .filter((line) => line !== "");
    if (logged.length === 0) out("  (nothing)");
    for (const line of logged) out(`  ${line}`);
    out();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

runDemo().then(
  () => {
    process.exitCode = 0;
  },
  (error: unknown) => {
    process.stderr.write(
      `lore demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
