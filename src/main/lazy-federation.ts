import type { FederationPort } from "../mcp/federation-port.js";
import type { ToolNames } from "../mcp/tool-names.js";
import type { LoreSettings } from "./load-config.js";

/**
 * The federation port of the configured settings (see `compose-federation.ts`), with its
 * code — the forges, the wiki and sync services — loaded at the first call, so that commands
 * that never use it (`lore recall`, `lore check`) start without it. Every method of
 * {@link FederationPort} is asynchronous, so the port behaves the same; errors are the
 * same as `federationFromSettings`'s.
 *
 * @param settings - from `loadSettings`.
 * @param names - the exposed tool names for ask_projects' hint. Default: underscore names.
 */
export function lazyFederation(
  settings: LoreSettings,
  names?: Pick<ToolNames, "getFrom" | "createTask">,
): FederationPort {
  let loaded: Promise<FederationPort> | undefined;
  const port = (): Promise<FederationPort> => {
    loaded ??= import("./compose-federation.js").then(({ federationFromSettings }) =>
      federationFromSettings(settings, names),
    );
    return loaded;
  };
  return {
    searchShared: async (input, caller) => (await port()).searchShared(input, caller),
    getShared: async (slug, caller) => (await port()).getShared(slug, caller),
    askProjects: async (input, caller) => (await port()).askProjects(input, caller),
    getFrom: async (project, slug, caller) => (await port()).getFrom(project, slug, caller),
    ingest: async (input, caller) => (await port()).ingest(input, caller),
    suggestPromote: async (caller) => (await port()).suggestPromote(caller),
    promote: async (slug, caller) => (await port()).promote(slug, caller),
    createTask: async (input, caller) => (await port()).createTask(input, caller),
    sync: async (caller) => (await port()).sync(caller),
    status: async (caller) => (await port()).status(caller),
    checkIndexes: async (target, caller) => (await port()).checkIndexes(target, caller),
  };
}

/**
 * Which federation collaborators are configured, for deciding which tools can work: a forge
 * (`[forge]`) and the shared wiki (`[wiki] shared`). The sync cache always has a default path.
 *
 * @param settings - from `loadSettings`.
 */
export function federationFeatures(settings: LoreSettings): {
  forge: boolean;
  sharedWiki: boolean;
} {
  return { forge: settings.forge !== undefined, sharedWiki: settings.sharedWiki !== undefined };
}
