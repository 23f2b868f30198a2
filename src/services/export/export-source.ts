/**
 * The entries `lore export` renders (export and import, both ways): every reachable entry
 * of one indexed repository, whole, with its display summary and path — never a draft
 * (drafts are unverified until delivered: exporting one would make it a rule of another
 * tool before anyone has read it) and never an unreachable entry (its contract cannot
 * fire, so it would not surface in another tool either).
 */
import type { Entry } from "../../core/entry/entry.js";
import type { ExportEntry } from "../../core/export/export-entry.js";
import type { EntryIndex } from "../../index/entry-index.js";
import { KnowledgeListing } from "../../index/knowledge-listing.js";

/** What {@link exportSource} found. */
export interface ExportSource {
  /** The reachable entries, by path. */
  entries: ExportEntry[];
  /** Stored entries left out because they are unreachable. */
  unreachable: number;
  /** Drafts of the repository left out. */
  drafts: number;
}

/**
 * Reads the reachable entries of one repository from the index: the listing (contract,
 * reachability, path; by path), then the bodies — those kept only in git read ahead in one
 * `git cat-file --batch` (`preloadBodies`) — and each entry whole.
 *
 * @param index - the index.
 * @param repo - the repository's index identity (`Lore.resolveRepo`).
 * @throws LoreError `index_failed` when a body kept in git cannot be read (the clone is gone).
 */
export function exportSource(index: EntryIndex, repo: string): ExportSource {
  // -1: SQLite's LIMIT without a bound; an export takes every entry, not a page.
  const rows = index.withDatabase((db) => new KnowledgeListing(db)).list(repo, -1);
  const files = rows.filter((row) => row.draftBranch === undefined);
  const reachable = files.filter((row) => row.reachable);
  index.preloadBodies(
    repo,
    reachable.map((row) => row.path),
  );
  const entries: ExportEntry[] = [];
  for (const row of reachable) {
    const stored = index.getEntry(row.id, repo);
    if (stored === undefined) continue;
    const entry: Entry = {
      id: stored.id,
      contract: stored.contract,
      origin: stored.origin,
      links: stored.links,
      unknownKeys: stored.unknownKeys,
      body: stored.body,
    };
    if (stored.summaryOverride !== undefined) entry.summary = stored.summaryOverride;
    entries.push({ entry, summary: stored.summary, path: stored.path });
  }
  return {
    entries,
    unreachable: files.length - reachable.length,
    drafts: rows.length - files.length,
  };
}
