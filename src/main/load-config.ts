import { existsSync, statSync } from "node:fs";
import { homedir, hostname, userInfo } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { ConfigFile } from "../core/config/config.js";
import {
  CONFIG_DEFAULTS,
  DEFAULT_HOOK_BUDGET_MS,
  DEFAULT_RECEIPT_KEEP_DAYS,
} from "../core/config/config-defaults.js";
import {
  type ConfigLayer,
  type ConfigSourceKind,
  type IgnoredKey,
  ignoredKeysNotice,
  type KeyOrigin,
  mergeConfigLayers,
  type SettingsNotice,
  trustFileNotice,
} from "../core/config/config-layers.js";
import { type Lang, pickLang } from "../core/errors/localized-text.js";
import { LoreError } from "../core/errors/lore-error.js";
import {
  isWindowsDrivePath,
  type KnowledgeRoot,
  listRoots,
} from "../core/roots/knowledge-roots.js";
import type * as ConfigReader from "./read-config.js";
import { realPathOr } from "./real-path.js";

/** The environment variables Lore reads (all optional). */
export type LoreEnv = Readonly<Record<string, string | undefined>>;

/**
 * Lore's settings after discovery, parsing and defaults: what the composition root needs.
 * Paths are absolute.
 */
export interface LoreSettings {
  /** The configuration file nearest the work (the project's, else the user's), or null. */
  configPath: string | null;
  /** Every configuration file read, in the order they are layered (user's, then project's). */
  configFiles?: { kind: ConfigSourceKind; file: string; trusted: boolean }[];
  /** Per key set by a file, the file it came from (`lore doctor`). */
  origins?: KeyOrigin[];
  /** Keys of an untrusted project file that were not applied. */
  ignored?: IgnoredKey[];
  /** What the user should be told (on stderr): ignored project keys, an unusable trust file. */
  notices?: SettingsNotice[];
  /** Counter owner. Config `user`, else env `LORE_USER`, else the OS user name. */
  user: string;
  /** Message language. Config `lang`, else `pickLang(env)` (`LORE_LANG`, locale). */
  lang: Lang;
  /** SQLite index file. Env `LORE_DB`, else `[index] database`, else `$XDG_DATA_HOME/lore/index.db`. */
  database: string;
  /**
   * `true` when `database` is the default (neither env `LORE_DB` nor `[index] database`
   * named one): the team server then keeps its own index in its data folder
   * (`main/server-index-file.ts`). Absent: `database` was named.
   */
  databaseIsDefault?: true;
  /** Repositories or folders indexed at `lore mcp` / `lore serve` start. */
  repos: string[];
  /**
   * `lore serve`: address (defaults `127.0.0.1`, `7377`), data folder (`[server] data`,
   * default `$XDG_DATA_HOME/lore/server`) and SSH port (`[server] ssh_port`, default `7378`,
   * `0` = off); the team server a client uses (`[server] url`, absent = local mode); the
   * licence file (`[server] license`, absolute: relative to the configuration file; absent =
   * Community) and the `shown` calls per token per minute (`[server] shown_rate_limit`,
   * absent = the default 600, `0` = no limit).
   */
  server: {
    host: string;
    port: number;
    data: string;
    sshPort: number;
    url?: string;
    license?: string;
    shownRateLimit?: number;
    /** `[server] database`: a PostgreSQL URL; absent = SQLite in the data folder. */
    database?: string;
    /** `[server] git_max_processes|git_max_queue|git_timeout_ms`, only the keys set; absent = the defaults. */
    git?: { maxProcesses?: number; maxQueue?: number; timeoutMs?: number };
  };
  /** Agent hooks: `budgetMs` = `[hooks] budget_ms`, default 300 ({@link DEFAULT_HOOK_BUDGET_MS}); absent in hand-built settings = the default. */
  hooks?: { budgetMs: number };
  /** Load receipts: `keepDays` = `[receipts] keep_days`, default 30 ({@link DEFAULT_RECEIPT_KEEP_DAYS}); absent in hand-built settings = the default. */
  receipts?: { keepDays: number };
  /**
   * The knowledge roots of `[knowledge]` (knowledge roots, seed 003): primary, named, read-only, in that
   * order; absent when the file has no `[knowledge]` table. Paths: `~` expanded, relative
   * ones against the config file's folder; a Windows drive path (`D:/x`, `D:\x`) is kept as
   * written on other systems (where it never exists: `lore doctor` reports it).
   */
  roots?: KnowledgeRoot[];
  /**
   * Federation: `[forge]` as written, `root` resolved (`~`, relative to the config file), with
   * the `auth.toml` path for Gitea's token; built by `main/load-forge.ts` when the
   * federation is used. Absent when the file has no `[forge]`.
   */
  forge?: { config: NonNullable<ConfigFile["forge"]>; base: string; authPath: string };
  /** Federation: `[wiki] shared`, resolved; absent when not configured. */
  sharedWiki?: string;
  /** Federation: `[projects] cache`, resolved. Default: `$XDG_DATA_HOME/lore/cache.json`. */
  cacheFile?: string;
  /** Federation: `machine`, written to the cache. Default: the host name. */
  machine?: string;
  /** Federation: the current project's folder (its wiki is `.wiki/`). Default: the working folder. */
  projectDir?: string;
  /**
   * The folder of the write locks of `knowledge_write_file` (outside every root):
   * `$XDG_STATE_HOME/lore/locks` (default `~/.local/state/lore/locks`).
   */
  lockDir?: string;
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

/** The configuration files found, before they are read (see {@link findConfigFiles}). */
export interface FoundConfigFiles {
  /** The user's own file: `--config`, else `LORE_CONFIG`, else `$XDG_CONFIG_HOME/lore/lore.toml`. */
  user: { kind: "flag" | "env" | "user"; file: string } | null;
  /** `./lore.toml` of the working folder, when it is not the user's file itself. */
  project: string | null;
}

/**
 * Finds the configuration files: the user's own (`--config PATH`, else env `LORE_CONFIG`,
 * else `$XDG_CONFIG_HOME/lore/lore.toml`, default `~/.config`) and the project's
 * (`./lore.toml` of the working folder), which is layered over it. The same file reached
 * both ways (`--config ./lore.toml`, a symbolic link) counts once, as the user's.
 *
 * @returns absolute paths; null where no file exists.
 * @throws LoreError `config_invalid` (data: `{ file, problems: [] }`) when `--config` or
 *   `LORE_CONFIG` names a missing file or a folder: the message names the file and says which.
 */
export function findConfigFiles(options: LoadSettingsOptions = {}): FoundConfigFiles {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const flagPath = options.configPath;
  const envPath = env.LORE_CONFIG || undefined;
  let user: FoundConfigFiles["user"] = null;
  const named = flagPath ?? envPath;
  if (named !== undefined) {
    const path = resolve(cwd, expandHome(named, env));
    if (!isFile(path))
      throw configNotAFile(path, flagPath !== undefined ? "--config" : "LORE_CONFIG");
    user = { kind: flagPath !== undefined ? "flag" : "env", file: path };
  } else {
    const xdg = userConfigPath(env);
    if (isFile(xdg)) user = { kind: "user", file: xdg };
  }
  const local = join(cwd, "lore.toml");
  const project = isFile(local) && (user === null || !sameFile(local, user.file)) ? local : null;
  return { user, project };
}

/**
 * The configuration file nearest the work: the project's `./lore.toml` when there is one,
 * else the user's (see {@link findConfigFiles}).
 *
 * @returns the absolute path, or null when there is none.
 * @throws LoreError `config_invalid` when `--config` or `LORE_CONFIG` names a missing file or a folder.
 */
export function findConfigFile(options: LoadSettingsOptions = {}): string | null {
  const found = findConfigFiles(options);
  return found.project ?? found.user?.file ?? null;
}

let loadedReader: typeof ConfigReader | undefined;

/**
 * Loads the configuration file reader (`read-config.ts`: zod, smol-toml, the trust file),
 * which {@link loadSettings} needs whenever a configuration file exists. Kept out of the
 * module graph so that a one-shot command with no configuration file (the usual `lore
 * recall`) never loads it. Idempotent.
 */
export async function loadConfigReader(): Promise<void> {
  loadedReader ??= await import("./read-config.js");
}

/**
 * Whether {@link loadSettings} with these options will read a file (and so needs
 * {@link loadConfigReader} first). An option naming a missing file answers false: the
 * settings then fail with `path_not_found` before any file is read.
 */
export function needsConfigReader(options: LoadSettingsOptions = {}): boolean {
  try {
    const found = findConfigFiles(options);
    return found.user !== null || found.project !== null;
  } catch {
    return false;
  }
}

function configReader(): typeof ConfigReader {
  if (loadedReader === undefined) {
    // A programming error, not a user's: the composition root awaits the reader first.
    throw new Error("loadSettings: a configuration file exists; await loadConfigReader() first");
  }
  return loadedReader;
}

/**
 * Discovers, reads and validates the configuration files, layers them key by key (the
 * project's `./lore.toml` over the user's own file, see `core/config/config-layers.ts`) and
 * applies every default. A project file's keys other than `lang` and `index.repos` count
 * only when its folder is trusted (`lore trust`); the others are listed in `ignored` and
 * said in `notices`.
 *
 * Needs {@link loadConfigReader} awaited first when a file exists (see
 * {@link needsConfigReader}); with no file it reads nothing and loads no parser.
 *
 * @throws LoreError `config_invalid` (data: `{ file, problems }`) when a file is not valid,
 *   the message naming each problem's line and key; `config_invalid` for a missing `--config`
 *   file (see {@link findConfigFiles}).
 * @throws Error when a file exists and the reader was not loaded (a programming error).
 */
export function loadSettings(options: LoadSettingsOptions = {}): LoreSettings {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const found = findConfigFiles(options);
  const reader = found.user === null && found.project === null ? undefined : configReader();
  const readConfigFile = (path: string) => (reader as typeof ConfigReader).readConfigFile(path);
  const layers: ConfigLayer[] = [];
  const notices: SettingsNotice[] = [];
  if (found.user !== null) {
    const value = resolveLayerPaths(readConfigFile(found.user.file), dirname(found.user.file), env);
    layers.push({ kind: found.user.kind, file: found.user.file, value, trusted: true });
  }
  if (found.project !== null) {
    const folder = realPathOr(dirname(found.project));
    const trust = (reader as typeof ConfigReader).readTrustedFolders(env);
    if (trust.problem !== undefined) notices.push(trustFileNotice(trust.problem));
    const value = resolveLayerPaths(readConfigFile(found.project), dirname(found.project), env);
    // Real paths, so a link inside the project that leads out of it is seen as outside.
    if (value.index?.repos !== undefined) value.index.repos = value.index.repos.map(realPathOr);
    const trusted = trust.folders.includes(folder);
    layers.push({ kind: "project", file: found.project, value, trusted, folder });
  }
  const merged = mergeConfigLayers(layers);
  const file = merged.value;
  if (merged.ignored.length > 0) notices.push(ignoredKeysNotice(merged.ignored));
  if (file.knowledge !== undefined) reader?.requireKnowledgeValid(file, layers);
  const originOf = (key: string) => merged.origins.find((o) => o.key === key)?.file;
  const database = env.LORE_DB
    ? resolve(cwd, expandHome(env.LORE_DB, env))
    : (file.index?.database ?? join(dataHome(env), "lore", "index.db"));
  const repos =
    file.index?.repos !== undefined
      ? file.index.repos
      : existsSync(join(cwd, ".gitriver", "knowledge"))
        ? [resolve(cwd)]
        : [];
  const settings: LoreSettings = {
    configPath: findConfigFile(options),
    user: file.user ?? (env.LORE_USER || osUserName(env)),
    lang: file.lang ?? pickLang(env),
    database,
    ...(env.LORE_DB || file.index?.database !== undefined ? {} : { databaseIsDefault: true }),
    repos,
    server: {
      host: file.server?.host ?? CONFIG_DEFAULTS.host,
      port: file.server?.port ?? CONFIG_DEFAULTS.port,
      data: file.server?.data ?? join(dataHome(env), "lore", "server"),
      sshPort: file.server?.ssh_port ?? CONFIG_DEFAULTS.sshPort,
      ...(file.server?.url === undefined ? {} : { url: file.server.url.replace(/\/+$/, "") }),
      ...(file.server?.license === undefined ? {} : { license: file.server.license }),
      ...(file.server?.shown_rate_limit === undefined
        ? {}
        : { shownRateLimit: file.server.shown_rate_limit }),
      ...(file.server?.database === undefined ? {} : { database: file.server.database }),
      ...gitLimits(file),
    },
    hooks: { budgetMs: file.hooks?.budget_ms ?? DEFAULT_HOOK_BUDGET_MS },
    receipts: { keepDays: file.receipts?.keep_days ?? DEFAULT_RECEIPT_KEEP_DAYS },
  };
  if (env.LORE_DB) {
    // The environment wins over every file: say so where the key's origin is shown.
    const origins = merged.origins.filter((o) => o.key !== "index.database");
    origins.push({ key: "index.database", kind: "env", file: "env LORE_DB", value: database });
    merged.origins = origins.sort((a, b) => a.key.localeCompare(b.key));
  }
  if (layers.length > 0 || env.LORE_DB) {
    settings.configFiles = layers.map((l) => ({ kind: l.kind, file: l.file, trusted: l.trusted }));
    settings.origins = merged.origins;
    settings.ignored = merged.ignored;
  }
  if (notices.length > 0) settings.notices = notices;
  if (file.knowledge !== undefined) settings.roots = listRoots(file.knowledge);
  if (file.forge !== undefined) {
    const from = originOf("forge.url") ?? originOf("forge.root") ?? originOf("forge.kind");
    const base = from === undefined ? cwd : dirname(from);
    const authPath = (reader as typeof ConfigReader).authFilePath(env);
    settings.forge = { config: { ...file.forge }, base, authPath };
  }
  if (file.wiki?.shared !== undefined) settings.sharedWiki = file.wiki.shared;
  settings.cacheFile = file.projects?.cache ?? join(dataHome(env), "lore", "cache.json");
  settings.machine = file.machine ?? safeHostname();
  settings.projectDir = resolve(cwd);
  settings.lockDir = lockHome(env);
  if (file.mcp?.tool_names !== undefined) settings.toolNames = file.mcp.tool_names;
  return settings;
}

/** `[server] git_*` as settings: only the keys set, and no `git` at all when none is. */
function gitLimits(file: ConfigFile): { git?: NonNullable<LoreSettings["server"]["git"]> } {
  const server = file.server ?? {};
  const git: NonNullable<LoreSettings["server"]["git"]> = {};
  if (server.git_max_processes !== undefined) git.maxProcesses = server.git_max_processes;
  if (server.git_max_queue !== undefined) git.maxQueue = server.git_max_queue;
  if (server.git_timeout_ms !== undefined) git.timeoutMs = server.git_timeout_ms;
  return Object.keys(git).length === 0 ? {} : { git };
}

function lockHome(env: LoreEnv): string {
  // The same folder for every process of the user (an editor's `lore mcp` may lack
  // XDG_RUNTIME_DIR where a terminal has it): locks must meet to exclude each other.
  const state = env.XDG_STATE_HOME;
  const base = state && isAbsolute(state) ? state : join(home(env), ".local", "state");
  return join(base, "lore", "locks");
}

/**
 * The refusal of a `--config` / `LORE_CONFIG` path that is not a file: `config_invalid`, as
 * for a file that cannot be read, naming the path and whether it is missing or a folder.
 */
function configNotAFile(path: string, via: string): LoreError {
  const folder = existsSync(path);
  const reason = folder
    ? `${via} names ${path}, which is a folder, not a configuration file`
    : `${via} names ${path}, which does not exist`;
  const reasonRu = folder
    ? `${via} указывает на ${path}, а это папка, а не файл настройки`
    : `${via} указывает на ${path}, а такого файла нет`;
  return new LoreError(
    "config_invalid",
    { reason, reason_ru: reasonRu },
    { data: { file: path, problems: [] } },
  );
}

/** Every path of one file, absolute: `~` expanded, relative ones against the file's folder. */
function resolveLayerPaths(value: ConfigFile, base: string, env: LoreEnv): ConfigFile {
  const toPath = (path: string) => resolve(base, expandHome(path, env));
  const toRoot = (path: string) => rootPath(path, base, env);
  const out: ConfigFile = { ...value };
  if (value.index !== undefined) {
    out.index = { ...value.index };
    if (value.index.database !== undefined) out.index.database = toPath(value.index.database);
    if (value.index.repos !== undefined) out.index.repos = value.index.repos.map(toPath);
  }
  if (value.server !== undefined) {
    out.server = { ...value.server };
    if (value.server.data !== undefined) out.server.data = toPath(value.server.data);
    if (value.server.license !== undefined) out.server.license = toPath(value.server.license);
  }
  if (value.knowledge !== undefined) {
    const k = value.knowledge;
    out.knowledge = {};
    if (k.primary !== undefined) out.knowledge.primary = toRoot(k.primary);
    if (k.roots !== undefined) {
      out.knowledge.roots = Object.fromEntries(
        Object.entries(k.roots).map(([id, path]) => [id, toRoot(path)]),
      );
    }
    if (k.read_only !== undefined) {
      out.knowledge.read_only = k.read_only.map((r) => ({ id: r.id, path: toRoot(r.path) }));
    }
  }
  if (value.forge?.root !== undefined)
    out.forge = { ...value.forge, root: toPath(value.forge.root) };
  if (value.wiki?.shared !== undefined) out.wiki = { shared: toPath(value.wiki.shared) };
  if (value.projects?.cache !== undefined) out.projects = { cache: toPath(value.projects.cache) };
  return out;
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

function sameFile(a: string, b: string): boolean {
  return realPathOr(a) === realPathOr(b);
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
