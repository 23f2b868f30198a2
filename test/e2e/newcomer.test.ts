import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEntry } from "../../src/core/entry/parse-entry.js";
import { isolatedEnv, runLore } from "./run-lore.js";

// What a newcomer following README.md met: each case runs the built CLI as users do.
let sandbox: ReturnType<typeof isolatedEnv>;
let work: string;

beforeAll(() => {
  sandbox = isolatedEnv();
  work = join(sandbox.dir, "work");
  mkdirSync(work, { recursive: true });
});

afterAll(() => sandbox.cleanup());

describe("lore new --title with --body", () => {
  it("keeps the title as the first paragraph (the summary) before the body", async () => {
    const dir = join(work, "new-knowledge");
    const run = await runLore(
      [
        "new",
        "--title",
        "Roll back with helm",
        "--body",
        "Never redeploy the old tag.",
        "--dir",
        dir,
      ],
      { cwd: work, env: sandbox.env },
    );
    expect(run.code).toBe(0);
    const text = readFileSync(join(work, run.stdout.trim()), "utf8");
    const parsed = parseEntry(text, { mode: "strict" });
    expect(parsed.value?.entry.body).toBe("Roll back with helm\n\nNever redeploy the old tag.\n");
    expect(parsed.value?.summary).toBe("Roll back with helm");
  });
});

describe("argument errors in the configured language", () => {
  const config = () => {
    const path = join(work, "ru.toml");
    writeFileSync(path, 'lang = "ru"\n');
    return path;
  };

  it("answers recall with no words in Russian when lang = ru is in the config", async () => {
    const run = await runLore(["recall", "--config", config()], { cwd: work, env: sandbox.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/в запросе нет слов.*\[empty_query\]/);
  });

  it("answers get with no id in Russian when lang = ru is in the config", async () => {
    const run = await runLore(["get", `--config=${config()}`], { cwd: work, env: sandbox.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^lore: неверный ввод: .*\[invalid_input\]\n$/);
  });

  it("answers an unknown option in Russian when the config is found by LORE_CONFIG", async () => {
    const run = await runLore(["recall", "x", "--nope"], {
      cwd: work,
      env: { ...sandbox.env, LORE_CONFIG: config() },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^lore: неверный ввод: .*\[invalid_input\]\n$/);
  });
});

describe("lore recall --limit out of range", () => {
  it("is refused with invalid_limit, as README's error table and the MCP tool say", async () => {
    const run = await runLore(["recall", "rollback", "--limit", "99"], {
      cwd: work,
      env: sandbox.env,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("lore: limit must be a whole number from 1 to 50 [invalid_limit]\n");
  });

  it("says it in Russian with lang = ru in the config", async () => {
    const path = join(work, "ru-limit.toml");
    writeFileSync(path, 'lang = "ru"\n');
    const run = await runLore(["recall", "rollback", "--limit", "99", "--config", path], {
      cwd: work,
      env: sandbox.env,
    });
    expect(run.stderr).toBe("lore: limit должен быть целым числом от 1 до 50 [invalid_limit]\n");
  });
});

describe("lore read when the registry places the file in another root", () => {
  it("prints the notice with the stable code [lives_in_other_root]", async () => {
    const notes = join(work, "notes");
    const group = join(work, "group");
    mkdirSync(join(notes, "knowledge", "work", "local"), { recursive: true });
    mkdirSync(join(group, "knowledge", "team"), { recursive: true });
    writeFileSync(
      join(notes, "knowledge", "work", "local", "knowledge-roots-index-v1.md"),
      "# registry\nteam/ => group\n",
    );
    writeFileSync(join(group, "knowledge", "team", "a.md"), "group text\n");
    mkdirSync(join(notes, "knowledge", "team"), { recursive: true });
    writeFileSync(join(notes, "knowledge", "team", "a.md"), "primary text\n");
    const configFile = join(work, "roots.toml");
    writeFileSync(
      configFile,
      `[knowledge]\nprimary = '${notes}'\n\n[[knowledge.read_only]]\nid = "group"\npath = '${group}'\n`,
    );
    const run = await runLore(["read", "team/a.md", "--config", configFile], {
      cwd: work,
      env: sandbox.env,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("primary text\n");
    expect(run.stderr).toMatch(
      /^lore: the registry \(line 2\) says this file lives in root group: .* \[lives_in_other_root\]$/m,
    );
  });
});
