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
  if (token === undefined) throw serverNotConfigured("token", authFilePath(env));
  return new TeamClient({ url, token, lang: settings.lang });
}

/**
 * `server_not_configured`, saying exactly what is missing: `url` — `[server] url` and a
 * token; `token` — `[server] url` is set, only the token is missing (`LORE_TOKEN`, or
 * `[server] token` of `auth.toml`). `data: {missing}`.
 *
 * @param missing - what the configuration lacks.
 * @param auth - the `auth.toml` path to name.
 */
export function serverNotConfigured(missing: "url" | "token", auth: string): LoreError {
  const text =
    missing === "url"
      ? {
          missing: `it needs [server] url in lore.toml and a token — [server] token = "…" in ${auth} (chmod 600), or env LORE_TOKEN`,
          missing_ru: `нужны [server] url в lore.toml и токен — [server] token = "…" в ${auth} (chmod 600) или переменная LORE_TOKEN`,
        }
      : {
          missing: `[server] url is set, but there is no token — set env LORE_TOKEN, or [server] token = "…" in ${auth} (chmod 600)`,
          missing_ru: `[server] url задан, но токена нет — задайте переменную LORE_TOKEN или [server] token = "…" в ${auth} (chmod 600)`,
        };
  return new LoreError("server_not_configured", text, { data: { missing } });
}

/** `[server] token` of `auth.toml`, or `undefined`. */
function readServerToken(env: ForgeEnv): string | undefined {
  const read = readAuthFile({ env });
  const token = (read?.table.server as { token?: unknown } | undefined)?.token;
  return typeof token === "string" && token.trim() !== "" ? token.trim() : undefined;
}
