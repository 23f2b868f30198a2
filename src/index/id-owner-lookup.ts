import Database from "better-sqlite3";

/**
 * A read-only look-up of which file holds an id, straight on the index file, for
 * `pre-receive` (seed 004, "Разбор при отправке": duplicate ids are judged against the
 * repository's other entries, and the hook writes nothing before the push is accepted —
 * no migration, no re-evaluation, no counter flush, which `openIndex` may do).
 */
export interface IdOwnerIndex {
  /** See `EntryIndex.idOwners`: id → the file of `source` holding it. */
  idOwners(source: string, ids: readonly string[]): Map<string, { repo: string; path: string }>;
  close(): void;
}

/**
 * Opens the index file read-only.
 *
 * @param file - the index file.
 * @returns the look-up, or `undefined` when the file does not exist or is not an index
 *   (a first push before any index).
 */
export function openIdOwnerIndex(file: string): IdOwnerIndex | undefined {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    return undefined;
  }
  try {
    db.pragma("busy_timeout = 5000");
    const owners = db
      .prepare(
        "SELECT e.id, f.repo, f.path FROM entries e JOIN files f USING (file_id) WHERE e.repo = ? AND e.id IN (SELECT value FROM json_each(?))",
      )
      .raw();
    return {
      idOwners(source, ids) {
        const out = new Map<string, { repo: string; path: string }>();
        if (ids.length === 0) return out;
        for (const [id, repo, path] of owners.all(source, JSON.stringify(ids)) as [
          string,
          string,
          string,
        ][]) {
          out.set(id, { repo, path });
        }
        return out;
      },
      close: () => db.close(),
    };
  } catch {
    db.close();
    return undefined;
  }
}
