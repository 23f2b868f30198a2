import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir, hostname, userInfo } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import {
  CONFIG_DEFAULTS,
  type ConfigFile,
  formatConfigProblem,
  parseConfig,
} from "../core/config.js";
import { isWindowsDrivePath, type KnowledgeRoot, listRoots } from "../core/knowledge-roots.js";
import { type Lang, pickLang } from "../core/localized-text.js";
import { LoreError } from "../core/lore-error.js";
import { authFilePath } from "./load-forge.js";

/** The environment variables Lore reads (all optional). */
export type LoreEnv = Readonly<Record<string, string | undefined>>;

/**
 * Lore's settings after discovery, parsing and defaults: what the composition root needs.
 * Paths are absolute.
 */
export interface LoreSettings {
  /** The configuration file used, or null when none was found. */
  configPath: string | null;
  /** Counter owner. Config `user`, else env `LORE_USER`, else the OS user name. */
  user: string;
  /** Message language. Config `lang`, else `pickLang(env)` (`LORE_LANG`, locale). */
  lang: Lang;
  /** SQLite index file. Env `LORE_DB`, else `[index] database`, else `$XDG_DATA_HOME/lore/index.db`. */
  database: string;
  /** Repositories or folders indexed at `lore mcp` / `lore serve` start. */
  repos: string[];
  /** `lore serve` address. Defaults `127.0.0.1`, `7377`. */
  server: { host: string; port: number };
  /**
   * The knowledge roots of `[knowledge]` (issue 3): primary, named, read-only, in that
   * order; absent when the file has no `[knowledge]` table. Paths: `~` expanded, relative
   * ones against the config file's folder; a Windows drive path (`D:/x`, `D:\x`) is kept as
   * written on other systems (where it never exists: `lore doctor` reports it).
   */
  roots?: KnowledgeRoot[];
  /**
   * Issue 4: `[forge]` as written, `root` resolved (`~`, relative to the config file), with
   * the `auth.toml` path for Gitea's token; built by `main/load-forge.ts` when the
   * federation is used. Absent when the file has no `[forge]`.
   */
  forge?: { config: NonNullable<ConfigFile["forge"]>; base: string; authPath: string };
  /** Issue 4: `[wiki] shared`, resolved; absent when not configured. */
  sharedWiki?: string;
  /** Issue 4: `[projects] cache`, resolved. Default: `$XDG_DATA_HOME/lore/cache.json`. */
  cacheFile?: string;
  /** Issue 4: `machine`, written to the cache. Default: the host name. */
  machine?: string;
  /** Issue 4: the current project's folder (its wiki is `.wiki/`). Default: the working folder. */
  projectDir?: string;
  /** `[mcp] tool_names`: how the MCP tools are named; absent when not configured (underscore). */
  toolNames?: "underscore" | "dotted" | "seed";
}

/** Options of {@link loadSettings}. */
export interface LoadSettingsOptions {
  /** `--config PATH` from the command line, when given. */
  configPath?: string;
  /** The working folder. Default: `process.cwd()`. */
  cwd?: string;
  /** The environment. Default: `process.env`. */
  env?: LoreEnv;
}

/**
 * The language to speak before the configuration is read (for its own errors):
 * `pickLang(process.env)`.
 */
export function detectLang(env: LoreEnv = process.env): Lang {
  return pickLang(env);
}

/**
 * Finds the configuration file: `--config PATH`, then env `LORE_CONFIG`, then `./lore.toml`,
 * then `$XDG_CONFIG_HOME/lore/lore.toml` (default `~/.config`).
 *
 * @returns the absolute path, or null when no file exists at the optional places.
 * @throws LoreError `path_not_found` when `--config` or `LORE_CONFIG` names a missing file.
 */
export function findConfigFile(options: LoadSettingsOptions = {}): string | null {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const named = options.configPath ?? (env.LORE_CONFIG || undefined);
  if (named !== undefined) {
    const path = resolve(cwd, expandHome(named, env));
    if (!isFile(path)) throw new LoreError("path_not_found", { path });
    return path;
  }
  const candidates = [join(cwd, "lore.toml"), join(configHome(env), "lore", "lore.toml")];
  return candidates.find(isFile) ?? null;
}

/**
 * Discovers, reads and validates the configuration and applies every default.
 *
 * @throws LoreError `config_invalid` (data: `{ file, problems }`) when the file is not valid,
 *   the message naming each problem's line and key; `path_not_found` (see {@link findConfigFile}).
 */
export function loadSettings(options: LoadSettingsOptions = {}): LoreSettings {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const configPath = findConfigFile(options);
  let file: ConfigFile = {};
  if (configPath !== null) {
    const parsed = parseConfig(readFileSync(configPath, "utf8"));
    if (!parsed.value) {
      const reason = (lang: Lang) =>
        parsed.problems.map((p) => formatConfigProblem(p, lang, configPath)).join("; ");
      throw new LoreError(
        "config_invalid",
        { reason: reason("en"), reason_ru: reason("ru") },
        { data: { file: configPath, problems: parsed.problems } },
      );
    }
    file = parsed.value;
  }
  const base = configPath === null ? cwd : dirname(configPath);
  const toPath = (value: string) => resolve(base, expandHome(value, env));
  const database = env.LORE_DB
    ? resolve(cwd, expandHome(env.LORE_DB, env))
    : file.index?.database !== undefined
      ? toPath(file.index.database)
      : join(dataHome(env), "lore", "index.db");
  const repos =
    file.index?.repos !== undefined
      ? file.index.repos.map(toPath)
      : existsSync(join(cwd, ".gitriver", "knowledge"))
        ? [resolve(cwd)]
        : [];
  const settings: LoreSettings = {
    configPath,
    user: file.user ?? (env.LORE_USER || osUserName(env)),
    lang: file.lang ?? pickLang(env),
    database,
    repos,
    server: {
      host: file.server?.host ?? CONFIG_DEFAULTS.host,
      port: file.server?.port ?? CONFIG_DEFAULTS.port,
    },
  };
  if (file.knowledge !== undefined) {
    settings.roots = listRoots(file.knowledge, (path) => rootPath(path, base, env));
  }
  if (file.forge !== undefined) {
    const config = { ...file.forge };
    if (config.root !== undefined) config.root = toPath(config.root);
    settings.forge = { config, base, authPath: authFilePath(env) };
  }
  if (file.wiki?.shared !== undefined) settings.sharedWiki = toPath(file.wiki.shared);
  settings.cacheFile =
    file.projects?.cache !== undefined
      ? toPath(file.projects.cache)
      : join(dataHome(env), "lore", "cache.json");
  settings.machine = file.machine ?? safeHostname();
  settings.projectDir = resolve(cwd);
  if (file.mcp?.tool_names !== undefined) settings.toolNames = file.mcp.tool_names;
  return settings;
}

/**
 * Resolves a root's path as written in the configuration (see {@link LoreSettings.roots}).
 *
 * @param path - as written.
 * @param base - the config file's folder.
 * @param env - for `HOME`.
 */
export function rootPath(path: string, base: string, env: LoreEnv): string {
  if (isWindowsDrivePath(path) && process.platform !== "win32") return path;
  return resolve(base, expandHome(path, env));
}

function safeHostname(): string {
  try {
    return hostname() || "unknown";
  } catch {
    return "unknown";
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function home(env: LoreEnv): string {
  return env.HOME || homedir();
}

function expandHome(path: string, env: LoreEnv): string {
  if (path === "~") return home(env);
  if (path.startsWith("~/") || path.startsWith("~\\")) return join(home(env), path.slice(2));
  return path;
}

/**
 * The user's configuration file, `$XDG_CONFIG_HOME/lore/lore.toml` (default
 * `~/.config/lore/lore.toml`), whether it exists or not: where `lore init --notes` writes.
 *
 * @param env - the environment. Default: `process.env`.
 */
export function userConfigPath(env: LoreEnv = process.env): string {
  return join(configHome(env), "lore", "lore.toml");
}

function configHome(env: LoreEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(home(env), ".config");
}

function dataHome(env: LoreEnv): string {
  const xdg = env.XDG_DATA_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(home(env), ".local", "share");
}

function osUserName(env: LoreEnv): string {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry (some containers): fall back to the shell's idea of the user.
    return env.USER || env.USERNAME || "unknown";
  }
}
