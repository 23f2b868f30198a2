/**
 * `knowledge_write_file` loses nothing, over a real MCP client on stdio: append keeps bytes
 * that are not UTF-8 (no U+FFFD), replace and append keep a 0600 file 0600, an append that
 * would pass the 1 MiB read limit is refused, names with control characters, bidi
 * overrides or newlines are refused, a user file named `.<name>.lore-lock` does not block
 * a write, and parallel appends all land.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { chmod } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";

let sandbox: ReturnType<typeof isolatedEnv>;
let client: Client;
let knowledge: string;
let lockDir: string;

const MIB = 1024 * 1024;

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((c) => c.text).join("");
}

async function write(file_path: string, content: string, mode: string) {
  return client.callTool({ name: "knowledge_write_file", arguments: { file_path, content, mode } });
}

function errorOf(result: unknown): { code: string; message: string } {
  return JSON.parse(textOf(result)).error;
}

beforeAll(async () => {
  sandbox = isolatedEnv({});
  const notes = join(sandbox.dir, "notes");
  knowledge = join(notes, "knowledge");
  mkdirSync(knowledge, { recursive: true });
  lockDir = join(sandbox.dir, "state", "lore", "locks");
  const config = join(sandbox.dir, "lore.toml");
  writeFileSync(config, `[knowledge]\nprimary = '${notes}'\n`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [LORE_BIN, "mcp", "--config", config],
    cwd: sandbox.dir,
    env: { ...sandbox.env, XDG_STATE_HOME: join(sandbox.dir, "state") },
    stderr: "pipe",
  });
  client = new Client({ name: "write-safety", version: "1" });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  sandbox?.cleanup();
});

describe("knowledge_write_file keeps what is there", () => {
  it("append keeps bytes that are not UTF-8 as they are (no U+FFFD)", async () => {
    const before = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe, 0x0a]); // "caf\xe9\n\xff\xfe\n"
    writeFileSync(join(knowledge, "latin1.md"), before);
    const result = await write("latin1.md", "more\n", "append");
    expect(result.isError, textOf(result)).toBeFalsy();
    const after = readFileSync(join(knowledge, "latin1.md"));
    expect(after).toEqual(Buffer.concat([before, Buffer.from("more\n")]));
    expect(after.includes(Buffer.from([0xef, 0xbf, 0xbd]))).toBe(false);
    expect(result.structuredContent).toMatchObject({ bytes: before.length + 5 });
  });

  it("replace and append keep the file's mode: 0600 stays 0600", async () => {
    const file = join(knowledge, "private.md");
    writeFileSync(file, "secret\n");
    await chmod(file, 0o600);
    expect((await write("private.md", "replaced\n", "replace")).isError).toBeFalsy();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await write("private.md", "appended\n", "append")).isError).toBeFalsy();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toBe("replaced\nappended\n");
  });

  it("an append that would pass the 1 MiB read limit is refused; up to it is fine", async () => {
    const file = join(knowledge, "big.md");
    writeFileSync(file, "x".repeat(MIB - 10));
    const over = await write("big.md", "y".repeat(11), "append");
    expect(over.isError).toBe(true);
    expect(errorOf(over).code).toBe("invalid_input");
    expect(errorOf(over).message).toContain(
      "appending 11 bytes to primary:big.md (1048566 bytes) would pass the 1048576-byte limit of read_file; nothing was written",
    );
    expect(statSync(file).size).toBe(MIB - 10);
    expect((await write("big.md", "y".repeat(10), "append")).isError).toBeFalsy();
    expect(statSync(file).size).toBe(MIB);
    const read = await client.callTool({
      name: "knowledge_read_file",
      arguments: { file_path: "big.md" },
    });
    expect(read.isError, textOf(read)).toBeFalsy();
  });

  it("names with control characters, bidi overrides or newlines are refused, nothing written", async () => {
    const names: [string, string][] = [
      ["a\nb.md", "U+000A"],
      ["line\r.md", "U+000D"],
      ["tab\there.md", "U+0009"],
      ["bell\u0007.md", "U+0007"],
      ["c1\u0085.md", "U+0085"],
      ["evil\u202Edm.md", "U+202E"],
      ["iso\u2066late.md", "U+2066"],
      ["sep\u2028.md", "U+2028"],
      ["dir\u202D/x.md", "U+202D"],
    ];
    for (const [name, codePoint] of names) {
      const result = await write(name, "text\n", "create");
      expect(result.isError, name).toBe(true);
      const error = errorOf(result);
      expect(error.code, name).toBe("invalid_input");
      expect(error.message, name).toContain(`(${codePoint}); choose a name without it`);
      expect(error.message, name).not.toMatch(/[\n\u202E\u2066]/u);
    }
    expect(readdirSync(knowledge).filter((n) => /[^\x20-\x7e]/u.test(n))).toEqual([]);
  });
});

describe("write locks", () => {
  it("a user file named .<name>.lore-lock does not block writes of <name>, and is kept", async () => {
    const userFile = join(knowledge, ".plan.md.lore-lock");
    writeFileSync(userFile, "my own file\n");
    const result = await write("plan.md", "step 1\n", "create");
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(readFileSync(join(knowledge, "plan.md"), "utf8")).toBe("step 1\n");
    expect(readFileSync(userFile, "utf8")).toBe("my own file\n");
    // The locks live in the state folder, outside the root; none is left over.
    expect(existsSync(lockDir)).toBe(true);
    expect(readdirSync(lockDir)).toEqual([]);
    expect(readdirSync(knowledge).filter((n) => n.endsWith(".lore-tmp"))).toEqual([]);
  });

  it("parallel appends all land, none lost", async () => {
    const lines = Array.from({ length: 24 }, (_, i) => `line ${i}\n`);
    const results = await Promise.all(lines.map((line) => write("log.md", line, "append")));
    expect(results.filter((r) => r.isError).map(textOf)).toEqual([]);
    const text = readFileSync(join(knowledge, "log.md"), "utf8");
    expect(text.split("\n").filter(Boolean).sort()).toEqual(lines.map((l) => l.trim()).sort());
  });
});

describe("writers in different processes", () => {
  it("parallel `lore write --mode append` processes and the MCP server lose no line", async () => {
    const env = { ...sandbox.env, XDG_STATE_HOME: join(sandbox.dir, "state") };
    const config = join(sandbox.dir, "lore.toml");
    const cli = Array.from({ length: 6 }, (_, i) =>
      runLore(
        ["write", "shared.md", "--mode", "append", "--text", `cli ${i}\n`, "--config", config],
        {
          cwd: sandbox.dir,
          env,
        },
      ),
    );
    const mcp = Array.from({ length: 6 }, (_, i) => write("shared.md", `mcp ${i}\n`, "append"));
    const [runs] = await Promise.all([Promise.all(cli), Promise.all(mcp)]);
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(runs.map(() => [0, ""]));
    const lines = readFileSync(join(knowledge, "shared.md"), "utf8").split("\n").filter(Boolean);
    expect(lines.sort()).toEqual(
      [
        ...Array.from({ length: 6 }, (_, i) => `cli ${i}`),
        ...Array.from({ length: 6 }, (_, i) => `mcp ${i}`),
      ].sort(),
    );
  });
});
