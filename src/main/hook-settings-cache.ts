/**
 * The agent hook's settings, cached (section "Deterministic surfacing through agent hooks":
 * the hook answers well inside its budget). Reading a lore.toml needs the configuration
 * reader, and loading it (zod, smol-toml) cost ~85 ms of CPU of a hook process of ~150 ms
 * (measured with `farm-bench` on the bench machine) — on every prompt and tool call of an
 * agent. The settings a lore.toml gives depend only on the files read and a few
 * environment variables, so the hook keeps the last settings per such key in
 * `$XDG_CACHE_HOME/lore/hook-settings.json` (default `~/.cache`) and reads the
 * configuration again only when a key part changed: a configuration file's or the trust
 * file's path, size or modification time, the working folder, an environment variable
 * Lore reads. A cache that cannot be read or written is ignored (the settings are then
 * read as always).
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import {
  findConfigFiles,
  type LoreEnv,
  type LoreSettings,
  loadConfigReader,
  loadSettings,
} from "./load-config.js";
import { trustFilePath } from "./trust-store.js";

/** Keys kept in the cache file (one per project folder and configuration, newest first). */
export const HOOK_SETTINGS_CACHE_KEYS = 16;

/** The environment variables the settings depend on (`load-config.ts`, `trust-store.ts`). */
const ENV_KEYS = [
  "LORE_CONFIG",
  "LORE_DB",
  "LORE_USER",
  "LORE_LANG",
  "LANG",
  "LC_ALL",
  "LC_MESSAGES",
  "HOME",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "LANGUAGE",
  "USER",
  "USERNAME",
] as const;

/** The cache file: `$XDG_CACHE_HOME/lore/hook-settings.json` (default `~/.cache/lore/…`). */
export function hookSettingsCacheFile(env: LoreEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), ".cache");
  return join(base, "lore", "hook-settings.json");
}

function fileStamp(path: string | null): string {
  if (path === null) return "-";
  try {
    const info = statSync(path);
    return `${path}:${info.size}:${info.mtimeMs}`;
  } catch {
    return `${path}:none`;
  }
}

interface CacheFile {
  entries: { key: string; settings: LoreSettings }[];
}

function readCache(file: string): CacheFile {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as CacheFile;
    return Array.isArray(value?.entries) ? value : { entries: [] };
  } catch {
    return { entries: [] };
  }
}

/**
 * The settings for a hook process: as `loadSettings` gives them, from the cache when the
 * files and environment they came from are unchanged. With no configuration file nothing
 * is cached (the settings then cost no reader).
 *
 * @param cwd - the working folder.
 * @param env - the environment.
 * @throws LoreError `config_invalid` when a lore.toml is broken (nothing is cached then).
 */
export async function cachedHookSettings(cwd: string, env: LoreEnv): Promise<LoreSettings> {
  const options = { cwd, env };
  const found = findConfigFiles(options);
  if (found.user === null && found.project === null) return loadSettings(options);
  const key = JSON.stringify([
    cwd,
    fileStamp(found.user?.file ?? null),
    found.user?.kind ?? "-",
    fileStamp(found.project),
    fileStamp(trustFilePath(env)),
    ENV_KEYS.map((name) => env[name] ?? null),
  ]);
  const file = hookSettingsCacheFile(env);
  const cache = readCache(file);
  const hit = cache.entries.find((entry) => entry.key === key);
  if (hit !== undefined) return hit.settings;
  await loadConfigReader();
  const settings = loadSettings(options);
  try {
    const entries = [{ key, settings }, ...cache.entries.filter((e) => e.key !== key)].slice(
      0,
      HOOK_SETTINGS_CACHE_KEYS,
    );
    mkdirSync(join(file, ".."), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ entries }));
    renameSync(temp, file);
  } catch {
    // A read-only or full cache folder: the next hook reads the configuration again.
  }
  return settings;
}
