/**
 * The team server a client of this machine uses, from the configuration: `[server] url`
 * and the token — `LORE_TOKEN`, else `[server] token` of `auth.toml` (mode 0600).
 */
import { TeamClient } from "../adapters/team-server/team-client.js";
import { LoreError } from "../core/errors/lore-error.js";
import type { LoreSettings } from "./load-config.js";
import { authFilePath, type ForgeEnv, readAuthFile } from "./load-forge.js";

/**
 * The configured team server's client, or `null` in local mode (no `[server] url`).
 *
 * @param settings - the loaded settings (`server.url`, `lang`).
 * @param env - the environment (`LORE_TOKEN`, `XDG_CONFIG_HOME`, `HOME`).
 * @throws LoreError `server_not_configured` (a url but no token), `auth_file_insecure`,
 *   `config_invalid`.
 */
export function configuredTeamClient(settings: LoreSettings, env: ForgeEnv): TeamClient | null {
  const url = settings.server.url;
  if (url === undefined) return null;
  const token = env.LORE_TOKEN?.trim() || readServerToken(env);
  if (token === undefined) {
    throw new LoreError("server_not_configured", { auth: authFilePath(env) });
  }
  return new TeamClient({ url, token, lang: settings.lang });
}

/** `[server] token` of `auth.toml`, or `undefined`. */
function readServerToken(env: ForgeEnv): string | undefined {
  const read = readAuthFile({ env });
  const token = (read?.table.server as { token?: unknown } | undefined)?.token;
  return typeof token === "string" && token.trim() !== "" ? token.trim() : undefined;
}
