import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import type { ConfigFile } from "../core/config/config.js";
import { LoreError } from "../core/errors/lore-error.js";
import type { Backend } from "../ports/forge.js";

/** The environment variables read here (`XDG_CONFIG_HOME`, `HOME`). */
export type ForgeEnv = Readonly<Record<string, string | undefined>>;

/** What `auth.toml` holds for the forge. */
export interface ForgeAuth {
  /** The Gitea access token (`[gitea] token`). */
  token: string;
}

/**
 * The path of `auth.toml`: `$XDG_CONFIG_HOME/lore/auth.toml` (default `~/.config/lore/auth.toml`).
 *
 * @param env - the environment.
 */
export function authFilePath(env: ForgeEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), ".config");
  return join(base, "lore", "auth.toml");
}

/**
 * Reads the forge token from `auth.toml` (federation, “Forge adapters”). Format:
 *
 * ```toml
 * [gitea]
 * token = "…"
 * ```
 *
 * The file must not be readable by group or others (POSIX; `chmod 600`).
 *
 * @param options - `env` for the default path, or `path` to read another file.
 * @returns the token, or `null` when the file does not exist.
 * @throws LoreError `auth_file_insecure` (mode allows group/others), `config_invalid`
 *   (not TOML, or no `[gitea] token`).
 */
export function loadForgeAuth(options: { env: ForgeEnv; path?: string }): ForgeAuth | null {
  const read = readAuthFile(options);
  if (read === null) return null;
  const token = (read.table.gitea as { token?: unknown } | undefined)?.token;
  if (typeof token !== "string" || token.trim() === "")
    throw new LoreError("config_invalid", {
      reason: `${read.path}: no [gitea] token`,
      reason_ru: `${read.path}: нет [gitea] token`,
    });
  return { token: token.trim() };
}

/**
 * Reads `auth.toml` whole (the forge's `[gitea]` and the team server's `[server]` tokens),
 * refusing a file group or others may read.
 *
 * @param options - `env` for the default path, or `path` to read another file.
 * @returns the path and the parsed table, or `null` when the file does not exist.
 * @throws LoreError `auth_file_insecure`, `config_invalid` (not TOML).
 */
export function readAuthFile(options: {
  env: ForgeEnv;
  path?: string;
}): { path: string; table: Record<string, unknown> } | null {
  const path = options.path ?? authFilePath(options.env);
  const info = statSync(path, { throwIfNoEntry: false });
  if (info === undefined) return null;
  if (process.platform !== "win32" && (info.mode & 0o077) !== 0)
    throw new LoreError("auth_file_insecure", {
      path,
      mode: (info.mode & 0o777).toString(8).padStart(4, "0"),
    });
  try {
    return { path, table: parseToml(readFileSync(path, "utf8")) as Record<string, unknown> };
  } catch (error) {
    throw new LoreError(
      "config_invalid",
      { reason: `${path}: ${(error as Error).message}` },
      { cause: error },
    );
  }
}

/** A configured forge: the port, the owner passed to its reads, and where it is (for `synced_from`). */
export interface ConfiguredForge {
  forge: Backend;
  /** The Gitea user (config `[forge] user`, else the token's user); `local` for the local forge. */
  owner: string;
  /** The Gitea URL, or the local forge's folder. */
  where: string;
}

/**
 * Builds the forge from `[forge]` of `lore.toml` (federation, “Forge adapters”): `kind = "local"`
 * with `root`, or `kind = "gitea"` with `url` (+ optional `user`) and the token of `auth.toml`.
 * The kind defaults to `local` when `root` is set, `gitea` when `url` is set.
 *
 * @param config - the `[forge]` table as parsed, or undefined.
 * @param options - `env`; `base`, the folder relative `root` paths are read against (the config file's).
 * @returns the forge, or `null` when `[forge]` is absent or names neither root nor url.
 * @throws LoreError `config_invalid` (kind without its key, Gitea without `auth.toml`),
 *   `auth_file_insecure`; for Gitea without `user`: the forge's errors from `GET /user`.
 */
export async function createConfiguredForge(
  config: ConfigFile["forge"],
  options: { env: ForgeEnv; base: string; authPath?: string },
): Promise<ConfiguredForge | null> {
  if (config === undefined) return null;
  const kind =
    config.kind ??
    (config.root !== undefined ? "local" : config.url !== undefined ? "gitea" : undefined);
  if (kind === undefined) return null;
  if (kind === "local") {
    if (config.root === undefined)
      throw new LoreError("config_invalid", {
        reason: '[forge] kind = "local" needs root = "<folder of repositories>"',
      });
    const home = options.env.HOME || homedir();
    const root = resolve(
      options.base,
      config.root.startsWith("~/") ? join(home, config.root.slice(2)) : config.root,
    );
    // The adapters load when a forge is built, not with the configuration reader.
    const { LocalForge } = await import("../adapters/local-forge/local-forge.js");
    return { forge: new LocalForge({ root }), owner: "local", where: root };
  }
  if (config.url === undefined)
    throw new LoreError("config_invalid", {
      reason: '[forge] kind = "gitea" needs url = "https://…"',
    });
  const auth = loadForgeAuth({
    env: options.env,
    ...(options.authPath === undefined ? {} : { path: options.authPath }),
  });
  if (auth === null)
    throw new LoreError("config_invalid", {
      reason: `the Gitea token is missing: write [gitea] token = "…" to ${options.authPath ?? authFilePath(options.env)} (chmod 600)`,
      reason_ru: `нет токена Gitea: запишите [gitea] token = "…" в ${options.authPath ?? authFilePath(options.env)} (chmod 600)`,
    });
  const { GiteaForge } = await import("../adapters/gitea/gitea-forge.js");
  const forge = new GiteaForge({ url: config.url, token: auth.token });
  return { forge, owner: config.user ?? (await forge.currentUser()), where: config.url };
}
