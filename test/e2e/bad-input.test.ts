/**
 * Bad input through the real CLI (bad input of the entry format; DESIGN.md non-negotiables): every
 * refusal is one `lore: <message> [code]` line — never a hang, a stack trace, an `internal`
 * error for the caller's input, or the SQL engine's own text.
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoreError } from "../../src/core/errors/lore-error.js";
import { toolError } from "../../src/mcp/tool-error.js";
import { toolNames } from "../../src/mcp/tool-names.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { knowledgeFiles } from "./fixture-entries.js";
import { isolatedEnv, runLore } from "./run-lore.js";

let sandbox: ReturnType<typeof isolatedEnv>;
let repo: TestRepo;

beforeAll(async () => {
  sandbox = isolatedEnv();
  repo = await makeRepo(knowledgeFiles());
});
afterAll(async () => {
  await repo.cleanup();
  sandbox.cleanup();
});

const ENTRY = [
  "---",
  "id: 0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70",
  "---",
  "",
  "A plain entry body.",
  "",
].join("\n");

describe("lore check on files that are not plain entry files", () => {
  it("follows a .gitriver/knowledge that is a symbolic link to a folder (no EISDIR)", async () => {
    const outside = join(sandbox.dir, "real-knowledge");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "a.md"), ENTRY);
    const project = join(sandbox.dir, "linked-project");
    mkdirSync(join(project, ".gitriver"), { recursive: true });
    symlinkSync(outside, join(project, ".gitriver", "knowledge"));
    const run = await runLore(["check"], { cwd: project, env: sandbox.env });
    expect(run.stderr).not.toContain("[internal]");
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("checked 1 file: 1 entry");
  });

  it("refuses a FIFO named on the command line instead of blocking on it", async () => {
    const fifo = join(sandbox.dir, "pipe.md");
    execFileSync("mkfifo", [fifo]);
    const run = await runLore(["check", fifo], { cwd: sandbox.dir, env: sandbox.env });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(
      /^lore: invalid input: .*pipe\.md is neither a regular file nor a folder \[invalid_input\]$/,
    );
  }, 15_000);

  it("reports a file over 2 GiB as file_too_large without reading it", async () => {
    const folder = join(sandbox.dir, "huge");
    mkdirSync(folder);
    const fd = openSync(join(folder, "huge.md"), "w");
    writeSync(fd, "x", 3 * 1024 * 1024 * 1024 - 1); // sparse: 3 GiB, one byte written
    closeSync(fd);
    writeFileSync(join(folder, "ok.md"), ENTRY);
    const run = await runLore(["check", folder], { cwd: sandbox.dir, env: sandbox.env });
    expect(run.stderr).not.toContain("[internal]");
    expect(run.code).toBe(7);
    expect(run.stdout).toContain(
      "huge/huge.md: the file is 3221225472 bytes, over the 65536-byte limit; skipped [file_too_large]",
    );
    expect(run.stderr).toContain("checked 2 files: 1 entry");
  });
});

describe("lore index on a plain folder", () => {
  it("reports a file over 2 GiB as file_too_large instead of dropping it silently", async () => {
    const project = join(sandbox.dir, "plain-folder");
    const knowledge = join(project, ".gitriver", "knowledge");
    mkdirSync(knowledge, { recursive: true });
    writeFileSync(join(knowledge, "ok.md"), ENTRY);
    const fd = openSync(join(knowledge, "huge.md"), "w");
    writeSync(fd, "x", 3 * 1024 * 1024 * 1024 - 1); // sparse: 3 GiB
    closeSync(fd);
    const env = { ...sandbox.env, LORE_DB: join(sandbox.dir, "folder.db") };
    const run = await runLore(["index", project], { cwd: project, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      ".gitriver/knowledge/huge.md: the file is 3221225472 bytes, over the 65536-byte limit; skipped [file_too_large]",
    );
  });
});

describe("lore new refusals", () => {
  it("names each problem of a refused entry, not only how many there are", async () => {
    const dir = join(sandbox.dir, "new-entries");
    const run = await runLore(["new", "--dir", dir, "--body", "   "], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the body is empty; an entry needs text \[empty_body\]/);
    expect(run.stderr).toMatch(
      /^lore: the entry is refused: 1 problem\(s\) found \[invalid_entry\]$/m,
    );
  });
});

describe("an index database that is busy or damaged", () => {
  it("says the index is busy (index_failed) when another writer holds it", async () => {
    const db = join(sandbox.dir, "busy.db");
    const env = { ...sandbox.env, LORE_DB: db };
    expect((await runLore(["index", repo.dir], { cwd: repo.dir, env })).code).toBe(0);
    await repo.commit({ ".gitriver/knowledge/extra.md": ENTRY.replace("6f70", "6f7f") });
    const holder = new Database(db);
    holder.exec("BEGIN IMMEDIATE");
    try {
      const run = await runLore(["index", repo.dir], { cwd: repo.dir, env });
      expect(run.code).toBe(1);
      expect(run.stderr).not.toContain("database is locked");
      expect(run.stderr).toMatch(
        /^lore: the index failed: the index database is busy.* \[index_failed\]$/m,
      );
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  }, 30_000);

  it("says the index is damaged (index_failed), never the engine's text, on a corrupt file", async () => {
    const db = join(sandbox.dir, "corrupt.db");
    const env = { ...sandbox.env, LORE_DB: db };
    expect((await runLore(["index", repo.dir], { cwd: repo.dir, env })).code).toBe(0);
    const pageSize = (() => {
      const open = new Database(db);
      open.pragma("wal_checkpoint(TRUNCATE)");
      const size = open.pragma("page_size", { simple: true }) as number;
      open.close();
      return size;
    })();
    const fd = openSync(db, "r+");
    writeSync(fd, Buffer.alloc(pageSize * 40, 0xff), 0, pageSize * 40, pageSize); // page 1 kept
    closeSync(fd);
    for (const args of [
      ["index", repo.dir],
      ["recall", "rollback"],
    ]) {
      const run = await runLore(args, { cwd: repo.dir, env });
      expect(run.stderr).not.toContain("malformed");
      expect(run.stderr).not.toContain("[internal]");
      if (run.code !== 0) {
        expect(run.stderr).toMatch(
          /^lore: the index failed: the index database is damaged.* \[index_failed\]$/m,
        );
      }
    }
  });

  it("turns a SQLite error into an index_failed tool error over MCP", () => {
    const engine = Object.assign(new Error("database disk image is malformed"), {
      code: "SQLITE_CORRUPT",
    });
    const result = toolError(engine, toolNames("underscore"), "en");
    expect(result.isError).toBe(true);
    const body = JSON.parse((result.content[0] as { text: string }).text).error;
    expect(body.code).toBe("index_failed");
    expect(body.message).not.toContain("malformed");
    expect(body.data).toEqual({ sqlite: "SQLITE_CORRUPT" });
    const wrapped = new LoreError(
      "index_failed",
      { reason: "SqliteError: vtable constructor failed: entry_text" },
      { cause: engine },
    );
    const rewrapped = JSON.parse(
      (toolError(wrapped, toolNames("underscore"), "en").content[0] as { text: string }).text,
    ).error;
    expect(rewrapped.message).toMatch(/^the index failed: the index database is damaged/);
    const mine = new LoreError("entry_not_found", { id: "x" });
    expect(
      JSON.parse(
        (toolError(mine, toolNames("underscore"), "en").content[0] as { text: string }).text,
      ).error.code,
    ).toBe("entry_not_found");
  });
});
