import { LoreError } from "../core/errors/lore-error.js";
import type { FederationFeatures } from "./federation-tools.js";
import type { ToolNames } from "./tool-names.js";

/** What a federation tool needs configured to be listed (see `registerFederationTools`). */
type Need = "forge" | "shared" | "either";

function needs(names: ToolNames): Map<string, Need> {
  return new Map<string, Need>([
    [names.wikiSearch, "shared"],
    [names.wikiGet, "shared"],
    [names.askProjects, "forge"],
    [names.getFrom, "forge"],
    [names.ingest, "either"],
    [names.suggestPromote, "shared"],
    [names.promote, "shared"],
    [names.createTask, "forge"],
    [names.projectsSync, "forge"],
    [names.projectsStatus, "forge"],
  ]);
}

const HOW: Record<Need, { en: string; ru: string }> = {
  forge: {
    en: 'it needs a forge: add a [forge] table to lore.toml (kind = "local", root = "~/repos"; or kind = "gitea", url, user) and restart lore mcp',
    ru: 'нужен forge: добавьте в lore.toml таблицу [forge] (kind = "local", root = "~/repos"; или kind = "gitea", url, user) и перезапустите lore mcp',
  },
  shared: {
    en: 'it needs the shared wiki: set [wiki] shared = "~/projects-wiki" in lore.toml and restart lore mcp',
    ru: 'нужна общая вики: задайте [wiki] shared = "~/projects-wiki" в lore.toml и перезапустите lore mcp',
  },
  either: {
    en: 'it needs a forge or the shared wiki: add a [forge] table or [wiki] shared = "~/projects-wiki" to lore.toml and restart lore mcp',
    ru: 'нужен forge или общая вики: добавьте в lore.toml таблицу [forge] или [wiki] shared = "~/projects-wiki" и перезапустите lore mcp',
  },
};

/**
 * Why a federation tool that was called is not listed (federation, "Tools"; seeds 000/001):
 * `federation_disabled` naming what to add to lore.toml, or, over HTTP (no federation at
 * all), that only `lore mcp` serves it — instead of "there is no tool".
 *
 * @param name - the called tool name, in the exposed style.
 * @param names - the exposed tool names.
 * @param features - what is configured; undefined when the server has no federation
 *   (`lore serve`).
 * @returns the refusal, or undefined when `name` is not a federation tool.
 */
export function unlistedToolError(
  name: string,
  names: ToolNames,
  features: FederationFeatures | undefined,
): LoreError | undefined {
  const need = needs(names).get(name);
  if (need === undefined) return undefined;
  const how =
    features === undefined
      ? {
          en: "the federation tools are served by lore mcp (stdio) only, not by lore serve (HTTP)",
          ru: "инструменты федерации доступны только через lore mcp (stdio), не через lore serve (HTTP)",
        }
      : HOW[need];
  return new LoreError(
    "federation_disabled",
    { tool: name, reason: how.en, reason_ru: how.ru },
    { data: { tool: name } },
  );
}
