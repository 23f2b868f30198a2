import { readFile, realpath } from "node:fs/promises";
import { join, sep } from "node:path";
import type { ParsedEntry } from "../../core/entry/entry.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import { deriveSummary } from "../../core/entry/summary.js";
import type { KnowledgeRoot } from "../../core/roots/knowledge-roots.js";
import { isLoreTemplate } from "../../core/roots/lore-templates.js";
import { rootRepoName } from "../../core/roots/root-repo-name.js";
import type { EntryIndex, IdClash } from "../../index/entry-index.js";
import { listMarkdownFiles } from "../files/list-markdown-files.js";
import { KNOWLEDGE_DIR, MAX_FILE_BYTES } from "../roots/knowledge-files.js";
import { gitBlobSha } from "./index-folder.js";

/** What one root's run did. */
export interface RootIndexRun {
  root: string;
  /** False when the root's `knowledge/` folder is missing (nothing indexed, nothing dropped). */
  exists: boolean;
  /** Notes stored as entries (contract fires). */
  entries: number;
  /** Notes stored as text only. */
  notes: number;
  /** Notes unchanged since the last run. */
  unchanged: number;
  /** Notes dropped (gone from the disk). */
  removed: number;
  /** Ids this root's notes share with entries of other sources (both kept; reported). */
  clashes: IdClash[];
}

/**
 * Indexes the notes of each root: every `*.md` under its `knowledge/` up to
 * `MAX_FILE_BYTES`, an entry when it parses as one, else a text-only note; the templates
 * Lore wrote (`isLoreTemplate`: `*.example.md`, a text opening with the template mark) are
 * skipped, and dropped when stored before. A missing root folder is reported
 * (`exists: false`) and does not stop the other roots.
 *
 * @param index - the index.
 * @param roots - the configured roots (paths absolute).
 * @returns one run per root, in order.
 */
export async function indexRoots(
  index: EntryIndex,
  roots: readonly KnowledgeRoot[],
): Promise<RootIndexRun[]> {
  const runs: RootIndexRun[] = [];
  for (const root of roots) runs.push(await indexRoot(index, root));
  return runs;
}

async function indexRoot(index: EntryIndex, root: KnowledgeRoot): Promise<RootIndexRun> {
  const repo = rootRepoName(root.id);
  const run: RootIndexRun = {
    root: root.id,
    exists: false,
    entries: 0,
    notes: 0,
    unchanged: 0,
    removed: 0,
    clashes: [],
  };
  const base = join(root.path, KNOWLEDGE_DIR);
  // A `knowledge/` that is a symbolic link out of the root is not indexed (read_file refuses
  // it too, `path_outside_root`): what was stored from it is dropped below.
  const escapes = await leadsOutside(root.path, base);
  const paths = escapes ? [] : await listMarkdownFiles(base);
  if (paths === null) return run;
  run.exists = !escapes;
  const stored = index.listFiles(repo);
  const seen = new Set<string>();
  const changed: { path: string; sha: string; bytes: Buffer }[] = [];
  for (const path of paths) {
    const bytes = await readFile(join(base, ...path.split("/"))).catch(() => null);
    if (bytes === null || bytes.length > MAX_FILE_BYTES) continue;
    // Examples and templates Lore wrote are not knowledge: skipped (and dropped if stored).
    if (isLoreTemplate(path, bytes)) continue;
    seen.add(path);
    const sha = gitBlobSha(bytes);
    if (stored.get(path) === sha) run.unchanged++;
    else changed.push({ path, sha, bytes });
  }
  // One transaction per root: a reader sees the root's notes before or after, never half.
  index.transaction(() => {
    for (const path of stored.keys()) {
      if (!seen.has(path)) {
        index.deleteFile(repo, path);
        run.removed++;
      }
    }
    for (const { path, sha, bytes } of changed) {
      const parsed = parseEntry(bytes, { mode: "lenient", path });
      // Ids are unique per source: only another note of this root can hold the id; an
      // entry of a repository holding it too is a clash, reported, and both are kept.
      const owner = parsed.value
        ? index.idOwners(repo, [parsed.value.entry.id]).get(parsed.value.entry.id)
        : undefined;
      const ownedElsewhere = owner !== undefined && owner.path !== path;
      if (parsed.value !== undefined && !ownedElsewhere) {
        index.putFile({
          repo,
          path,
          blobSha: sha,
          parsed: parsed.value,
          diagnostics: parsed.diagnostics,
        });
        run.entries++;
      } else {
        const text = new TextDecoder().decode(bytes);
        index.putFile({
          repo,
          path,
          blobSha: sha,
          parsed: noteEntry(root.id, path, text),
          diagnostics: [],
        });
        run.notes++;
      }
    }
    index.putRepository({
      repo,
      path: root.path,
      kind: "root",
      commit: null,
      indexedAt: Date.now(),
    });
  });
  run.clashes = index.clashes(repo);
  return run;
}

/**
 * A note that is not an entry, as a text-only entry: id `note:<root>:<path>`, the whole
 * text as body, the first paragraph as summary, no contract.
 *
 * @param rootId - the root's id.
 * @param path - the path relative to `knowledge/`.
 * @param text - the note's text.
 */
export function noteEntry(rootId: string, path: string, text: string): ParsedEntry {
  const body = text.replace(/\r\n?/g, "\n");
  return {
    entry: {
      id: `note:${rootId.toLowerCase()}:${path}`,
      contract: [],
      origin: "human",
      links: [],
      unknownKeys: {},
      body,
    },
    summary: deriveSummary(body).summary,
    reachable: false,
    unmetMechanisms: [],
  };
}

/** Whether `knowledge/` resolves to a folder outside its root (a linked folder). */
async function leadsOutside(rootPath: string, base: string): Promise<boolean> {
  const rootReal = await realpath(rootPath).catch(() => null);
  const baseReal = await realpath(base).catch(() => null);
  if (rootReal === null || baseReal === null) return false;
  return !baseReal.startsWith(rootReal.endsWith(sep) ? rootReal : rootReal + sep);
}
