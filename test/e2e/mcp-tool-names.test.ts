/**
 * Tool registration and naming through the built `lore mcp` and a real MCP SDK client over
 * stdio: only the tools that can work are listed (no forge: none of the ten federation
 * tools), the `seed` style exposes each seed's own names (seed 003: «читай
 * read_knowledge_file(..., knowledge_root_id=group)», `route_context`; seeds 000/001:
 * `knowledge.ask_projects`, `knowledge.get_from`, `tasks.create`) with hints that name
 * them, `[mcp] tool_names = "seed"` does the same, strict inputs refuse a typo, and
 * `lore init --notes` writes the hot section with the names of the style in use.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeLocalForge, type TestForge } from "../helpers/make-forge.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";

const INDEX = `# Wiki Index

## Concepts

- [yarn-on-windows](concepts/yarn-on-windows.md) — Yarn on Windows
`;

let forge: TestForge;
let sandbox: ReturnType<typeof isolatedEnv>;
const clients: Client[] = [];

beforeAll(async () => {
  forge = await makeLocalForge({
    web: {
      ".wiki/index.md": INDEX,
      ".wiki/concepts/yarn-on-windows.md": "yarn install on Windows needs a long timeout.\n",
    },
  });
  sandbox = isolatedEnv();
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await forge.cleanup();
  sandbox.cleanup();
});

function config(name: string, lines: string[]): string {
  const path = join(sandbox.dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

const forgeLines = () => [
  "[forge]",
  'kind = "local"',
  `root = '${forge.root}'`,
  "[projects]",
  `cache = '${join(sandbox.dir, "cache.json")}'`,
];

async function connect(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [LORE_BIN, "mcp", ...args],
    env: sandbox.env,
    cwd: sandbox.dir,
    stderr: "pipe",
  });
  const client = new Client({ name: "e2e-tool-names", version: "1" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type Result = { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };

describe("the MCP server lists only the tools that can work", () => {
  it("with no forge and no shared wiki configured, none of the ten federation tools", async () => {
    const client = await connect(["--config", config("bare.toml", ['lang = "en"'])]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
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
    ]);
  });

  it("with a forge but no shared wiki: the forge's tools and ingest, not the shared wiki's", async () => {
    const client = await connect(["--config", config("forge.toml", forgeLines())]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.slice(13)).toEqual([
      "knowledge_ask_projects",
      "knowledge_get_from",
      "knowledge_ingest",
      "tasks_create",
      "projects_sync",
      "projects_status",
    ]);
  });
});

describe("--tool-names=seed: each seed's tools under exactly the seed's names", () => {
  let client: Client;

  beforeAll(async () => {
    const path = config("seed-flag.toml", forgeLines());
    const sync = await runLore(["sync", "--config", path], { cwd: sandbox.dir, env: sandbox.env });
    expect(sync.code).toBe(0);
    client = await connect(["--config", path, "--tool-names=seed"]);
  });

  it("lists read_knowledge_file, route_context, knowledge.ask_projects, knowledge.get_from, tasks.create", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual([
      "knowledge.recall",
      "knowledge.open",
      "knowledge.check",
      "knowledge.draft",
      "knowledge.drafts",
      "knowledge.discard",
      "knowledge.deliver",
      "knowledge.stats",
      "knowledge.receipts",
      "read_knowledge_file",
      "knowledge.write_file",
      "route_context",
      "knowledge.status",
      "knowledge.ask_projects",
      "knowledge.get_from",
      "knowledge.ingest",
      "tasks.create",
      "projects.sync",
      "projects.status",
    ]);
  });

  it("answers ask_projects with seed 000's next_action_hint, to the letter", async () => {
    // Seed 000's hint is Russian: `lang = "ru"` gives it word for word (English is the default).
    const ru = await connect([
      "--config",
      config("seed-ru.toml", ['lang = "ru"', ...forgeLines()]),
      "--tool-names=seed",
    ]);
    try {
      const answer = (await ru.callTool({
        name: "knowledge.ask_projects",
        arguments: { query: "yarn", projects: ["web"] },
      })) as Result;
      expect(answer.isError).toBeFalsy();
      expect((answer.structuredContent as { next_action_hint: string }).next_action_hint).toBe(
        "knowledge.get_from(project, slug) для полного текста; tasks.create(target_project, body) если знание не оформлено",
      );
    } finally {
      await ru.close();
    }
    const result = (await client.callTool({
      name: "knowledge.ask_projects",
      arguments: { query: "yarn", projects: ["web"] },
    })) as Result;
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { next_action_hint: string }).next_action_hint).toBe(
      "knowledge.get_from(project, slug) for the full text; tasks.create(target_project, body) if the knowledge is not written down",
    );
    const { tools } = await client.listTools();
    const ask = tools.find((t) => t.name === "knowledge.ask_projects");
    expect(ask?.description).toContain("read one whole with knowledge.get_from");
    expect(ask?.description).toContain("tasks.create({target_project");
  });

  it("refuses `projcts` (seed 001: additionalProperties: false) naming the nearest known argument", async () => {
    const result = (await client.callTool({
      name: "knowledge.ask_projects",
      arguments: { query: "yarn", projcts: ["web"] },
    })) as Result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]?.text ?? "")).toEqual({
      error: {
        code: "invalid_input",
        message: "invalid input: unknown argument “projcts”, the nearest known is “projects”",
        next: "Fix the arguments as the message says and call again.",
        data: { argument: "projcts", nearest: "projects" },
      },
    });
  });

  it("names the exposed tools in an error's `next`", async () => {
    const result = (await client.callTool({
      name: "knowledge.get_from",
      arguments: { project: "web", slug: "concepts/nope" },
    })) as Result;
    const error = JSON.parse(result.content[0]?.text ?? "").error;
    expect(error.code).toBe("page_not_found");
    expect(error.next).toBe(
      "Take a slug from knowledge.ask_projects or knowledge.search; if nobody has the page, ask a project to write it with tasks.create.",
    );
  });

  it("refuses limit: 0 in the documented error shape, not as MCP error -32602 text", async () => {
    const result = (await client.callTool({
      name: "knowledge.ask_projects",
      arguments: { query: "yarn", projects: ["web"], limit: 0 },
    })) as Result;
    expect(result.isError).toBe(true);
    const text = result.content[0]?.text ?? "";
    expect(text).not.toContain("MCP error");
    expect(JSON.parse(text).error).toMatchObject({
      code: "invalid_limit",
      message: "`limit` must be a whole number from 1 to 20; leave it out for 5",
    });
  });
});

describe('[mcp] tool_names = "seed" in the configuration', () => {
  it("exposes the seed's names without the flag; --tool-names wins over it", async () => {
    const path = config("seed-config.toml", ["[mcp]", 'tool_names = "seed"']);
    const client = await connect(["--config", path]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("read_knowledge_file");
    expect(names).toContain("route_context");
    const flagged = await connect(["--config", path, "--tool-names=underscore"]);
    const plain = (await flagged.listTools()).tools.map((t) => t.name);
    expect(plain).toContain("knowledge_read_file");
  });

  it("refuses an unknown style, in the configuration and as a flag", async () => {
    const path = config("bad-style.toml", ["[mcp]", 'tool_names = "camel"']);
    const run = await runLore(["mcp", "--config", path], { cwd: sandbox.dir, env: sandbox.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("mcp.tool_names");
    const flag = await runLore(["mcp", "--tool-names=camel"], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe(
      "lore: invalid input: --tool-names must be underscore, dotted or seed, not “camel” [invalid_input]\n",
    );
  });
});

describe("lore init --notes writes the hot section with the names of the style in use", () => {
  it('with [mcp] tool_names = "seed": route_context and read_knowledge_file, as seed 003 says', async () => {
    const path = config("notes-seed.toml", ["[mcp]", 'tool_names = "seed"']);
    const notes = join(sandbox.dir, "notes-seed");
    const run = await runLore(["init", "--notes", notes, "--config", path], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    expect(run.code).toBe(0);
    const hot = readFileSync(join(notes, "agent-notes.md"), "utf8");
    // Seed 003: «читай read_knowledge_file(..., knowledge_root_id=group)», «route_context».
    expect(hot).toContain('`read_knowledge_file(file_path="foo.md", knowledge_root_id="group")`');
    expect(hot).toContain("call `route_context` with the task");
    expect(hot).not.toContain("knowledge_read_file");
    expect(hot).not.toContain("knowledge_route_context");
  });

  it("by default, the underscore names; --tool-names=dotted gives the dotted ones", async () => {
    const plain = join(sandbox.dir, "notes-plain");
    const bare = config("notes-bare.toml", ['lang = "en"']);
    await runLore(["init", "--notes", plain, "--config", bare], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    expect(readFileSync(join(plain, "agent-notes.md"), "utf8")).toContain(
      "call `knowledge_route_context` with the task",
    );
    const dotted = join(sandbox.dir, "notes-dotted");
    await runLore(["init", "--notes", dotted, "--config", bare, "--tool-names=dotted"], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    expect(readFileSync(join(dotted, "agent-notes.md"), "utf8")).toContain(
      '`knowledge.read_file(file_path="foo.md", knowledge_root_id="group")`',
    );
  });
});
