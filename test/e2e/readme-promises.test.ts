/**
 * What the README promises, through the built `lore` bin, where a newcomer found the code
 * saying otherwise: `--config` paths, `lore read` of a file the registry places elsewhere,
 * federation tools over MCP without a forge, help texts, and the small wording papercuts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { knowledgeFiles } from "./fixture-entries.js";
import { isolatedEnv, runLore } from "./run-lore.js";

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
