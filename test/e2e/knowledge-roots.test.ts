/**
 * Knowledge roots end to end (seed 003, "Критерии принятия"): a group root that is a real `git
 * clone` of a bare repository, read through a real MCP client over stdio from the built
 * `lore mcp --config <file>`; writes refused; route_context's overlay; `lore init --notes`,
 * `lore doctor` and the CLI mirrors.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { parseConfig } from "../../src/core/config/config.js";
import { parseRegistry } from "../../src/core/roots/roots-registry.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";

const SMOKE =
  "# Group KB smoke test v1\n\nIf you read this through knowledge_root_id=group, routing works.\n";

let source: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let notes: string;
let groupClone: string;
let configFile: string;
let client: Client;

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((c) => c.text).join("");
}

beforeAll(async () => {
  sandbox = isolatedEnv();
  source = await makeRepo({ "knowledge/group/smoke-test-v1.md": SMOKE });
  const bare = join(sandbox.dir, "group-kb.git");
  groupClone = join(sandbox.dir, "group-kb");
  await runGit({ cwd: sandbox.dir, args: ["clone", "-q", "--bare", source.dir, bare] });
  await runGit({ cwd: sandbox.dir, args: ["clone", "-q", bare, groupClone] });
  notes = join(sandbox.dir, "notes");
  configFile = join(sandbox.dir, "lore.toml");
  // `lore init --notes` creates the primary root and records it in the config file.
  const init = await runLore(["init", "--notes", notes, "--config", configFile], {
    cwd: sandbox.dir,
    env: sandbox.env,
  });
  expect(init.code, init.stderr).toBe(0);
  writeFileSync(
    configFile,
    `${readFileSync(configFile, "utf8")}\n[[knowledge.read_only]]\nid = "group"\npath = '${groupClone}'\n`,
  );
  put(
    join(notes, "knowledge", "work", "local", "knowledge-roots-index-v1.md"),
    "# registry\ngroup/smoke-test-v1.md => group\n",
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [LORE_BIN, "mcp", "--config", configFile],
    cwd: sandbox.dir,
    env: sandbox.env,
    stderr: "pipe",
  });
  client = new Client({ name: "roots-e2e", version: "1" });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await source?.cleanup();
  sandbox?.cleanup();
});

describe("seed 003 acceptance, over a real MCP client on stdio", () => {
  it("the group root is a real clone of a bare repository", () => {
    expect(existsSync(join(groupClone, ".git"))).toBe(true);
  });

  it("reads the smoke file by knowledge_root_id = group", async () => {
    const result = await client.callTool({
      name: "knowledge_read_file",
      arguments: { file_path: "group/smoke-test-v1.md", knowledge_root_id: "group" },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      root: "group",
      kind: "read_only",
      file_path: "group/smoke-test-v1.md",
      text: SMOKE,
      bytes: Buffer.byteLength(SMOKE),
    });
  });

  it("refuses a write to group with read_only_root, and nothing is written", async () => {
    const result = await client.callTool({
      name: "knowledge_write_file",
      arguments: {
        file_path: "group/smoke-test-v1.md",
        content: "overwritten",
        mode: "replace",
        knowledge_root_id: "group",
      },
    });
    expect(result.isError).toBe(true);
    const error = JSON.parse(textOf(result)).error;
    expect(error.code).toBe("read_only_root");
    expect(error.data).toEqual({ root: "group", kind: "read_only" });
    expect(readFileSync(join(groupClone, "knowledge/group/smoke-test-v1.md"), "utf8")).toBe(SMOKE);
    const status = await runGit({ cwd: groupClone, args: ["status", "--porcelain"] });
    expect(status.stdout.toString("utf8")).toBe("");
  });

  it("a missing file or a folder is path_not_found, and `next` points at the caller's path", async () => {
    for (const file_path of ["no-such-file.md", "work"]) {
      const result = await client.callTool({
        name: "knowledge_read_file",
        arguments: { file_path },
      });
      expect(result.isError).toBe(true);
      const error = JSON.parse(textOf(result)).error;
      expect(error.code).toBe("path_not_found");
      expect(error.next).toBe(
        "No file at that `file_path` (or it is a folder); see what the roots hold with knowledge_route_context or knowledge_status, or ask the user.",
      );
    }
  });

  it("writes to primary", async () => {
    const result = await client.callTool({
      name: "knowledge_write_file",
      arguments: { file_path: "today.md", content: "learned\n" },
    });
    expect(result.structuredContent).toMatchObject({ root: "primary", created: true });
    expect(readFileSync(join(notes, "knowledge", "today.md"), "utf8")).toBe("learned\n");
  });

  it("route_context applies the overlay for a registry line, not for an unrelated query", async () => {
    const hit = await client.callTool({
      name: "knowledge_route_context",
      arguments: { query: "run the smoke test" },
    });
    const answer = hit.structuredContent as {
      knowledge_roots_overlay_applied: boolean;
      overlay: { routing_section: string; previews: { root: string; preview: string }[] };
    };
    expect(answer.knowledge_roots_overlay_applied).toBe(true);
    expect(answer.overlay.routing_section).toContain("knowledge-roots-routing-v1");
    expect(answer.overlay.previews).toEqual([
      { root: "group", file_path: "group/smoke-test-v1.md", preview: SMOKE },
    ]);
    const miss = await client.callTool({
      name: "knowledge_route_context",
      arguments: { query: "format a date in python" },
    });
    expect(miss.structuredContent).toMatchObject({ knowledge_roots_overlay_applied: false });
  });

  it("status lists the roots; recall finds the group note with its root", async () => {
    const status = await client.callTool({ name: "knowledge_status", arguments: {} });
    expect(status.structuredContent).toMatchObject({
      read_only_routing_enabled: true,
      roots: [
        { id: "primary", kind: "primary", writable: true, exists: true },
        { id: "group", kind: "read_only", writable: false, exists: true, file_count: 1 },
      ],
    });
    const recall = await client.callTool({
      name: "knowledge_recall",
      arguments: { query: "routing works", knowledge_root_id: "GROUP" },
    });
    const hits = (recall.structuredContent as { hits: { root: string; path: string }[] }).hits;
    expect(hits).toEqual([
      expect.objectContaining({ root: "group", path: "group/smoke-test-v1.md" }),
    ]);
  });

  it("the example registry and hot section were created, and work/local/README describes the registry", () => {
    const local = join(notes, "knowledge", "work", "local");
    const registry = readFileSync(join(local, "knowledge-roots-index-v1.example.md"), "utf8");
    const parsed = parseRegistry(registry);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.entries.map((e) => `${e.path}${e.prefix ? "/" : ""} => ${e.root}`)).toContain(
      "group/smoke-test-v1.md => group",
    );
    expect(
      readFileSync(join(local, "hot-section-knowledge-roots-routing-v1.example.md"), "utf8"),
    ).toContain("## knowledge-roots-routing-v1");
    const readme = readFileSync(join(local, "README.md"), "utf8");
    expect(readme).toContain("knowledge-roots-index-v1.md");
    expect(readme).toContain("=> group");
    expect(readFileSync(join(notes, "agent-notes.md"), "utf8")).toContain(
      "## knowledge-roots-routing-v1",
    );
  });

  it("the TOML lore init wrote re-reads with the path as a literal string", () => {
    const text = readFileSync(configFile, "utf8");
    expect(text).toContain(`primary = '${notes}'`);
    expect(parseConfig(text).value?.knowledge?.primary).toBe(notes);
  });
});

describe("CLI mirrors", () => {
  const run = (args: string[]) =>
    runLore([...args, "--config", configFile], { cwd: sandbox.dir, env: sandbox.env });

  it("lore read / write / route / status", async () => {
    const read = await run(["read", "group/smoke-test-v1.md", "--root", "group"]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toBe(SMOKE);
    const pointer = await run(["read", "group/smoke-test-v1.md"]);
    // Primary lacks it: the registry's root is read, as the README promises (exit 0).
    expect(pointer.code).toBe(0);
    expect(pointer.stdout).toBe(SMOKE);
    expect(pointer.stderr).toContain("--root group [lives_in_other_root]");
    const refused = await run(["write", "x.md", "--root", "group", "--text", "x"]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain("[read_only_root]");
    const written = await run(["write", "cli.md", "--text", "from cli"]);
    expect(written.code, written.stderr).toBe(0);
    expect(readFileSync(join(notes, "knowledge", "cli.md"), "utf8")).toBe("from cli");
    const route = await run(["route", "smoke", "test", "--json"]);
    expect(JSON.parse(route.stdout).knowledge_roots_overlay_applied).toBe(true);
    const status = await run(["status"]);
    expect(status.stdout).toContain("read_only_routing_enabled: true");
  });

  it("lore doctor reports a missing root folder and config errors with line and key", async () => {
    const broken = join(sandbox.dir, "broken.toml");
    writeFileSync(
      broken,
      `[knowledge]\nprimary = '${notes}'\n[[knowledge.read_only]]\nid = "public"\npath = '${join(sandbox.dir, "nope")}'\n`,
    );
    const doctor = await runLore(["doctor", "--config", broken], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    expect(doctor.code).toBe(2);
    expect(doctor.stdout).toMatch(
      /error: root public \(read_only\): folder .*nope does not exist \[root_missing\]/,
    );
    writeFileSync(broken, '[[knowledge.read_only]]\nid = "g"\npath = "C:\\Users\\kb"\n');
    const bad = await runLore(["doctor", "--config", broken], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain("broken.toml:3:");
    expect(bad.stdout).toContain("(key knowledge.read_only.path) [config_invalid]");
    const fine = await run(["doctor"]);
    expect(fine.code, fine.stdout).toBe(0);
  });
});
