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
