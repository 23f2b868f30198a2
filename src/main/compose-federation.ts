import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { LoreError } from "../core/errors/lore-error.js";
import { checkWikiIndex } from "../core/wiki/wiki-index-check.js";
import type { FederationPort } from "../mcp/federation-port.js";
import { type ToolNames, toolNames } from "../mcp/tool-names.js";
import type { Backend } from "../ports/forge.js";
import { askProjects, memoIndexParser } from "../services/federation/ask-projects.js";
import { createTask } from "../services/federation/create-task.js";
import { getFrom } from "../services/federation/get-from.js";
import { memoCacheReader } from "../services/federation/projects-cache.js";
import { projectsStatus, syncSummary } from "../services/federation/projects-status.js";
import { syncToCache } from "../services/federation/sync.js";
import { ingestPage } from "../services/wiki/ingest-page.js";
import { promotePage, suggestPromoteReport } from "../services/wiki/promote-page.js";
import { getWikiPage, searchWiki } from "../services/wiki/wiki-search.js";
import { folderWikiStore, forgeWikiStore } from "../services/wiki/wiki-store.js";
import type { LoreSettings } from "./load-config.js";
import { createConfiguredForge } from "./load-forge.js";

/** A forge as the federation uses it: the port, the owner of reads, where it is. */
export interface FederationForge {
  forge: Backend;
  /** Owner passed to the forge (the Gitea user; any string for the local forge). */
  owner: string;
  /** Goes to `cache.synced_from`: the Gitea URL or the local forge's folder. */
  where: string;
}

/**
 * The federation's collaborators, each `null` when not configured (then the methods that
 * need it answer `federation_disabled`).
 */
export interface FederationDeps {
  /**
   * The forge (`[forge]`), or null; or a loader called at the first use (a Gitea forge asks
   * the server for its user) whose failure is that use's error.
   */
  forge: FederationForge | null | (() => Promise<FederationForge | null>);
  /** The sync cache file (`[projects] cache`), or null. */
  cacheFile: string | null;
  /** The shared wiki's folder (`[wiki] shared`), or null. */
  sharedWiki: string | null;
  /** The current project's folder; its wiki is `<dir>/.wiki/`. */
  projectDir: string;
  /** Goes to `cache.machine`. */
  machine: string;
  /** Names used in the hint of ask_projects (the exposed tool names). */
  names: Pick<ToolNames, "getFrom" | "createTask">;
  /** The clock. Default: `() => new Date()`. */
  now?: () => Date;
}

/** What each need is called in a `federation_disabled` message, and how to configure it. */
const HOW: Record<"forge" | "cache" | "shared", { en: string; ru: string }> = {
  forge: {
    en:
      "Lore was started without a forge. Add a [forge] table to lore.toml (a folder of git " +
      'repositories: kind = "local", root = "~/repos"; or a Gitea server: kind = "gitea", ' +
      "url, user, with the token in auth.toml); lore mcp reads it when it starts.",
    ru:
      "Lore запущен без forge. Добавьте в lore.toml таблицу [forge] (папка git-репозиториев: " +
      'kind = "local", root = "~/repos"; или сервер Gitea: kind = "gitea", url, user, токен ' +
      "в auth.toml); lore mcp читает его при запуске.",
  },
  cache: {
    en: "Lore was started without a sync cache. Set [projects] cache in lore.toml; lore mcp reads it when it starts.",
    ru: "Lore запущен без кэша sync. Задайте [projects] cache в lore.toml; lore mcp читает его при запуске.",
  },
  shared: {
    en:
      'Lore was started without a shared wiki. Set [wiki] shared = "~/projects-wiki" in ' +
      "lore.toml; lore mcp reads it when it starts.",
    ru:
      'Lore запущен без общей вики. Задайте [wiki] shared = "~/projects-wiki" в lore.toml; ' +
      "lore mcp читает его при запуске.",
  },
};

function disabled(tool: string, need: keyof typeof HOW): LoreError {
  return new LoreError("federation_disabled", {
    tool,
    reason: HOW[need].en,
    reason_ru: HOW[need].ru,
  });
}

/**
 * Binds the federation services (federation, “Tools”; seeds 000/001) to the configured forge,
 * cache and wiki folders: the {@link FederationPort} the MCP tools and the CLI commands use.
 * Nothing is opened here; each call reads the cache and the folders afresh, so a sync by
 * another process is seen at once.
 *
 * @param deps - see {@link FederationDeps}.
 */
export function composeFederation(deps: FederationDeps): FederationPort {
  const now = deps.now ?? (() => new Date());
  const parseIndex = memoIndexParser();
  const readCache = memoCacheReader();
  const projectWiki = () => folderWikiStore(join(deps.projectDir, ".wiki"));
  let loaded: Promise<FederationForge | null> | undefined;
  const needForge = async (caller: string): Promise<FederationForge> => {
    const source = deps.forge;
    if (typeof source === "function") {
      loaded ??= source();
      // A failed load is retried at the next use (the user may fix auth.toml meanwhile).
      const forge = await loaded.catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
      if (forge === null) throw disabled(caller, "forge");
      return forge;
    }
    if (source === null) throw disabled(caller, "forge");
    return source;
  };
  const needCache = (caller: string): string => {
    if (deps.cacheFile === null) throw disabled(caller, "cache");
    return deps.cacheFile;
  };
  const needShared = (caller: string) => {
    if (deps.sharedWiki === null) throw disabled(caller, "shared");
    return folderWikiStore(deps.sharedWiki);
  };
  return {
    searchShared: async (input, caller) => searchWiki(needShared(caller), input),
    getShared: async (slug, caller) => getWikiPage(needShared(caller), slug),
    async askProjects(input, caller) {
      const { forge, owner } = await needForge(caller);
      const cache = await readCache(needCache(caller));
      return askProjects({ forge, owner, cache, names: deps.names, parseIndex }, input);
    },
    async getFrom(project, slug, caller) {
      const { forge, owner } = await needForge(caller);
      const cache = await readCache(needCache(caller));
      return getFrom({ forge, owner, cache }, project, slug);
    },
    async ingest(input, caller, signal) {
      if (input.target_project === undefined)
        return ingestPage(projectWiki(), input, now(), signal);
      const { forge, owner } = await needForge(caller);
      return ingestPage(forgeWikiStore(forge, owner, input.target_project), input, now(), signal);
    },
    suggestPromote: async (caller) => suggestPromoteReport(projectWiki(), needShared(caller)),
    promote: async (slug, caller) => promotePage(projectWiki(), needShared(caller), slug, now()),
    async createTask(input, caller) {
      const { forge, owner } = await needForge(caller);
      return createTask({ forge, owner }, input);
    },
    async sync(caller, signal) {
      const { forge, owner, where } = await needForge(caller);
      const cacheFile = needCache(caller);
      const cache = await syncToCache({
        forge,
        owner,
        syncedFrom: where,
        machine: deps.machine,
        now,
        cacheFile,
        ...(signal === undefined ? {} : { signal }),
      });
      return syncSummary(cache, now());
    },
    async status(caller) {
      return projectsStatus(await readCache(needCache(caller)), now());
    },
    async checkIndexes(target, caller) {
      if (target.project !== undefined || target.all === true) {
        const cache = await readCache(needCache(caller));
        const projects = cache?.projects ?? [];
        if (target.all === true) {
          return projects
            .filter((p) => p.wiki_index !== undefined)
            .map((p) => ({ name: p.name, report: checkWikiIndex(p.wiki_index ?? "") }));
        }
        const found = projects.find((p) => p.name === target.project);
        if (found === undefined)
          throw new LoreError("project_unknown", { project: target.project ?? "" });
        const index = found.wiki_index;
        return [{ name: found.name, report: index === undefined ? null : checkWikiIndex(index) }];
      }
      const path = resolve(deps.projectDir, target.path ?? ".wiki");
      const isDir = (await stat(path).catch(() => null))?.isDirectory() ?? false;
      const file = isDir ? join(path, "index.md") : path;
      const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return null;
        throw error;
      });
      return [{ name: file, report: text === null ? null : checkWikiIndex(text) }];
    },
  };
}

/**
 * The federation of the configured settings (federation, seeds 000 and 001): `[forge]` (built at its first use),
 * `[projects] cache`, `[wiki] shared`, `machine` and the current project's folder.
 *
 * @param settings - from `loadSettings`.
 * @param names - the exposed tool names for ask_projects' hint. Default: underscore names.
 */
export function federationFromSettings(
  settings: LoreSettings,
  names: Pick<ToolNames, "getFrom" | "createTask"> = toolNames("underscore"),
): FederationPort {
  const forge = settings.forge;
  return composeFederation({
    forge:
      forge === undefined
        ? null
        : () =>
            createConfiguredForge(forge.config, {
              env: {},
              base: forge.base,
              authPath: forge.authPath,
            }),
    cacheFile: settings.cacheFile ?? null,
    sharedWiki: settings.sharedWiki ?? null,
    projectDir: settings.projectDir ?? process.cwd(),
    machine: settings.machine ?? "unknown",
    names,
  });
}
