/**
 * `route_context`: what the hot file says about a query, plus the roots overlay (seed 003,
 * "Поток агента"; knowledge roots, “MCP tools and CLI”). The hot sections of `agent-notes.md` are
 * matched by heading and words with recall's normalisation; when the query is about roots
 * (group, public, roots, chmod, registry…) or matches a registry line, the overlay adds the
 * `knowledge-roots-routing-v1` section, the matching registry lines and a preview of each
 * matched file from its root.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import {
  findSection,
  HOT_FILE,
  ROUTING_SECTION_ID,
  relevantSections,
  splitHotSections,
} from "../../core/roots/hot-sections.js";
import type { KnowledgeRoot } from "../../core/roots/knowledge-roots.js";
import { resolveRoot } from "../../core/roots/root-resolution.js";
import type { RegistryEntry } from "../../core/roots/roots-registry.js";
import { isRoutingQuery, matchingRegistryEntries } from "../../core/roots/route-overlay.js";
import { loadRegistry, type RootsContext, readKnowledgeFile } from "./knowledge-files.js";

/** Characters of each preview (seed 003: «короткий preview»). */
export const PREVIEW_CHARS = 400;

/** Most registry lines in an overlay (a registry can hold thousands of one root's lines). */
export const MAX_OVERLAY_LINES = 50;

/** Most previews in an overlay (each reads a file). */
export const MAX_PREVIEWS = 10;

/** One hot section in an answer. */
export interface RouteSection {
  heading: string;
  id: string;
  line: number;
  score: number;
  text: string;
}

/** A preview of a registry-matched file from its root. */
export interface RoutePreview {
  root: string;
  file_path: string;
  /** The first {@link PREVIEW_CHARS} characters; null when the file could not be read. */
  preview: string | null;
  /** Why there is no preview (an error code), when there is none. */
  error?: string;
}

/** Answer of {@link routeContext}. */
export interface RouteContextAnswer {
  query: string;
  /** Whether `agent-notes.md` exists at the primary root. */
  hot_file_found: boolean;
  /** The relevant hot sections, best first (at most 5). */
  sections: RouteSection[];
  /** Whether the roots overlay was added. */
  knowledge_roots_overlay_applied: boolean;
  /** The overlay, when applied. */
  overlay?: {
    /** The `knowledge-roots-routing-v1` section's text; null when the hot file lacks it. */
    routing_section: string | null;
    /** The matching registry lines, at most {@link MAX_OVERLAY_LINES} in file order. */
    registry_lines: { line: number; text: string; path: string; prefix: boolean; root: string }[];
    /** A preview of each matched file entry that lives in another root (at most {@link MAX_PREVIEWS}). */
    previews: RoutePreview[];
  };
}

/**
 * Routes a query (see the module header).
 *
 * @param ctx - the roots.
 * @param query - the agent's query, any language (non-blank, ≤ 2000 characters).
 * @throws LoreError `empty_query` for a blank query; `no_primary_root` when no primary root
 *   is configured.
 */
export async function routeContext(ctx: RootsContext, query: string): Promise<RouteContextAnswer> {
  if (query.trim() === "") throw new LoreError("empty_query");
  const primary = resolveRoot(ctx.roots, {});
  const hotText = await readFile(join(primary.path, HOT_FILE), "utf8").catch(() => null);
  const sections = hotText === null ? [] : splitHotSections(hotText);
  const answer: RouteContextAnswer = {
    query,
    hot_file_found: hotText !== null,
    sections: relevantSections(sections, query).map((s) => ({
      heading: s.heading,
      id: s.id,
      line: s.line,
      score: s.score,
      text: s.text,
    })),
    knowledge_roots_overlay_applied: false,
  };
  const registry = await loadRegistry(primary);
  const entries = registry?.entries ?? [];
  const matched = matchingRegistryEntries(entries, query);
  const named = namedRootEntries(entries, ctx.roots, query);
  const wanted = new Set([...matched, ...named]);
  const lines = entries.filter((e) => wanted.has(e)).slice(0, MAX_OVERLAY_LINES);
  if (!isRoutingQuery(query) && matched.length === 0) return answer;
  const routing = findSection(sections, ROUTING_SECTION_ID);
  answer.knowledge_roots_overlay_applied = true;
  answer.overlay = {
    routing_section: routing?.text ?? null,
    registry_lines: lines.map((e) => ({
      line: e.line,
      text: e.text,
      path: e.path,
      prefix: e.prefix,
      root: e.root,
    })),
    previews: await previews(ctx, lines),
  };
  return answer;
}

/** Registry entries whose root id the query names (`what is in group`). */
function namedRootEntries(
  entries: readonly RegistryEntry[],
  roots: readonly KnowledgeRoot[],
  query: string,
): RegistryEntry[] {
  const words = new Set(query.toLowerCase().split(/[^\p{L}\p{N}_.-]+/u));
  const ids = roots.filter((r) => r.kind !== "primary" && words.has(r.id.toLowerCase()));
  return entries.filter((e) => ids.some((r) => r.id.toLowerCase() === e.root));
}

async function previews(
  ctx: RootsContext,
  lines: readonly RegistryEntry[],
): Promise<RoutePreview[]> {
  const out: RoutePreview[] = [];
  for (const entry of lines) {
    if (out.length >= MAX_PREVIEWS) break;
    if (entry.prefix || entry.root === "primary") continue;
    try {
      const read = await readKnowledgeFile(ctx, {
        file_path: entry.path,
        knowledge_root_id: entry.root,
      });
      out.push({
        root: read.root,
        file_path: read.file_path,
        preview: (read.text ?? "").slice(0, PREVIEW_CHARS),
      });
    } catch (error) {
      out.push({
        root: entry.root,
        file_path: entry.path,
        preview: null,
        error: isLoreError(error) ? error.code : "internal",
      });
    }
  }
  return out;
}
