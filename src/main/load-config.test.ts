import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LoreError } from "../core/errors/lore-error.js";
import { findConfigFile, findConfigFiles, loadConfigReader, loadSettings } from "./load-config.js";
import { setFolderTrust } from "./trust-store.js";

let root: string;
let home: string;
let cwd: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "lore-config-"));
  home = join(root, "home");
  cwd = join(root, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const baseEnv = () => ({ HOME: home, LORE_USER: "tester" });

// The file reader is loaded on demand (as the CLI does when a file exists).
beforeAll(loadConfigReader);

describe("findConfigFiles", () => {
  it("the user's file: --config, then LORE_CONFIG, then the XDG folder; ./lore.toml layered over it", () => {
    const xdg = join(home, ".config", "lore", "lore.toml");
    mkdirSync(join(home, ".config", "lore"), { recursive: true });
    writeFileSync(xdg, "");
    expect(findConfigFiles({ cwd, env: baseEnv() })).toEqual({
      user: { kind: "user", file: xdg },
      project: null,
    });
    writeFileSync(join(cwd, "lore.toml"), "");
    expect(findConfigFiles({ cwd, env: baseEnv() })).toEqual({
      user: { kind: "user", file: xdg },
      project: join(cwd, "lore.toml"),
    });
    expect(findConfigFile({ cwd, env: baseEnv() })).toBe(join(cwd, "lore.toml"));
    writeFileSync(join(root, "env.toml"), "");
    const env = { ...baseEnv(), LORE_CONFIG: join(root, "env.toml") };
    expect(findConfigFiles({ cwd, env }).user).toEqual({
      kind: "env",
      file: join(root, "env.toml"),
    });
    writeFileSync(join(root, "flag.toml"), "");
    expect(findConfigFiles({ cwd, env, configPath: "../flag.toml" }).user).toEqual({
      kind: "flag",
      file: join(root, "flag.toml"),
    });
    // The same file named by --config and found as ./lore.toml counts once, as the user's.
    expect(findConfigFiles({ cwd, env, configPath: "lore.toml" })).toEqual({
      user: { kind: "flag", file: join(cwd, "lore.toml") },
      project: null,
    });
  });

  it("honours XDG_CONFIG_HOME", () => {
    mkdirSync(join(root, "xdg", "lore"), { recursive: true });
    writeFileSync(join(root, "xdg", "lore", "lore.toml"), "");
    const env = { ...baseEnv(), XDG_CONFIG_HOME: join(root, "xdg") };
    expect(findConfigFile({ cwd, env })).toBe(join(root, "xdg", "lore", "lore.toml"));
  });

  it("refuses a named file that does not exist", () => {
    expect(() => findConfigFile({ cwd, env: baseEnv(), configPath: "nope.toml" })).toThrow(
      expect.objectContaining({ code: "config_invalid" }),
    );
  });
});

describe("loadSettings", () => {
  it("applies the defaults with no file", () => {
    const settings = loadSettings({ cwd, env: baseEnv() });
    expect(settings).toEqual({
      configPath: null,
      databaseIsDefault: true,
      user: "tester",
      lang: "en",
      database: join(home, ".local", "share", "lore", "index.db"),
      repos: [],
      server: {
        host: "127.0.0.1",
        port: 7377,
        data: join(home, ".local", "share", "lore", "server"),
        sshPort: 7378,
      },
      hooks: { budgetMs: 300 },
      receipts: { keepDays: 30 },
      cacheFile: join(home, ".local", "share", "lore", "cache.json"),
      machine: expect.any(String),
      projectDir: cwd,
      lockDir: join(home, ".local", "state", "lore", "locks"),
    });
  });

  it("reads [hooks], [receipts], [server] database and the git limits from the user's file", () => {
    mkdirSync(join(home, ".config", "lore"), { recursive: true });
    writeFileSync(
      join(home, ".config", "lore", "lore.toml"),
      [
        "[server]",
        'database = "postgres://lore@127.0.0.1:5432/lore"',
        "git_max_processes = 4",
        "git_timeout_ms = 5000",
        "[hooks]",
        "budget_ms = 150",
        "[receipts]",
        "keep_days = 7",
      ].join("\n"),
    );
    const settings = loadSettings({ cwd, env: baseEnv() });
    expect(settings.server.database).toBe("postgres://lore@127.0.0.1:5432/lore");
    expect(settings.server.git).toEqual({ maxProcesses: 4, timeoutMs: 5000 });
    expect(settings.hooks).toEqual({ budgetMs: 150 });
    expect(settings.receipts).toEqual({ keepDays: 7 });
  });

  it("reads [forge], [wiki] shared, [projects] cache and machine from the user's file", () => {
    mkdirSync(join(home, ".config", "lore"), { recursive: true });
    writeFileSync(
      join(home, ".config", "lore", "lore.toml"),
      [
        'machine = "laptop"',
        "[forge]",
        "root = '~/repos'",
        "[wiki]",
        "shared = 'wiki'",
        "[projects]",
        "cache = 'c/cache.json'",
      ].join("\n"),
    );
    const settings = loadSettings({ cwd, env: baseEnv() });
    expect(settings.forge?.config).toEqual({ root: join(home, "repos") });
    expect(settings.sharedWiki).toBe(join(home, ".config", "lore", "wiki"));
    expect(settings.cacheFile).toBe(join(home, ".config", "lore", "c", "cache.json"));
    expect(settings.machine).toBe("laptop");
  });

  it("indexes the current folder by default when it holds .gitriver/knowledge/", () => {
    mkdirSync(join(cwd, ".gitriver", "knowledge"), { recursive: true });
    expect(loadSettings({ cwd, env: baseEnv() }).repos).toEqual([cwd]);
  });

  it("reads a trusted project file, resolves paths against its folder, and lets LORE_DB win", () => {
    setFolderTrust(baseEnv(), cwd, true);
    writeFileSync(
      join(cwd, "lore.toml"),
      [
        'user = "anna"',
        'lang = "ru"',
        "[index]",
        "database = 'db/i.db'",
        "repos = ['.', '~/r']",
      ].join("\n"),
    );
    const settings = loadSettings({ cwd, env: { ...baseEnv(), LANG: "en_US.UTF-8" } });
    expect(settings.user).toBe("anna");
    expect(settings.lang).toBe("ru");
    expect(settings.database).toBe(join(cwd, "db", "i.db"));
    expect(settings.repos).toEqual([cwd, join(home, "r")]);
    const withDb = loadSettings({ cwd, env: { ...baseEnv(), LORE_DB: "/tmp/x.db" } });
    expect(withDb.database).toBe("/tmp/x.db");
  });

  it("uses XDG_DATA_HOME and LORE_LANG", () => {
    const env = { ...baseEnv(), XDG_DATA_HOME: join(root, "data"), LORE_LANG: "ru" };
    const settings = loadSettings({ cwd, env });
    expect(settings.database).toBe(join(root, "data", "lore", "index.db"));
    expect(settings.lang).toBe("ru");
  });

  it("refuses an invalid file with config_invalid naming line and key, in both languages", () => {
    writeFileSync(join(cwd, "lore.toml"), "[server]\nhots = 'x'\n");
    let caught: unknown;
    try {
      loadSettings({ cwd, env: baseEnv() });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LoreError);
    const error = caught as LoreError;
    expect(error.code).toBe("config_invalid");
    const file = join(cwd, "lore.toml");
    expect(error.text.en).toBe(
      `configuration error: ${file}:2: key “server.hots” is not known, the nearest known is “host” (key server.hots)`,
    );
    expect(error.text.ru).toBe(
      `ошибка настройки: ${file}:2: ключ „server.hots“ не известен, ближайший известный — „host“ (ключ server.hots)`,
    );
    expect(error.data).toMatchObject({ file, problems: [{ key: "server.hots", line: 2 }] });
  });
});
