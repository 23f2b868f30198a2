/**
 * What the README promises, through the built `lore` bin, where a newcomer found the code
 * saying otherwise: `--config` paths, `lore read` of a file the registry places elsewhere,
 * federation tools over MCP without a forge, help texts, and the small wording papercuts.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/command-list.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { knowledgeFiles } from "./fixture-entries.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";

const README = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), "..", "..", "README.md"),
  "utf8",
);

let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;

beforeAll(async () => {
  repo = await makeRepo(knowledgeFiles());
  sandbox = isolatedEnv();
});
afterAll(async () => {
  await repo.cleanup();
  sandbox.cleanup();
});

const lore = (args: string[], env = sandbox.env, cwd = repo.dir) => runLore(args, { cwd, env });

describe("--config", () => {
  it("a missing file is config_invalid naming the file", async () => {
    const missing = join(sandbox.dir, "nonexist.toml");
    const run = await lore(["recall", "x", "--config", missing]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${missing}, which does not exist [config_invalid]`);
    const viaEnv = await lore(["recall", "x"], { ...sandbox.env, LORE_CONFIG: missing });
    expect(viaEnv.code).toBe(2);
    expect(viaEnv.stderr).toContain(`LORE_CONFIG names ${missing}, which does not exist`);
  });

  it("a folder is config_invalid saying it is a folder", async () => {
    const run = await lore(["recall", "x", "--config", "/tmp"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--config names /tmp, which is a folder");
    expect(run.stderr).toContain("[config_invalid]");
  });
});

describe("lore read of a file the registry places in another root, absent from primary", () => {
  function roots(): string {
    const notes = join(sandbox.dir, "notes");
    const group = join(sandbox.dir, "group");
    mkdirSync(join(notes, "knowledge", "work", "local"), { recursive: true });
    mkdirSync(join(group, "knowledge", "playbooks"), { recursive: true });
    writeFileSync(
      join(notes, "knowledge", "work", "local", "knowledge-roots-index-v1.md"),
      "playbooks/ => group\n",
    );
    writeFileSync(join(group, "knowledge", "playbooks", "chmod.md"), "chmod 600 the key\n");
    const config = join(sandbox.dir, "roots.toml");
    writeFileSync(
      config,
      `[knowledge]\nprimary = '${notes}'\n\n[[knowledge.read_only]]\nid = "group"\npath = '${group}'\n`,
    );
    return config;
  }

  it("prints the group's copy with the notice, exit 0, as the README says", async () => {
    const run = await lore(["read", "playbooks/chmod.md", "--config", roots()]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("chmod 600 the key\n");
    expect(run.stderr).toBe(
      "lore: the registry (line 1) says this file lives in root group; read from there: lore read playbooks/chmod.md --root group [lives_in_other_root]\n",
    );
  });

  it("gives the same file with --json, exit 0", async () => {
    const run = await lore(["read", "playbooks/chmod.md", "--json", "--config", roots()]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      root: "group",
      text: "chmod 600 the key\n",
      lives_in: { root: "group", registry_line: 1 },
    });
  });

  it("is path_not_found naming the group root when the group lacks it too", async () => {
    const run = await lore(["read", "playbooks/none.md", "--config", roots()]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("group:playbooks/none.md [path_not_found]");
  });
});

describe("a federation tool called over MCP without a forge or shared wiki", () => {
  it("is federation_disabled naming what to add, not an unknown tool", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--repo", repo.dir],
      env: sandbox.env,
      cwd: sandbox.dir,
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).not.toContain("knowledge_ask_projects");
      const answer = await client.callTool({
        name: "knowledge_ask_projects",
        arguments: { query: "x", projects: ["a"] },
      });
      expect(answer.isError).toBe(true);
      const text = (answer.content as { text: string }[])[0]?.text ?? "";
      const error = (JSON.parse(text) as { error: { code: string; message: string; next: string } })
        .error;
      expect(error.code).toBe("federation_disabled");
      expect(error.message).toContain("knowledge_ask_projects disabled");
      expect(error.message).toContain("add a [forge] table to lore.toml");
      expect(error.next).toContain("which setting the message names");
      const typo = await client.callTool({ name: "knowledge_recal", arguments: {} });
      expect((typo.content as { text: string }[])[0]?.text).toContain('"invalid_input"');
    } finally {
      await client.close();
    }
  });

  it("the CLI's refusal speaks of lore.toml, not of restarting an MCP client", async () => {
    const bare = join(sandbox.dir, "bare.toml");
    writeFileSync(bare, 'lang = "en"\n');
    const run = await lore(["ask", "x", "--projects", "a", "--config", bare]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain("Add a [forge] table to lore.toml");
    expect(run.stderr).not.toContain("restart the MCP client");
  });
});

describe("lore doctor and lore sync papercuts", () => {
  it("doctor shows an ignored key of an untrusted lore.toml with its value", async () => {
    const project = join(sandbox.dir, "untrusted-project");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "lore.toml"), '[server]\nport = 9999\n[forge]\nurl = "http://x"\n');
    const run = await lore(["doctor"], sandbox.env, project);
    expect(run.stdout).toContain(
      `key: server.port = 9999 (ignored, from ${join(project, "lore.toml")})`,
    );
    expect(run.stdout).toContain('key: forge.url = "http://x" (ignored');
  });

  it("doctor says “по умолчанию” for a default under lang = ru", async () => {
    const config = join(sandbox.dir, "ru.toml");
    writeFileSync(config, 'lang = "ru"\n');
    const run = await lore(["doctor", "--config", config]);
    expect(run.stdout).toMatch(/^key: server\.port = 7377 \(по умолчанию\)$/m);
    expect(run.stdout).not.toContain("default");
  });

  it("a missing [forge] root: doctor reports forge_root_missing, sync a coded error without Node's text", async () => {
    const missing = join(sandbox.dir, "no-repos");
    const config = join(sandbox.dir, "forge.toml");
    writeFileSync(config, `[forge]\nkind = "local"\nroot = '${missing}'\n`);
    const doctor = await lore(["doctor", "--config", config]);
    expect(doctor.code).toBe(2);
    expect(doctor.stdout).toContain(
      `error: the [forge] root ${missing} is not a folder; create it, or fix root in lore.toml [forge_root_missing]`,
    );
    const sync = await lore(["sync", "--config", config]);
    expect(sync.code).toBe(6);
    expect(sync.stderr).toContain(`the [forge] root ${missing} does not exist`);
    expect(sync.stderr).toContain("[forge_unavailable]");
    expect(sync.stderr).not.toMatch(/ENOENT|scandir/);
  });
});

describe("help texts and the CLI reference agree with the README", () => {
  it("lore --help and lore recall --help describe ranking as one score, most matched words first", async () => {
    const top = await lore(["--help"]);
    expect(top.stdout).toMatch(
      /^ {2}recall +find knowledge for a question \(one score: most matched words first\)$/m,
    );
    expect(top.stdout).not.toContain("contracts first");
    const recall = await lore(["recall", "--help"]);
    expect(recall.stdout).toContain("one score: most query words matched first");
    expect(recall.stdout).toContain("{hits, total, total_exact, next_cursor}");
  });

  it("the README's --json list names exactly the commands whose help lists --json", async () => {
    const sentence = /`--json` \(the answer[^)]*\) is taken by ([^—]*)—/.exec(README)?.[1] ?? "";
    const listed = new Set([...sentence.matchAll(/`([a-z]+)[^`]*`/g)].map((m) => m[1]));
    const withJson = new Set<string>();
    for (const command of COMMANDS) {
      const help = await lore([command.name, "--help"]);
      expect(help.code, command.name).toBe(0);
      if (/^ +--json |\[--json\]/m.test(help.stdout)) withJson.add(command.name);
    }
    expect([...withJson].sort()).toEqual([...listed].sort());
  });

  it("the lore write row names every option lore write --help lists", async () => {
    const help = await lore(["write", "--help"]);
    const row = README.split("\n").find((line) => line.startsWith("| `lore write ")) ?? "";
    for (const option of help.stdout.matchAll(/^ {2}(--[a-z]+)/gm)) {
      expect(row, option[1]).toContain(option[1]);
    }
  });
});

describe("top-level typos", () => {
  it("lore --versoin suggests --version", async () => {
    const run = await lore(["--versoin"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "lore: “--versoin” is not an option of lore; did you mean “--version”? See lore --help [invalid_input]\n",
    );
  });

  it("--config before the command name works as after it", async () => {
    const config = join(sandbox.dir, "before.toml");
    writeFileSync(config, "[server]\nport = 7399\n");
    for (const args of [
      ["--config", config, "doctor"],
      [`--config=${config}`, "doctor"],
      ["doctor", "--config", config],
    ]) {
      const run = await lore(args);
      expect({ args, code: run.code }).toEqual({ args, code: 0 });
      expect(run.stdout).toContain(`key: server.port = 7399 (from ${config})`);
    }
  });

  it("a command's own option before its name says where it goes", async () => {
    const run = await lore(["--json", "recall", "x"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "lore: a command's options go after its name: lore recall --json … [invalid_input]\n",
    );
  });
});

describe("lore recall paging", () => {
  it("page 2 numbers from the offset and says 3–4 of N", async () => {
    const files: Record<string, string> = {};
    const ids = [
      "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f01",
      "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f02",
      "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f03",
      "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f04",
      "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f05",
    ];
    ids.forEach((id, i) => {
      files[`.gitriver/knowledge/${id}.md`] =
        `---\nid: ${id}\norigin: human\n---\n\nThe proxy setting number ${i} for yarn.\n`;
    });
    const paged = await makeRepo(files);
    try {
      expect((await lore(["index", "."], sandbox.env, paged.dir)).code).toBe(0);
      const first = await lore(["recall", "yarn", "proxy", "--limit", "2"], sandbox.env, paged.dir);
      expect(first.code, first.stderr).toBe(0);
      const cursor = /more: --cursor (\S+)/.exec(first.stdout)?.[1] ?? "";
      expect(first.stdout).toMatch(/^2 of 5; more: --cursor /m);
      const second = await lore(
        ["recall", "yarn", "proxy", "--limit", "2", "--cursor", cursor],
        sandbox.env,
        paged.dir,
      );
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toMatch(/^3\. /m);
      expect(second.stdout).toMatch(/^4\. /m);
      expect(second.stdout).not.toMatch(/^1\. /m);
      expect(second.stdout).toMatch(/^3–4 of 5; more: --cursor /m);
      const wrong = await lore(["recall", "other", "--cursor", cursor], sandbox.env, paged.dir);
      expect(wrong.stderr).toBe(
        "lore: the cursor was not given for this query; start without a cursor [invalid_cursor]\n",
      );
    } finally {
      await paged.cleanup();
    }
  });
});

describe("lore trust under lang = ru", () => {
  it("says доверено / доверие снято", async () => {
    const config = join(sandbox.dir, "ru-trust.toml");
    writeFileSync(config, 'lang = "ru"\n');
    const folder = join(sandbox.dir, "to-trust");
    mkdirSync(folder, { recursive: true });
    const trust = await lore(["trust", folder, "--config", config]);
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toMatch(/^доверено: \S*to-trust\n$/);
    const untrust = await lore(["untrust", folder, "--config", config]);
    expect(untrust.stdout).toMatch(/^доверие снято: \S*to-trust\n$/);
  });
});

describe("plurals", () => {
  it("lore repos, lore status and lore forget say 1 entry / 1 file", async () => {
    const one = await makeRepo(knowledgeFiles());
    try {
      await one.remove([...Object.keys(knowledgeFiles())].slice(1));
      expect((await lore(["index", "."], sandbox.env, one.dir)).code).toBe(0);
      const repos = await lore(["repos"], sandbox.env, one.dir);
      expect(repos.stdout).toMatch(/ 1 entry, 0 skipped, 0 drafts /);
      expect(repos.stdout).not.toContain("1 entries");
      const forgot = await lore(["forget", one.dir], sandbox.env, one.dir);
      expect(forgot.stdout).toMatch(/\(1 file\)$/m);
    } finally {
      await one.cleanup();
    }
  });
});

describe("lore check in Russian", () => {
  // Seed 004 writes the unknown-key message with „…“: «ключ „on_trigers“ не известен,
  // ближайший известный — „contract“»; the unknown-mechanism line quotes the same way.
  it("quotes an unknown key and an unknown mechanism the same way, with the seed's „…“", async () => {
    const dir = join(sandbox.dir, "ru-check");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "e.md"),
      "---\nid: 0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f99\norigin: human\non_trigers: x\ncontract:\n  - mechanism: on_path\n    params: {}\n---\n\nA body.\n",
    );
    const run = await lore(["check", dir, "--strict"], { ...sandbox.env, LORE_LANG: "ru" });
    const text = run.stdout + run.stderr;
    expect(text).toContain("„on_trigers“");
    expect(text).toContain("„on_path“");
    expect(text).not.toMatch(/«on_/);
  });
});

describe("lore mcp --repo of a folder that does not exist", () => {
  it("says so on stderr with the code", async () => {
    const missing = join(sandbox.dir, "nonexist");
    const child = spawn(process.execPath, [LORE_BIN, "mcp", "--repo", missing], {
      cwd: sandbox.dir,
      env: sandbox.env,
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    await new Promise<void>((resolve, reject) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        if (stderr.includes("[path_not_found]")) resolve();
      });
      child.on("close", () => reject(new Error(`lore mcp ended: ${stderr}`)));
    });
    const closed = new Promise((resolve) => child.once("close", resolve));
    child.stdin.end();
    await closed;
    expect(stderr).toContain(`no such file or folder: ${missing} [path_not_found]`);
  });
});
