/**
 * `status` of the knowledge roots (seed 003, ADR 015 "Status"; knowledge roots, “MCP tools and
 * CLI”): each root with id, kind, path, whether its folder exists, whether it is writable,
 * and how many `.md` files its `knowledge/` holds; `read_only_routing_enabled` when any
 * read-only root is configured. A missing folder is reported, never thrown.
 */
import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Lang } from "../../core/errors/localized-text.js";
import { HOT_FILE } from "../../core/roots/hot-sections.js";
import type { KnowledgeRoot } from "../../core/roots/knowledge-roots.js";
import { formatRegistryProblem } from "../../core/roots/roots-registry.js";
import { KNOWLEDGE_DIR, loadRegistry } from "./knowledge-files.js";

/** Most files counted per root (the count is a lower bound above it). */
export const FILE_COUNT_CAP = 100_000;

/** One root in a status answer. */
export interface RootStatus {
  id: string;
  kind: KnowledgeRoot["kind"];
  path: string;
  /** Whether the root folder exists. */
  exists: boolean;
  /** Whether it has a `knowledge/` folder. */
  has_knowledge: boolean;
  /** True for the primary root only. */
  writable: boolean;
  /** `.md` files under `knowledge/` (symbolic links not followed; capped). */
  file_count: number;
}

/** Answer of {@link rootsStatus}. */
export interface RootsStatusAnswer {
  roots: RootStatus[];
  /** True when any read-only root is configured (seed 003). */
  read_only_routing_enabled: boolean;
  /** The registry in primary: whether it exists, its entries and malformed lines. */
  registry: { exists: boolean; entries: number; malformed: string[] };
  /** Whether `agent-notes.md` exists at the primary root. */
  hot_file_exists: boolean;
}

/**
 * Reports the roots.
 *
 * @param roots - the configured roots (paths absolute).
 * @param lang - the language of the malformed-line messages.
 */
export async function rootsStatus(
  roots: readonly KnowledgeRoot[],
  lang: Lang = "en",
): Promise<RootsStatusAnswer> {
  const out: RootStatus[] = [];
  for (const root of roots) {
    const exists = (await lstat(root.path).catch(() => null))?.isDirectory() === true;
    const knowledge = join(root.path, KNOWLEDGE_DIR);
    const hasKnowledge =
      exists && (await lstat(knowledge).catch(() => null))?.isDirectory() === true;
    out.push({
      id: root.id,
      kind: root.kind,
      path: root.path,
      exists,
      has_knowledge: hasKnowledge,
      writable: root.writable,
      file_count: hasKnowledge ? await countMarkdown(knowledge) : 0,
    });
  }
  const primary = roots.find((r) => r.kind === "primary");
  const registry = primary === undefined ? undefined : await loadRegistry(primary);
  const hot =
    primary !== undefined &&
    (await readFile(join(primary.path, HOT_FILE)).then(
      () => true,
      () => false,
    ));
  return {
    roots: out,
    read_only_routing_enabled: roots.some((r) => r.kind === "read_only"),
    registry: {
      exists: registry !== undefined,
      entries: registry?.entries.length ?? 0,
      malformed: (registry?.diagnostics ?? []).map((d) => formatRegistryProblem(d, lang)),
    },
    hot_file_exists: hot,
  };
}

/** Counts `.md` regular files under a folder, following no symbolic link. */
async function countMarkdown(folder: string): Promise<number> {
  let count = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (count >= FILE_COUNT_CAP) return;
      if (entry.isDirectory()) await walk(join(dir, entry.name));
      else if (entry.isFile() && entry.name.endsWith(".md")) count++;
    }
  };
  await walk(folder);
  return count;
}
