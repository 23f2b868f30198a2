/**
 * File names that are not UTF-8, through the real CLI: `lore check` and folder indexing
 * report them with the name escaped (`caf\xe9.md`, code `file_name_not_utf8`) like any
 * other problem — never `internal`, never dropped silently — and go on with the rest.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo } from "../helpers/make-repo.js";
import { isolatedEnv, runLore } from "./run-lore.js";

let sandbox: ReturnType<typeof isolatedEnv>;
let project: string;

const entry = (id: string, body: string) => `---\nid: ${id}\n---\n\n${body}\n`;

beforeAll(() => {
  sandbox = isolatedEnv();
  project = join(sandbox.dir, "project");
  const knowledge = join(project, ".gitriver", "knowledge");
  mkdirSync(knowledge, { recursive: true });
  // "café.md" written in Latin-1: the byte 0xE9 alone is not UTF-8.
  const latin1 = Buffer.concat([
    Buffer.from(`${knowledge}/caf`),
    Buffer.from([0xe9]),
    Buffer.from(".md"),
  ]);
  writeFileSync(latin1, entry("0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f81", "Latin-1 name."));
  writeFileSync(join(knowledge, "ok.md"), entry("0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f82", "Fine."));
});
afterAll(() => sandbox.cleanup());

describe("a file name that is not UTF-8", () => {
  it("lore check reports it escaped, exit 7, the other file checked", async () => {
    const run = await runLore(["check"], { cwd: project, env: sandbox.env });
    expect(run.stderr).not.toContain("[internal]");
    expect(run.code).toBe(7);
    expect(run.stdout).toContain(
      ".gitriver/knowledge/caf\\xe9.md: the file name is not valid UTF-8 (shown with \\xNN escapes); rename the file [file_name_not_utf8]",
    );
    expect(run.stderr).toContain("checked 2 files: 1 entry, 1 unreachable, 1 wrong");
    const json = await runLore(["check", "--json"], { cwd: project, env: sandbox.env });
    const report = JSON.parse(json.stdout) as { diagnostics: { path: string; code: string }[] };
    expect(report.diagnostics.filter((d) => d.code === "file_name_not_utf8")).toEqual([
      expect.objectContaining({ path: ".gitriver/knowledge/caf\\xe9.md" }),
    ]);
  });

  it("folder indexing reports it escaped and indexes the rest", async () => {
    const run = await runLore(["index", project], { cwd: project, env: sandbox.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      ".gitriver/knowledge/caf\\xe9.md: the file name is not valid UTF-8",
    );
    expect(run.stdout).toMatch(/ 1 skipped\n/);
    const again = await runLore(["index", project], { cwd: project, env: sandbox.env });
    // A wrong file is reported on every run until it is fixed; the counts add up to the files.
    expect(again.stdout).toContain(
      ".gitriver/knowledge/caf\\xe9.md: the file name is not valid UTF-8",
    );
    expect(again.stdout).toMatch(/0 added, 0 updated, 0 removed, 1 unchanged, 1 skipped\n/);
  });
});

describe("a committed file name that is not UTF-8", () => {
  it("git indexing reports it escaped, as lore check does, and indexes the rest", async () => {
    const repo = await makeRepo({
      ".gitriver/knowledge/ok.md": entry("0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f83", "Fine."),
    });
    try {
      const name = Buffer.concat([
        Buffer.from(`${repo.dir}/.gitriver/knowledge/caf`),
        Buffer.from([0xe9]),
        Buffer.from(".md"),
      ]);
      writeFileSync(name, entry("0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f84", "Latin-1 name."));
      await repo.git(["add", "-A"]);
      await repo.git(["commit", "-q", "-m", "latin-1 name"]);
      const run = await runLore(["index", repo.dir], { cwd: repo.dir, env: sandbox.env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(
        ".gitriver/knowledge/caf\\xe9.md: the file name is not valid UTF-8 (shown with \\xNN escapes); rename the file [file_name_not_utf8]",
      );
      expect(run.stdout).toMatch(/1 added, 0 updated, 0 removed, 0 unchanged, 1 skipped\n/);
      const recall = await runLore(["recall", "name", "--json"], {
        cwd: repo.dir,
        env: sandbox.env,
      });
      expect(recall.stdout).not.toContain("\uFFFD");
      expect(recall.stdout).not.toContain("\ufffd");
    } finally {
      await repo.cleanup();
    }
  });
});
